// What the model is told about a change the user decided part by part, and what the chat lists of an edit's parts
// (src/agentHost/proposalTypes.ts, pure).
import * as assert from 'assert';
import { diffHunks } from '../../../src/agent/hunks';
import { acceptedOutcome, hunkInfo, lineStats, outcomeText } from '../../../src/agentHost/proposalTypes';

describe('agent host: outcomes of a change decided part by part', () => {
  const proposed = 'const a = 10;\nconst b = 2;\nconst d = 40;\n';
  const written = 'const a = 10;\nconst b = 2;\nconst d = 4;\n';

  it('one part accepted and one rejected: "Partly accepted", with how the file differs from the proposal', () => {
    const o = acceptedOutcome(proposed, true, written, { saved: true }, { accepted: 1, rejected: 1 });
    const text = outcomeText('edit', 'src/x.js', o);
    assert.match(text, /^Partly accepted: the user accepted 1 of 2 changed parts of your edit to src\/x\.js/);
    assert.match(text, /lines 3–3 of your proposal became:\nconst d = 4;$/);
  });

  it('every part accepted one by one reads as accepted as proposed; unsaved user changes are still said', () => {
    const all = acceptedOutcome(proposed, false, proposed, { saved: true }, { accepted: 2, rejected: 0 });
    assert.strictEqual(outcomeText('edit', 'x.js', all), 'Accepted: edited x.js as proposed.');
    const unsaved = acceptedOutcome(
      proposed,
      true,
      written,
      { saved: false, unsaved: 'user-changes' },
      {
        accepted: 1,
        rejected: 1,
      },
    );
    assert.match(outcomeText('edit', 'x.js', unsaved), /not saved to disk yet\.$/);
  });

  it('no parts: the outcome has no parts field (a whole accept is reported as before)', () => {
    assert.deepStrictEqual(Object.keys(acceptedOutcome('a', false, 'a', { saved: true })).sort(), [
      'saved',
      'status',
      'unsaved',
      'userChange',
      'userEdited',
    ]);
  });

  it('the list entry of a part: 1-based line of the proposed side, its size, its first line trimmed and capped', () => {
    const hunks = diffHunks('x\ny\n', `x\n    ${'z'.repeat(100)}\n`);
    const info = hunkInfo(hunks[0]);
    assert.deepStrictEqual([info.line, info.added, info.removed], [2, 1, 1]);
    assert.strictEqual(info.preview.length, 80);
    assert.ok(info.preview.startsWith('zzz') && info.preview.endsWith('…'));
    assert.deepStrictEqual(lineStats(diffHunks('a\nb\nc\n', 'A\nb\nC\nd\n')), { added: 3, removed: 2 });
  });
});
