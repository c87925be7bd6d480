// Peer: the SDK's retry cases (tests/index.test.ts "retries"), against our client over 127.0.0.1.
// Where the SDK retries and we do not, the test asserts our behaviour and names the spec rule
// (docs/gateway-protocol.md#server-errors, #outcome-unknown): a billable POST is never replayed after a 5xx, a timeout or a drop.
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createGatewayClient } from '../../src/gateway';
import { fixture, peerServer, REQUEST, writeChunks, type PeerServer } from './support';
import { failure } from '../support/failure';

let server: PeerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MESSAGE = {
  id: 'msg_r',
  type: 'message',
  role: 'assistant',
  content: [{ type: 'text', text: 'ok' }],
  model: 'm',
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};
const FAST = { retryBackoff: { baseMs: 1, maxMs: 5 } };

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** First answer from `first`, every later one a success (model list or message by route). */
async function failOnce(first: (res: ServerResponse) => void): Promise<PeerServer> {
  return peerServer((req, res, n) => {
    if (n === 1) return first(res);
    return req.url === '/v1/models' ? json(res, 200, { data: [{ id: 'a' }] }) : json(res, 200, MESSAGE);
  });
}

describe('peer (SDK retries)', () => {
  it('retry on timeout: a GET whose first attempt never answers is retried once and succeeds', async () => {
    server = await failOnce(() => undefined);
    const models = await createGatewayClient({
      baseUrl: server.url,
      apiKey: 'k',
      timeoutMs: 300,
      ...FAST,
    }).listModels();
    assert.deepEqual(
      models.map((m) => m.id),
      ['a'],
    );
    assert.equal(server.seen.length, 2);
  });

  it('timeout on POST /v1/messages: NOT retried (the SDK retries; spec: outcome unknown, never replayed)', async () => {
    server = await failOnce(() => undefined);
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 300, ...FAST }).createMessage(REQUEST),
    );
    assert.equal(e.kind, 'timeout');
    assert.equal(e.outcomeUnknown, true);
    assert.equal(server.seen.length, 1);
  });

  for (const [label, headers] of [
    ['retry-after: 0.1 (seconds)', { 'retry-after': '0.1' }],
    ['retry-after-ms: 10', { 'retry-after-ms': '10' }],
  ] as const) {
    it(`retry on 429 with ${label}: GET and POST both sent again after the wait`, async () => {
      server = await failOnce((res) => {
        res.writeHead(429, headers);
        res.end();
      });
      const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST });
      assert.deepEqual(
        (await client.listModels()).map((m) => m.id),
        ['a'],
      );
      assert.equal(server.seen.length, 2);
      await server.close();
      server = await failOnce((res) => {
        res.writeHead(429, headers);
        res.end();
      });
      const again = createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST });
      assert.equal((await again.createMessage(REQUEST)).id, 'msg_r');
      assert.equal(server.seen.length, 2);
    });
  }

  it('a 429 asking for more than 60 s is returned (with the wait) instead of slept through (the SDK falls back to its own backoff)', async () => {
    server = await failOnce((res) =>
      json(res, 429, { error: { type: 'rate_limit_error', message: 'slow down' } }, { 'retry-after': '120' }),
    );
    const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST }).createMessage(REQUEST));
    assert.equal(e.kind, 'rate_limited');
    assert.equal(e.retryAfterMs, 120_000);
    assert.equal(server.seen.length, 1);
  });

  it('5xx: a GET is retried; a POST /v1/messages is not (the SDK retries both; spec: the user decides, visible Retry)', async () => {
    server = await failOnce((res) => json(res, 503, { error: { type: 'overloaded_error', message: 'busy' } }));
    assert.deepEqual(
      (await createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST }).listModels()).map((m) => m.id),
      ['a'],
    );
    assert.equal(server.seen.length, 2);
    await server.close();
    server = await failOnce((res) => json(res, 500, { error: { type: 'api_error', message: 'boom' } }));
    const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST }).createMessage(REQUEST));
    assert.equal(e.kind, 'server');
    assert.equal(e.serverMessage, 'boom');
    assert.equal(server.seen.length, 1);
  });

  it('never retries once streamed content has arrived (a 200 stream dropped mid-way)', async () => {
    const bytes = fixture('basic_response.sse');
    server = await peerServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunks(res, [bytes.subarray(0, bytes.indexOf('event: content_block_stop'))], 'destroy');
    });
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST })
        .streamMessage(REQUEST)
        .finalMessage(),
    );
    assert.equal(e.cut?.how, 'dropped');
    assert.equal(e.cut?.characters, 'Hello there!'.length);
    assert.equal(server.seen.length, 1);
  });

  it('sends no SDK telemetry headers (x-stainless-retry-count, x-stainless-*): the gateway needs none', async () => {
    server = await failOnce((res) => {
      res.writeHead(429, { 'retry-after': '0' });
      res.end();
    });
    await createGatewayClient({ baseUrl: server.url, apiKey: 'k', ...FAST }).listModels();
    for (const seen of server.seen)
      assert.deepEqual(
        Object.keys(seen.headers).filter((h) => h.startsWith('x-stainless')),
        [],
      );
  });
});
