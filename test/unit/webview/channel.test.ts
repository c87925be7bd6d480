// The webview side of the one channel (src/webview/common/channel.ts), run in Node with a stand-in for the page's
// window and acquireVsCodeApi: the page is built only once the string table arrives, host messages are validated,
// replies resolve their own request (by id), refusals and timeouts reject it, and stray replies are ignored.
import * as assert from 'node:assert/strict';
import { arr, guard, int, none, str, type Protocol } from '../../../src/shared/protocol/channel';
// Both touch window and acquireVsCodeApi only when called, so the stand-ins below are in place by then.
import { Channel, RequestError } from '../../../src/webview/common/channel';
import { t } from '../../../src/webview/common/strings';

type Shapes = {
  toWebview: { state: { count: number } };
  toHost: { clicked: { n: number } };
  requests: { lookup: { params: { query: string }; result: string[] }; slow: { params: object; result: undefined } };
};
const protocol: Protocol<Shapes> = {
  name: 'test',
  toWebview: { state: { count: int(0, 100) } },
  toHost: { clicked: { n: int(0, 9) } },
  requests: {
    lookup: { params: { query: str(10) }, result: arr(str(100), 10) },
    slow: { params: {}, result: none, timeoutMs: 30 },
  },
};

const posted: Array<Record<string, unknown>> = [];
const warnings: string[] = [];
const page = new EventTarget();
const g = globalThis as unknown as Record<string, unknown>;
const host = (data: unknown) => page.dispatchEvent(new MessageEvent('message', { data }));

/** A connected channel (its page built), with what it posted so far forgotten. */
function connected(): InstanceType<typeof Channel<Shapes>> {
  const channel = new Channel(guard(protocol));
  channel.connect(() => () => undefined);
  host({ type: 'strings', strings: {} });
  posted.length = 0;
  return channel;
}

describe('webview channel (page side)', () => {
  const originalWarn = console.warn;

  before(() => {
    // Only for this suite: other suites run in the same process and must not see a `window`.
    g.window = page;
    g.acquireVsCodeApi = () => ({
      postMessage: (m: Record<string, unknown>) => void posted.push(m),
      getState: () => undefined,
      setState: () => undefined,
    });
    console.warn = (message: string) => void warnings.push(message);
  });
  after(() => {
    delete g.window;
    delete g.acquireVsCodeApi;
    console.warn = originalWarn;
  });
  beforeEach(() => {
    posted.length = 0;
    warnings.length = 0;
  });

  it('says ready, builds the page when the strings arrive, then hands it the host messages (validated)', () => {
    const channel = new Channel(guard(protocol));
    const seen: unknown[] = [];
    let built = 0;
    channel.connect(() => {
      built++;
      return (m) => void seen.push(m);
    });
    assert.deepEqual(posted, [{ type: 'ready' }]);
    host({ type: 'state', count: 1 });
    assert.equal(built, 0, 'nothing is built before the strings');
    host({ type: 'strings', strings: { 'chat.title': '聊天', 'chat.usage': '输入 {0} / 输出 {1} token' } });
    assert.equal(built, 1);
    assert.equal(t('chat.title'), '聊天');
    assert.equal(t('chat.usage', 3, 4), '输入 3 / 输出 4 token');
    host({ type: 'state', count: 2 });
    host({ type: 'state', count: 2, html: '<img>' });
    host({ type: 'nope' });
    assert.deepEqual(seen, [
      { type: 'state', count: 1 },
      { type: 'state', count: 2 },
    ]);
    assert.deepEqual(warnings, [
      "test: ignored a malformed message from the host ('state': unexpected field)",
      'test: ignored a malformed message from the host (unknown message type)',
    ]);
  });

  it('a message the page fails to apply is reported on the console (type, no content); the next one still applies', () => {
    const channel = new Channel(guard(protocol));
    const seen: number[] = [];
    const errors: string[] = [];
    const originalError = console.error;
    console.error = (message: string) => void errors.push(message);
    try {
      channel.connect(() => (m) => {
        if (m.count === 13) throw new Error('render failed');
        seen.push(m.count);
      });
      host({ type: 'state', count: 13 });
      host({ type: 'strings', strings: {} });
      host({ type: 'state', count: 13 });
      host({ type: 'state', count: 14 });
    } finally {
      console.error = originalError;
    }
    assert.deepEqual(seen, [14]);
    assert.deepEqual(errors, [
      "test: could not apply 'state' (Error: render failed)",
      "test: could not apply 'state' (Error: render failed)",
    ]);
  });

  it('matches replies to their requests by id, whatever the order', async () => {
    const channel = connected();
    const a = channel.request('lookup', { query: 'a' });
    const b = channel.request('lookup', { query: 'b' });
    const [ra, rb] = posted as Array<{ requestId: string; type: string; query: string }>;
    assert.equal(ra.type, 'lookup');
    assert.notEqual(ra.requestId, rb.requestId);
    host({ type: 'reply', requestId: rb.requestId, result: ['B'] });
    host({ type: 'reply', requestId: ra.requestId, result: ['A'] });
    assert.deepEqual(await Promise.all([a, b]), [['A'], ['B']]);
    assert.equal(channel.waiting, 0);
  });

  it("rejects a request with the host's refusal, and one whose result has the wrong shape", async () => {
    const channel = connected();
    const refused = channel.request('lookup', { query: 'x' });
    host({ type: 'reply', requestId: posted.at(-1)!.requestId, error: 'That conversation no longer exists.' });
    await assert.rejects(
      refused,
      (e: unknown) => e instanceof RequestError && e.message === 'That conversation no longer exists.' && !e.timedOut,
    );
    const wrong = channel.request('lookup', { query: 'y' });
    host({ type: 'reply', requestId: posted.at(-1)!.requestId, result: 'not a list' });
    await assert.rejects(wrong, (e: unknown) => e instanceof RequestError && e.message === '');
    assert.deepEqual(warnings, ["test: ignored a malformed reply (reply to 'lookup': not a list)"]);
  });

  it('times out a request that declares a timeout; a reply after that, or for no request, is ignored', async () => {
    const channel = connected();
    const slow = channel.request('slow', {});
    const id = posted.at(-1)!.requestId;
    await assert.rejects(slow, (e: unknown) => e instanceof RequestError && e.timedOut);
    assert.equal(channel.waiting, 0);
    host({ type: 'reply', requestId: id, result: undefined });
    host({ type: 'reply', requestId: 'never-sent', result: [] });
    assert.equal(channel.waiting, 0);
    assert.deepEqual(warnings, []);
  });

  it('sends notifications as declared', () => {
    const channel = new Channel(guard(protocol));
    channel.notify('clicked', { n: 3 });
    assert.deepEqual(posted, [{ type: 'clicked', n: 3 }]);
    assert.ok(guard(protocol).toHost(posted[0]).ok);
  });
});
