// Retry rules of docs/gateway-protocol.md#rate-limits and #server-errors, counted by the server.
import * as assert from 'node:assert/strict';
import { createGatewayClient, parseRetryAfter } from '../../../src/gateway';
import { json, startServer, type TestServer } from './server';
import { fixture, MESSAGE_REQUEST } from './streamHelpers';
import { failure } from '../../support/failure';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FAST = { retryBackoff: { baseMs: 5, maxMs: 20 } };
const OK_MESSAGE = {
  id: 'm',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};

/** A server answering the first `n` requests with `status` (+ headers), then 200 with `ok`. */
function failingFirst(
  n: number,
  status: number,
  headers: Record<string, string>,
  ok: unknown = OK_MESSAGE,
): Promise<TestServer> {
  return startServer((_req, res, _body, seen) => {
    if (seen.length <= n) return json(res, status, { error: { message: `status ${status}` } }, headers);
    return json(res, 200, ok);
  });
}

describe('parseRetryAfter', () => {
  it('reads retry-after-ms, seconds and HTTP dates; ignores junk', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }), 1500);
    assert.equal(parseRetryAfter({ 'retry-after': '3' }), 3000);
    assert.equal(parseRetryAfter({ 'retry-after': '0.5' }), 500);
    assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, now), 10_000);
    assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 00:00:10 GMT' }, now), 0);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }), undefined);
    assert.equal(parseRetryAfter({}), undefined);
  });
});

describe('gateway retries: 429', () => {
  for (const [label, headers] of [
    ['retry-after-ms', { 'retry-after-ms': '30' }],
    ['Retry-After seconds', { 'retry-after': '0' }],
    ['Retry-After date', { 'retry-after': new Date(Date.now() - 1000).toUTCString() }],
    ['no Retry-After', {}],
  ] as const) {
    it(`waits (${label}) and retries a POST after 429`, async () => {
      server = await failingFirst(1, 429, headers);
      const m = await createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST }).createMessage(MESSAGE_REQUEST);
      assert.equal(m.id, 'm');
      assert.equal(server.requests.length, 2);
    });
  }

  it('honours the wait: the retry is not sent before Retry-After elapsed', async () => {
    const times: number[] = [];
    server = await startServer((_req, res, _b, seen) => {
      times.push(Date.now());
      if (seen.length === 1) return json(res, 429, {}, { 'retry-after-ms': '200' });
      json(res, 200, { data: [] });
    });
    await createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).listModels();
    assert.ok(times[1] - times[0] >= 190, `waited ${times[1] - times[0]} ms`);
  });

  it('a wait longer than maxRetryWaitMs is returned as rate_limited with retryAfterMs, not slept; later calls fail fast', async () => {
    server = await failingFirst(100, 429, { 'retry-after': '120' });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetryWaitMs: 1000 });
    const e = await failure(client.createMessage(MESSAGE_REQUEST));
    assert.equal(e.kind, 'rate_limited');
    assert.equal(e.status, 429);
    assert.ok(e.retryAfterMs !== undefined && e.retryAfterMs >= 119_000);
    assert.equal(server.requests.length, 1);
    const again = await failure(client.listModels());
    assert.equal(again.kind, 'rate_limited');
    assert.ok((again.retryAfterMs ?? 0) > 100_000);
    assert.equal(server.requests.length, 1, 'nothing is sent while the gateway asked to wait');
  });

  it('gives up after maxRetries retries of a 429 storm', async () => {
    server = await failingFirst(100, 429, { 'retry-after-ms': '5' });
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 2 }).createMessage(MESSAGE_REQUEST),
    );
    assert.equal(e.kind, 'rate_limited');
    assert.equal(server.requests.length, 3);
  });

  it('while rate limited, requests are sent one at a time (never a concurrent batch)', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    server = await startServer(async (_req, res, _b, seen) => {
      if (seen.length === 1) return json(res, 429, {}, { 'retry-after-ms': '60' });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 25));
      inFlight--;
      json(res, 200, { data: [{ id: `m${seen.length}` }] });
    });
    let limited: () => void = () => undefined;
    const got429 = new Promise<void>((r) => (limited = r));
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'k',
      onSupportRecord: (rec) => rec.status === 429 && limited(),
    });
    const first = client.listModels();
    await got429; // the 429 has arrived: the client is now waiting
    const batch = await Promise.all([first, client.listModels(), client.listModels(), client.listModels()]);
    assert.equal(batch.length, 4);
    assert.equal(server.requests.length, 5);
    assert.equal(maxInFlight, 1);
  });
});

describe('gateway retries: 5xx and network errors', () => {
  it('retries a GET after 5xx with backoff, up to maxRetries', async () => {
    server = await failingFirst(2, 503, {}, { data: [{ id: 'a' }] });
    const models = await createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 2, ...FAST }).listModels();
    assert.deepEqual(models, [{ id: 'a' }]);
    assert.equal(server.requests.length, 3);
  });

  it('stops after maxRetries and reports the server error', async () => {
    server = await failingFirst(100, 500, {});
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 2, ...FAST }).listModels(),
    );
    assert.equal(e.kind, 'server');
    assert.equal(server.requests.length, 3);
  });

  for (const route of ['messages', 'image', 'async image', 'stream'] as const) {
    it(`never replays a POST (${route}) after 5xx`, async () => {
      server = await failingFirst(100, 502, {});
      const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 3, ...FAST });
      const call =
        route === 'messages'
          ? client.createMessage(MESSAGE_REQUEST)
          : route === 'image'
            ? client.generateImage({ model: 'x', prompt: 'p' })
            : route === 'async image'
              ? client.submitImageTask('generation', { model: 'x', prompt: 'p' })
              : client.streamMessage(MESSAGE_REQUEST).finalMessage();
      const e = await failure(call);
      assert.equal(e.kind, 'server');
      assert.equal(e.status, 502);
      assert.equal(server.requests.length, 1);
    });
  }

  it('retries a GET after the connection dropped', async () => {
    server = await startServer((req, res, _b, seen) => {
      if (seen.length === 1) return void req.socket.destroy();
      json(res, 200, { data: [{ id: 'after-drop' }] });
    });
    const models = await createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST }).listModels();
    assert.equal(models[0].id, 'after-drop');
    assert.equal(server.requests.length, 2);
  });

  it('a stream is retried after 429 before any content, never after content arrived', async () => {
    server = await startServer(async (req, res, _b, seen) => {
      if (seen.length === 1) return json(res, 429, {}, { 'retry-after-ms': '5' });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(fixture('cut_off.sse'));
      await new Promise((r) => setTimeout(r, 10));
      req.socket.destroy();
    });
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 3 })
        .streamMessage(MESSAGE_REQUEST)
        .finalMessage(),
    );
    assert.equal(e.kind, 'network');
    assert.ok(e.partial);
    assert.equal(server.requests.length, 2);
  });
});
