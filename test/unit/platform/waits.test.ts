// No silent waits: every wait of the gateway client before a request goes out (a 429's Retry-After, a GET
// retry's backoff) is announced to the caller, start and end, and can be cancelled. Real sockets, emulator.
import { strict as assert } from 'node:assert';
import { createGatewayClient, isGatewayError } from '../../../src/gateway';
import { cancelOnlyWhileWaiting, type WaitNotice } from '../../../src/gateway/retry';
import { streamWithCancellation, waitMessage } from '../../../src/lm/streaming';
import { useEmulator } from '../../support/emulatorLifecycle';

const KEY = 'mg-demo-key-0001';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gateway waits are announced and cancellable (emulator)', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  // The extension's settings: default retries (2), so the client itself waits out a single 429.
  const client = () =>
    createGatewayClient({
      baseUrl: emulator().url,
      apiKey: KEY,
      timeoutMs: 5_000,
      retryBackoff: { baseMs: 50, maxMs: 100 },
    });
  const request = {
    model: 'claude-demo-haiku',
    max_tokens: 16,
    messages: [{ role: 'user' as const, content: 'hi [[tokens=3]]' }],
  };
  const messagesSent = () =>
    emulator()
      .requests()
      .filter((r) => r.path === '/v1/messages').length;

  it('a single 429: the wait is announced with its length and cause, then ended, and the request succeeds', async () => {
    emulator().setFaults(KEY, { status: 429, count: 1, retryAfter: 1 });
    const notices: WaitNotice[] = [];
    const reply = await client().createMessage(request, { onWait: (n) => notices.push(n) });
    assert.ok(reply.content.length > 0);
    assert.equal(notices.length, 2, 'start and end');
    assert.equal(notices[0].reason, 'rate_limited');
    assert.ok(notices[0].ms > 0 && notices[0].ms <= 1000);
    assert.ok(
      isGatewayError(notices[0].error) && notices[0].error.kind === 'rate_limited' && notices[0].error.status === 429,
    );
    assert.equal(notices[1].ms, 0);
    assert.equal(messagesSent(), 2);
    assert.match(waitMessage(notices[0]), /Rate limited by the gateway \(429\): sending in 1 s/);
  });

  it('a GET retry after a 5xx announces its backoff', async () => {
    emulator().setFaults(KEY, { status: 503, count: 1 });
    const notices: WaitNotice[] = [];
    const models = await client().listModels({ onWait: (n) => notices.push(n) });
    assert.ok(models.length > 0);
    assert.deepEqual(
      notices.map((n) => [n.reason, n.ms > 0]),
      [
        ['backoff', true],
        ['backoff', false],
      ],
    );
  });

  it('native chat: cancelling during the wait sends nothing more', async () => {
    emulator().setFaults(KEY, { status: 429, count: 1, retryAfter: 1 });
    let cancel: () => void = () => undefined;
    const token = {
      isCancellationRequested: false,
      onCancellationRequested(listener: () => unknown) {
        cancel = () => {
          token.isCancellationRequested = true;
          listener();
        };
        return { dispose: () => undefined };
      },
    };
    const notices: WaitNotice[] = [];
    await assert.rejects(
      streamWithCancellation(
        client(),
        request,
        token,
        () => undefined,
        (n) => {
          notices.push(n);
          if (n.ms > 0) cancel();
        },
      ),
      (e: unknown) => isGatewayError(e) && e.kind === 'aborted',
    );
    assert.ok(notices[0].ms > 0);
    await sleep(1300);
    assert.equal(messagesSent(), 1, 'the retry never went out');
  });

  it('images: cancel works during the wait before sending, never once the billable POST left', async () => {
    emulator().setFaults(KEY, { status: 429, count: 1, retryAfter: 1 });
    const outer = new AbortController();
    const waiting = cancelOnlyWhileWaiting(outer.signal, (n) => {
      if (n.ms > 0) outer.abort();
    });
    await assert.rejects(
      client().createMessage(request, waiting),
      (e: unknown) => isGatewayError(e) && e.kind === 'aborted',
    );
    await sleep(1300);
    assert.equal(messagesSent(), 1);

    emulator().reset();
    emulator().setFaults(KEY, { delayMs: 300 });
    const outer2 = new AbortController();
    const sent = client().createMessage(request, cancelOnlyWhileWaiting(outer2.signal));
    await sleep(100);
    outer2.abort();
    const reply = await sent;
    assert.ok(reply.content.length > 0, 'the POST in flight was not aborted: its outcome never becomes unknown');
  });
});
