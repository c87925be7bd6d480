// The chat view never shows a key the model echoes (issue 43 item 6): the stored copy was redacted, but the answer
// streamed to the page as it came. A key split across two deltas is held back until it is whole; everything the host
// posts to the page (deltas, snapshots, updated messages) is redacted as the stored copy is.
import { strict as assert } from 'node:assert';
import { createGatewayClient } from '../../../src/gateway';
import { redactKnownSecrets } from '../../../src/shared/secretRedaction';
import { StreamRedactor } from '../../../src/shared/streamRedaction';
import { waitUntil } from '../../support/poll';
import { useEmulator } from '../emulator/helpers';
import { chatSession } from './chatSessionFixture';

const KEY = 'gw-live-7f3a9c2e5b1d4f6a8c0e2b4d6f8a1c3e';
const HEADER_VALUE = '{"provider": "openai", "api_key": "cfg-9d8c7b6a5f4e"}';

describe('streamed text is redacted before the page sees it', () => {
  it('a key split at any point across two pieces never shows; the text reads as the whole redacted at once', () => {
    const text = `Here: ${KEY}, and ${Buffer.from(KEY).toString('base64')} done.\nNext line`;
    for (let cut = 1; cut < text.length; cut++) {
      const r = new StreamRedactor(() => [KEY]);
      const shown = r.push(text.slice(0, cut)) + r.push(text.slice(cut)) + r.end();
      assert.ok(!shown.includes(KEY.slice(0, 12)) && !shown.includes(KEY.slice(-12)), `cut at ${cut}: ${shown}`);
      assert.equal(shown, redactKnownSecrets(text, [KEY]), 'as the whole text redacted at once');
    }
  });

  it('one character at a time, text without a key flows on at each space (only the last word waits)', () => {
    const r = new StreamRedactor(() => [KEY]);
    let shown = '';
    for (const c of 'plain words flow on') shown += r.push(c);
    assert.equal(shown, 'plain words flow ');
    assert.equal(r.end(), 'on');
  });

  it('a secret with spaces and quotes (a secret header value) is caught too: those characters are no cut point', () => {
    const text = `config was ${HEADER_VALUE} ok`;
    for (let cut = 1; cut < text.length; cut += 3) {
      const r = new StreamRedactor(() => [HEADER_VALUE]);
      assert.equal(r.push(text.slice(0, cut)) + r.push(text.slice(cut)) + r.end(), 'config was [redacted] ok');
    }
  });

  it('without known secrets, every piece goes on at once', () => {
    const r = new StreamRedactor(() => []);
    assert.equal(r.push('abc'), 'abc');
    assert.equal(r.end(), '');
  });
});

describe('chat view: an echoed key while the answer streams (emulator)', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  it('no message posted to the page holds the key, though the model echoes it in small deltas', async () => {
    const t = chatSession(emulator(), {
      getClient: async () =>
        createGatewayClient({ baseUrl: emulator().url, apiKey: 'mg-demo-key-0001', maxRetries: 0 }),
      model: 'claude-demo-sonnet',
      secrets: () => ['mg-demo-key-0001', KEY],
    });
    await t.s.load();
    // The emulator's reply quotes the question verbatim, streamed in pieces of a few characters.
    assert.equal(t.s.send(`Is ${KEY} my key? And ${KEY}/again`), undefined);
    await waitUntil(() => t.of('streamFinished').length === 1, 'the answer');
    const deltas = t.of('streamDelta');
    assert.ok(deltas.length > 3, `${deltas.length} deltas`);
    const streamed = deltas.map((d) => d.text ?? '').join('');
    assert.match(streamed, /Is \[redacted\] my key\? And \[redacted\]\/again/);
    for (const m of t.posted) assert.ok(!JSON.stringify(m).includes(KEY.slice(8, 30)), `${m.type} shows the key`);
    // The page's snapshot of the conversation (a reopened view) is redacted too.
    const echoed = t.s.store.active.id;
    t.posted.length = 0;
    t.s.newConversation();
    assert.equal(t.s.selectConversation(echoed), true);
    assert.ok(t.posted.length > 0);
    for (const m of t.posted) assert.ok(!JSON.stringify(m).includes(KEY.slice(8, 30)), `${m.type} shows the key`);
  });
});
