// The host side of the one webview channel (src/platform/webviewChannel.ts) against fake webviews that answer
// postMessage as VS Code does (delivered only while a page is there): the ready handshake, what waits for it, a page
// that goes away and one that VS Code reports hidden but keeps, validation both ways, request replies, and
// subscriptions that live with the view.
import * as assert from 'node:assert/strict';
import { WebviewChannel, type WebviewSurface } from '../../../src/platform/webviewChannel';
import { arr, guard, int, none, oneOf, RequestFailed, str, type Protocol } from '../../../src/shared/protocol/channel';

type Shapes = {
  toWebview: { state: { count: number }; focus: object };
  toHost: { clicked: { button: 'a' | 'b' } };
  requests: { lookup: { params: { query: string }; result: string[] }; save: { params: object; result: undefined } };
};
const protocol: Protocol<Shapes> = {
  name: 'test',
  toWebview: { state: { count: int(0, 100) }, focus: {} },
  toHost: { clicked: { button: oneOf(['a', 'b'] as const) } },
  requests: { lookup: { params: { query: str(10) }, result: arr(str(100), 10) }, save: { params: {}, result: none } },
};

class Emitter<T> {
  readonly listeners = new Set<(e: T) => void>();
  readonly event = (listener: (e: T) => void) => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
}

function fakeView() {
  const received = new Emitter<unknown>();
  const disposed = new Emitter<void>();
  const posted: Array<{ type: string } & Record<string, unknown>> = [];
  const surface = {
    visible: true,
    /** Whether a page exists to deliver to (VS Code: false once a hidden view's page was destroyed). */
    pageThere: true,
    webview: {
      onDidReceiveMessage: received.event,
      postMessage: async (m: never) => {
        if (!surface.pageThere) return false;
        posted.push(m);
        return true;
      },
    },
    onDidDispose: disposed.event,
  };
  return { surface, asSurface: surface as unknown as WebviewSurface, received, disposed, posted };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup(overrides: Partial<ConstructorParameters<typeof WebviewChannel<Shapes>>[0]> = {}) {
  const logs: string[] = [];
  const notifications: unknown[] = [];
  let count = 0;
  const channel: WebviewChannel<Shapes> = new WebviewChannel<Shapes>({
    guard: guard(protocol),
    log: {
      info: () => undefined,
      warn: (m: string) => void logs.push(`warn ${m}`),
      error: (m: string) => void logs.push(`error ${m}`),
    },
    strings: () => ({ 'a.b': 'Text' }),
    onReady: () => channel.post({ type: 'state', count: ++count }),
    onNotification: (m) => void notifications.push(m),
    onRequest: async (m) => {
      if (m.type === 'lookup') {
        const { query } = m as { query: string };
        if (query === 'refuse') throw new RequestFailed('Not here.');
        if (query === 'crash') throw new Error('bug with sk-secret');
        return [query];
      }
      return undefined;
    },
    waitsForReady: (m) => m.type === 'focus',
    ...overrides,
  });
  return { channel, logs, notifications };
}

/** A channel with a fake view attached whose page has said `ready` and been brought up to date. */
async function readyView(overrides: Parameters<typeof setup>[0] = {}) {
  const fixture = setup(overrides);
  const view = fakeView();
  fixture.channel.attach(view.asSurface);
  view.received.fire({ type: 'ready' });
  await settle();
  return { ...fixture, view };
}

describe('webview channel (host side)', () => {
  it('posts nothing before ready; then the strings, the state, and what waited for the page', async () => {
    const { channel } = setup();
    const view = fakeView();
    channel.attach(view.asSurface);
    channel.post({ type: 'state', count: 50 });
    channel.post({ type: 'focus' });
    assert.deepEqual(view.posted, []);
    view.received.fire({ type: 'ready' });
    await settle();
    assert.deepEqual(view.posted, [
      { type: 'strings', strings: { 'a.b': 'Text' } },
      { type: 'state', count: 1 },
      { type: 'focus' },
    ]);
    channel.post({ type: 'state', count: 7 });
    assert.deepEqual(view.posted.at(-1), { type: 'state', count: 7 });
  });

  it('a page that is gone gets nothing more; the next page that says ready gets strings, state and what waited', async () => {
    const { channel, view } = await readyView();
    // Hidden without retainContextWhenHidden: VS Code destroys the page and reports the message as not delivered.
    view.surface.visible = false;
    view.surface.pageThere = false;
    channel.post({ type: 'state', count: 9 });
    await settle();
    assert.equal(channel.isReady, false);
    channel.post({ type: 'focus' });
    channel.post({ type: 'state', count: 10 });
    const before = view.posted.length;
    view.surface.visible = true;
    view.surface.pageThere = true;
    view.received.fire({ type: 'ready' });
    await settle();
    assert.deepEqual(view.posted.slice(before), [
      { type: 'strings', strings: { 'a.b': 'Text' } },
      { type: 'state', count: 2 },
      { type: 'focus' },
    ]);
  });

  it('a message that waits for the page and was not delivered is delivered to the next page', async () => {
    const { channel, view } = await readyView();
    view.surface.pageThere = false;
    channel.post({ type: 'focus' });
    await settle();
    view.surface.pageThere = true;
    view.received.fire({ type: 'ready' });
    await settle();
    assert.deepEqual(
      view.posted.filter((m) => m.type === 'focus'),
      [{ type: 'focus' }],
    );
  });

  it('a page that VS Code reports hidden but keeps (released by another owner) keeps getting messages', async () => {
    const { channel, view } = await readyView();
    view.surface.visible = false;
    view.surface.visible = true;
    channel.post({ type: 'state', count: 42 });
    await settle();
    assert.equal(channel.isReady, true);
    assert.deepEqual(view.posted.at(-1), { type: 'state', count: 42 });
  });

  it('a live page the channel thought gone is brought up to date by its next message, which is then handled', async () => {
    const { channel, notifications, view } = await readyView();
    view.surface.pageThere = false;
    channel.post({ type: 'state', count: 50 });
    await settle();
    assert.equal(channel.isReady, false);
    // The page was there after all (a transient failure): it speaks, and gets the strings and the state again.
    view.surface.pageThere = true;
    const before = view.posted.length;
    view.received.fire({ type: 'clicked', button: 'a' });
    await settle();
    assert.equal(channel.isReady, true);
    assert.deepEqual(view.posted.slice(before), [
      { type: 'strings', strings: { 'a.b': 'Text' } },
      { type: 'state', count: 2 },
    ]);
    assert.deepEqual(notifications, [{ type: 'clicked', button: 'a' }]);
  });

  it('a late "not delivered" about an earlier page does not silence the page that said ready since', async () => {
    let release: (delivered: boolean) => void = () => undefined;
    const { channel, view } = await readyView();
    const postMessage = view.surface.webview.postMessage;
    view.surface.webview.postMessage = () => new Promise<boolean>((resolve) => (release = resolve));
    channel.post({ type: 'state', count: 60 });
    view.surface.webview.postMessage = postMessage;
    view.received.fire({ type: 'ready' });
    await settle();
    release(false);
    await settle();
    assert.equal(channel.isReady, true);
    channel.post({ type: 'state', count: 61 });
    await settle();
    assert.deepEqual(view.posted.at(-1), { type: 'state', count: 61 });
  });

  it('drops and logs a malformed incoming message without its content; valid notifications reach the handler', async () => {
    const { channel, logs, notifications } = setup();
    const view = fakeView();
    channel.attach(view.asSurface);
    view.received.fire({ type: 'clicked', button: 'sk-secret-key' });
    view.received.fire({ type: 'clicked', button: 'a', injected: '<script>' });
    view.received.fire({ type: 'lookup', query: 'no id' });
    view.received.fire({ type: 'clicked', button: 'b' });
    await settle();
    assert.deepEqual(notifications, [{ type: 'clicked', button: 'b' }]);
    assert.deepEqual(logs, [
      "warn test: ignored a malformed message from the webview ('clicked': button: invalid)",
      "warn test: ignored a malformed message from the webview ('clicked': unexpected field)",
      "warn test: ignored a malformed message from the webview ('lookup': requestId: missing)",
    ]);
  });

  it('answers requests by id: the result, a refusal in words, or an empty error for a bug (logged)', async () => {
    const { channel, logs } = setup();
    const view = fakeView();
    channel.attach(view.asSurface);
    view.received.fire({ type: 'ready' });
    view.received.fire({ type: 'lookup', requestId: 'r1', query: 'x' });
    view.received.fire({ type: 'lookup', requestId: 'r2', query: 'refuse' });
    view.received.fire({ type: 'lookup', requestId: 'r3', query: 'crash' });
    view.received.fire({ type: 'save', requestId: 'r4' });
    await settle();
    const replies = view.posted.filter((m) => m.type === 'reply');
    assert.deepEqual(replies, [
      { type: 'reply', requestId: 'r1', result: ['x'] },
      { type: 'reply', requestId: 'r2', error: 'Not here.' },
      { type: 'reply', requestId: 'r3', error: '' },
      { type: 'reply', requestId: 'r4', result: undefined },
    ]);
    assert.deepEqual(logs, ["error test: 'lookup' failed"]);
  });

  it('does not post a malformed outgoing message (a host bug shows in the log, not as a silent page)', async () => {
    const { channel, logs, view } = await readyView();
    const before = view.posted.length;
    channel.post({ type: 'state', count: 1, internal: 'x' } as never);
    channel.post({ type: 'state', count: 1000 });
    assert.equal(view.posted.length, before);
    assert.deepEqual(logs, [
      "warn test: did not post a malformed message to the webview ('state': unexpected field)",
      "warn test: did not post a malformed message to the webview ('state': count: invalid)",
    ]);
  });

  it('keeps one set of subscriptions however often a view is attached, and disposes them with the view', async () => {
    const { channel, notifications } = setup();
    const first = fakeView();
    let lifetimeDisposed = 0;
    const lifetime = () => [{ dispose: () => void lifetimeDisposed++ }];
    channel.attach(first.asSurface, lifetime());
    const count = channel.subscriptionCount;
    const second = fakeView();
    for (let i = 0; i < 5; i++) channel.attach(second.asSurface, lifetime());
    assert.equal(channel.subscriptionCount, count);
    assert.equal(lifetimeDisposed, 5);
    // The first view's listeners are gone: its messages reach no one.
    assert.equal(first.received.listeners.size + first.disposed.listeners.size, 0);
    assert.equal(second.received.listeners.size, 1);
    first.received.fire({ type: 'clicked', button: 'a' });
    await settle();
    assert.deepEqual(notifications, []);
    second.disposed.fire();
    assert.equal(lifetimeDisposed, 6);
    assert.equal(channel.subscriptionCount, 0);
    assert.equal(channel.isAttached, false);
    assert.equal(second.received.listeners.size + second.disposed.listeners.size, 0);
  });
});
