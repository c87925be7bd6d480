// The pure text helpers behind the agent's VS Code tools: search/replace blocks (exactly one match, the failing
// block named, CRLF files), output caps that keep head and tail, terminal escape stripping, and what the model
// is told when the user changed a proposal.
import * as assert from 'assert';
import {
  applySearchReplace,
  capHeadTail,
  changedRange,
  describeUserChange,
  HeadTailBuffer,
  looksBinary,
  proposalTitle,
  sliceLines,
  stripTerminalEscapes,
} from '../../../src/agentHost/text';

describe('agent host text helpers', () => {
  describe('applySearchReplace', () => {
    it('applies blocks in order, each to the result of the previous one', () => {
      const r = applySearchReplace('a\nb\nc\n', [
        { search: 'b\n', replace: 'B\n' },
        { search: 'B\nc', replace: 'C' },
      ]);
      assert.deepStrictEqual(r, { ok: true, text: 'a\nC\n' });
    });

    it('fails the whole edit when a block matches zero or several times, naming that block', () => {
      const none = applySearchReplace('x\ny\n', [
        { search: 'x', replace: 'X' },
        { search: 'zzz', replace: '' },
      ]);
      assert.strictEqual(none.ok, false);
      assert.ok(!none.ok && none.block === 2 && none.matches === 0);
      assert.match(
        !none.ok ? none.message : '',
        /edit block 2 of 2 failed: its "search" text was not found.*No block was applied/,
      );
      const twice = applySearchReplace('x\nx\n', [{ search: 'x', replace: 'X' }]);
      assert.ok(!twice.ok && twice.block === 1 && twice.matches === 2);
      assert.match(!twice.ok ? twice.message : '', /occurs more than once/);
    });

    it('refuses an empty search and non-string fields', () => {
      assert.match(JSON.stringify(applySearchReplace('x', [{ search: '', replace: 'y' }])), /empty/);
      assert.match(
        JSON.stringify(applySearchReplace('x', [{ search: 1 as unknown as string, replace: 'y' }])),
        /string/,
      );
    });

    it('matches LF blocks in a CRLF file and writes CRLF', () => {
      const r = applySearchReplace('a\r\nb\r\nc\r\n', [{ search: 'a\nb', replace: 'A\nB' }]);
      assert.deepStrictEqual(r, { ok: true, text: 'A\r\nB\r\nc\r\n' });
    });

    it('treats replacement text literally ($& and $1 are not patterns)', () => {
      assert.deepStrictEqual(applySearchReplace('price', [{ search: 'price', replace: '$& $1 $$' }]), {
        ok: true,
        text: '$& $1 $$',
      });
    });
  });

  it('looksBinary: a NUL in the first 8000 bytes', () => {
    assert.strictEqual(looksBinary(new TextEncoder().encode('plain text\n')), false);
    assert.strictEqual(looksBinary(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00])), true);
    const late = new Uint8Array(9000).fill(0x41);
    late[8500] = 0;
    assert.strictEqual(looksBinary(late), false);
  });

  it('capHeadTail and HeadTailBuffer keep the start and the end and count what was left out', () => {
    assert.deepStrictEqual(capHeadTail('short', 10), { text: 'short', omitted: 0 });
    const capped = capHeadTail('0123456789abcdefghij', 10);
    assert.strictEqual(capped.omitted, 10);
    assert.strictEqual(capped.text, '01234\n[… 10 characters omitted …]\nfghij');
    const b = new HeadTailBuffer(10);
    for (const chunk of ['012', '3456', '789abc', 'defghij']) b.push(chunk);
    assert.strictEqual(b.omitted, 10);
    assert.strictEqual(b.toString(), '01234\n[… 10 characters omitted …]\nfghij');
    const small = new HeadTailBuffer(100);
    small.push('abc');
    small.push('def');
    assert.strictEqual(small.toString(), 'abcdef');
  });

  it('stripTerminalEscapes removes colours, shell-integration marks and carriage-return overwrites', () => {
    const raw = '\u001b]633;C\u0007\u001b[32m42\u001b[0m\r\nprogress 10%\rprogress 100%\r\n\u001b]633;D;3\u0007';
    assert.strictEqual(stripTerminalEscapes(raw), '42\nprogress 100%\n');
  });

  it('sliceLines: 1-based inclusive ranges with the total', () => {
    assert.deepStrictEqual(sliceLines('a\nb\nc\n', 2, 3), { text: 'b\nc', from: 2, to: 3, total: 3 });
    assert.deepStrictEqual(sliceLines('a\r\nb', 1, 99), { text: 'a\nb', from: 1, to: 2, total: 2 });
    assert.deepStrictEqual(sliceLines('a\nb\n', 5), { text: '', from: 5, to: 4, total: 2 });
  });

  it('changedRange: the smallest differing range', () => {
    assert.deepStrictEqual(changedRange('abcXdef', 'abcYYdef'), { start: 3, endA: 4, endB: 5 });
    assert.deepStrictEqual(changedRange('same', 'same'), { start: 4, endA: 4, endB: 4 });
  });

  it('describeUserChange says which lines of the proposal the user changed, and to what', () => {
    assert.strictEqual(describeUserChange('a\nb\nc\n', 'a\nB!\nc\n'), 'lines 2–2 of your proposal became:\nB!');
    assert.strictEqual(describeUserChange('a\nb\nc\n', 'a\nc\n'), 'the user removed lines 2–2 of your proposal');
    assert.strictEqual(describeUserChange('a\nc\n', 'a\nb\nc\n'), 'inserted after line 1:\nb');
  });

  describe('proposalTitle', () => {
    const en = { t: (m: string, ...a: string[]) => m.replace(/\{(\d)\}/g, (_, i: string) => a[Number(i)]) };
    it('names the file and what is proposed, without its folders', () => {
      assert.strictEqual(
        proposalTitle('edit', 'guide/README.md', ['guide/README.md'], en),
        'README.md (proposed change)',
      );
      assert.strictEqual(proposalTitle('create', 'notes.md', [], en), 'notes.md (proposed new file)');
      assert.strictEqual(proposalTitle('delete', 'a\\old.md', [], en), 'old.md (proposed deletion)');
    });
    it('gives the workspace path when another pending change has a file of the same name', () => {
      const pending = ['a/same.md', 'b/same.md', 'c/other.md'];
      assert.strictEqual(proposalTitle('edit', 'b/same.md', pending, en), 'b/same.md (proposed change)');
      assert.strictEqual(proposalTitle('edit', 'c/other.md', pending, en), 'other.md (proposed change)');
      assert.strictEqual(proposalTitle('edit', 'same.md', ['same.md', 'same.md'], en), 'same.md (proposed change)');
    });
  });
});
