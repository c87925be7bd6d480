// Peer: the SDK's abort-listener cleanup cases (tests/abort-listener-cleanup.test.ts): one long-lived
// AbortSignal over many requests must end with no 'abort' listener of ours left on it.
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createGatewayClient, isGatewayError } from '../../src/gateway';
import { peerServer, sseOf, writeChunks, type PeerServer } from './support';

let server: PeerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MESSAGE = {
  id: 'msg_test',
  type: 'message',
  role: 'assistant',
  content: [{ type: 'text', text: 'ok' }],
  model: 'claude-test',
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};
const SSE = sseOf([
  { type: 'message_start', message: { ...MESSAGE, content: [], stop_reason: null } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } },
  { type: 'message_stop' },
]);
const REQ = { model: 'claude-test', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hi' }] };
const listenerCount = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

function json(
  res: import('node:http').ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

describe('peer (SDK abort-listener cleanup): a long-lived signal', () => {
  it('settled requests leave no listeners', async () => {
    server = await peerServer((_req, res) => json(res, 200, MESSAGE));
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k' });
    const session = new AbortController();
    for (let i = 0; i < 3; i++) await client.createMessage(REQ, { signal: session.signal });
    assert.equal(listenerCount(session.signal), 0);
  });

  it('failed requests leave no listeners', async () => {
    server = await peerServer((_req, res) =>
      json(res, 400, { error: { type: 'invalid_request_error', message: 'bad' } }),
    );
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    const session = new AbortController();
    await assert.rejects(client.createMessage(REQ, { signal: session.signal }));
    assert.equal(listenerCount(session.signal), 0);
  });

  it('connection errors leave no listeners', async () => {
    const closed = await peerServer(() => undefined);
    await closed.close();
    const client = createGatewayClient({ baseUrl: closed.url, apiKey: 'k', maxRetries: 0 });
    const session = new AbortController();
    await assert.rejects(client.createMessage(REQ, { signal: session.signal }));
    await assert.rejects(client.streamMessage(REQ, { signal: session.signal }).finalMessage());
    assert.equal(listenerCount(session.signal), 0);
  });

  it('retried requests (429 with retry-after: 0, then 200) release each attempt', async () => {
    server = await peerServer((_req, res, n) =>
      n === 1
        ? json(res, 429, { error: { type: 'rate_limit_error', message: 'slow down' } }, { 'retry-after': '0' })
        : json(res, 200, MESSAGE),
    );
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 1 });
    const session = new AbortController();
    await client.createMessage(REQ, { signal: session.signal });
    assert.equal(server.seen.length, 2);
    assert.equal(listenerCount(session.signal), 0);
  });

  it('consumed streams leave no listeners', async () => {
    server = await peerServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunks(res, [SSE]);
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k' });
    const session = new AbortController();
    for (let i = 0; i < 2; i++) {
      for await (const _event of client.streamMessage(REQ, { signal: session.signal })) {
        // drain
      }
    }
    assert.equal(listenerCount(session.signal), 0);
  });

  it('a stream broken early releases its listener', async () => {
    server = await peerServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunks(res, [SSE.subarray(0, SSE.indexOf('event: content_block_delta'))], 'hold');
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k' });
    const session = new AbortController();
    for await (const _event of client.streamMessage(REQ, { signal: session.signal })) break;
    assert.equal(listenerCount(session.signal), 0);
  });

  it('abort still cancels an in-flight request (aborted error), and leaves no listener', async () => {
    server = await peerServer(() => undefined); // never answers
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    const session = new AbortController();
    const pending = client.createMessage(REQ, { signal: session.signal });
    const stream = client.streamMessage(REQ, { signal: session.signal }).finalMessage();
    await new Promise((r) => setTimeout(r, 20));
    session.abort();
    for (const p of [pending, stream])
      await assert.rejects(p, (e: unknown) => isGatewayError(e) && e.kind === 'aborted');
    assert.equal(listenerCount(session.signal), 0);
  });

  it('an abandoned, partially iterated stream releases its listener once the stream ends (no GC needed)', async () => {
    // The SDK needs a FinalizationRegistry backstop because it reads the body only as the caller pulls.
    // We read the body as it arrives and settle at message_stop, which removes the listener.
    server = await peerServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunks(res, [SSE.subarray(0, 200), SSE.subarray(200)]);
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k' });
    const session = new AbortController();
    const stream = client.streamMessage(REQ, { signal: session.signal });
    await stream[Symbol.asyncIterator]().next(); // one event, then abandoned
    await stream.finalMessage();
    assert.equal(listenerCount(session.signal), 0);
  });

  it('12 streams on one signal: no MaxListenersExceededWarning', async () => {
    server = await peerServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunks(res, [SSE]);
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k' });
    const session = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 12; i++) await client.streamMessage(REQ, { signal: session.signal }).finalMessage();
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(
      warnings.filter((w) => w === 'MaxListenersExceededWarning'),
      [],
    );
    assert.equal(listenerCount(session.signal), 0);
  });
});
