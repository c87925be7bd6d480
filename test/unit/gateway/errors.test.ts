// HTTP errors: every body shape, the key never leaks (canary), capped error bodies, timeouts, drops.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { createGatewayClient, type GatewayError, type Logger, type SupportRecord } from '../../../src/gateway';
import { CANARY_KEY, json, startServer, type TestServer } from './server';
import { MESSAGE_REQUEST } from './streamHelpers';
import { failure } from '../../support/failure';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function recordingLogger(lines: string[]): Logger {
  const put = (m: string, ...a: unknown[]): void => void lines.push([m, ...a.map((x) => JSON.stringify(x))].join(' '));
  return { debug: put, info: put, warn: put, error: put };
}

describe('gateway errors: bodies and kinds', () => {
  const cases: Array<{ status: number; body: string; type?: string; kind: string; message?: string; code?: string }> = [
    {
      status: 400,
      body: '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too big"}}',
      kind: 'bad_request',
      message: 'max_tokens: too big',
      code: 'invalid_request_error',
    },
    {
      status: 401,
      body: '{"error":{"message":"Invalid API key","type":"authentication_error","code":"INVALID_API_KEY"}}',
      kind: 'auth',
      message: 'Invalid API key',
      code: 'INVALID_API_KEY',
    },
    {
      status: 402,
      body: '{"code":"INSUFFICIENT_BALANCE","message":"Balance too low"}',
      kind: 'forbidden',
      code: 'INSUFFICIENT_BALANCE',
    },
    {
      status: 403,
      body: 'image generation is not enabled for this group',
      type: 'text/plain',
      kind: 'forbidden',
      message: 'image generation is not enabled for this group',
    },
    {
      status: 404,
      body: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>',
      type: 'text/html',
      kind: 'not_found',
      message: 'HTML error page: 404 Not Found',
    },
    {
      status: 413,
      body: '{"type":"error","error":{"type":"request_too_large","message":"too large"}}',
      kind: 'bad_request',
    },
    { status: 422, body: '', kind: 'bad_request' },
    { status: 500, body: '{"error":{"message":"cut', kind: 'server', message: '{"error":{"message":"cut' },
    {
      status: 502,
      body: '<html><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
      type: 'text/html',
      kind: 'server',
      message: 'HTML error page from nginx: 502 Bad Gateway',
    },
    {
      status: 529,
      body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      kind: 'server',
      code: 'overloaded_error',
    },
  ];
  for (const c of cases) {
    it(`HTTP ${c.status} (${c.type ?? 'json'}) → ${c.kind}`, async () => {
      server = await startServer((_req, res) => {
        res.writeHead(c.status, { 'content-type': c.type ?? 'application/json' });
        res.end(c.body);
      });
      const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).createMessage(MESSAGE_REQUEST));
      assert.equal(e.kind, c.kind);
      assert.equal(e.status, c.status);
      assert.equal(e.route, 'POST /v1/messages');
      assert.equal(e.model, 'claude-demo-sonnet');
      if (c.message) assert.equal(e.serverMessage, c.message);
      if (c.code) assert.equal(e.serverCode, c.code);
      assert.ok(!/<[a-z]/i.test(e.message), 'no markup in the message');
      assert.deepEqual(Object.keys(e.supportRecord()).sort(), ['model', 'route', 'status', 'timestamp']);
    });
  }

  it('reads at most 64 KB of an error body: a 50 MB body is not downloaded', async () => {
    let written = 0;
    server = await startServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain', 'content-length': String(50 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = (): void => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => undefined);
      pump();
    });
    const closed = server.nextClose();
    const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).createMessage(MESSAGE_REQUEST));
    await closed;
    assert.equal(e.kind, 'bad_request');
    assert.ok((e.serverMessage ?? '').length <= 500);
    assert.ok(written < 50 * 1024 * 1024, `the server could write only part of the body (${written} bytes)`);
  });
});

describe('gateway errors: the API key never leaks (canary)', () => {
  it('redacts a key echoed by the server in its error body, in errors, logs and records', async () => {
    server = await startServer((req, res) => {
      const key = String(req.headers['x-api-key'] ?? req.headers['authorization'] ?? '');
      json(res, 401, { error: { message: `Invalid API key: ${key}`, code: `BAD_${key}` }, request_id: 'req_c' });
    });
    const lines: string[] = [];
    const records: SupportRecord[] = [];
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey: CANARY_KEY,
      logger: recordingLogger(lines),
      onSupportRecord: (r) => records.push(r),
      maxRetries: 0,
    });
    const errors: GatewayError[] = [];
    errors.push(await failure(client.createMessage(MESSAGE_REQUEST)));
    errors.push(await failure(client.listModels()));
    errors.push(await failure(client.generateImage({ model: 'gpt-image-demo', prompt: 'p' })));
    errors.push(await failure(client.streamMessage(MESSAGE_REQUEST).finalMessage()));
    for (const e of errors) {
      const everything = JSON.stringify({ ...e, message: e.message, stack: e.stack, record: e.supportRecord() });
      assert.ok(!everything.includes(CANARY_KEY), `key leaked: ${everything}`);
      assert.ok(!everything.includes(CANARY_KEY.slice(0, 16)));
      assert.equal(e.kind, 'auth');
      assert.match(e.serverMessage ?? '', /\[redacted\]/);
    }
    assert.ok(lines.length >= 4);
    assert.ok(!lines.join('\n').includes(CANARY_KEY));
    assert.ok(!JSON.stringify(records).includes(CANARY_KEY));
  });

  it('redacts the key from mid-stream error events too', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: {"type":"error","error":{"type":"api_error","message":"bad key ${CANARY_KEY}"}}\n\n`);
    });
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: CANARY_KEY }).streamMessage(MESSAGE_REQUEST).finalMessage(),
    );
    assert.ok(!JSON.stringify({ ...e, m: e.message }).includes(CANARY_KEY));
  });
});

describe('gateway errors: timeouts and dropped connections', () => {
  it('no headers within timeoutMs → timeout; a POST timeout leaves the outcome unknown and is not replayed', async () => {
    server = await startServer(() => undefined);
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 150 }).createMessage(MESSAGE_REQUEST),
    );
    assert.equal(e.kind, 'timeout');
    assert.equal(e.outcomeUnknown, true);
    assert.equal(server.requests.length, 1);
  });

  it('idle time between body chunks counts too (a stream that stalls → timeout, partial kept)', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'data: {"type":"message_start","message":{"id":"m"}}\n\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"so far"}}\n\n',
      );
    });
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', timeoutMs: 800 })
        .streamMessage(MESSAGE_REQUEST)
        .finalMessage(),
    );
    assert.equal(e.kind, 'timeout');
    assert.equal(e.outcomeUnknown, true);
    assert.equal((e.partial?.content[0] as { text: string }).text, 'so far');
    assert.equal(server.requests.length, 1);
  });

  it('a POST whose connection drops after sending: network, outcome unknown, never replayed', async () => {
    server = await startServer((req) => void req.socket.destroy());
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 3 }).generateImage({
        model: 'x',
        prompt: 'p',
      }),
    );
    assert.equal(e.kind, 'network');
    assert.equal(e.outcomeUnknown, true);
    assert.equal(server.requests.length, 1);
  });

  it('connection refused: network, outcome known (nothing was sent)', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const e = await failure(
      createGatewayClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', maxRetries: 0 }).createMessage(
        MESSAGE_REQUEST,
      ),
    );
    assert.equal(e.kind, 'network');
    assert.equal(e.outcomeUnknown, false);
  });

  it('a 2xx body that is not JSON is a protocol error', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>login page</html>');
    });
    const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).createMessage(MESSAGE_REQUEST));
    assert.equal(e.kind, 'protocol');
  });
});

describe('gateway logging and support records', () => {
  it('logs each exchange (method, route, status, duration, request id) and emits one record per exchange', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/v1/models') return json(res, 200, { data: [{ id: 'a' }] }, { 'request-id': 'req_log' });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_stream' });
      res.end('data: {"type":"message_start","message":{"id":"m"}}\n\ndata: {"type":"message_stop"}\n\n');
    });
    const lines: string[] = [];
    const records: SupportRecord[] = [];
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'k',
      logger: recordingLogger(lines),
      onSupportRecord: (r) => records.push(r),
    });
    await client.listModels();
    await client.streamMessage(MESSAGE_REQUEST).finalMessage();
    assert.match(lines[0], /^GET \/v1\/models → 200 in \d+ ms \(request id req_log\)$/);
    assert.match(lines[1], /^POST \/v1\/messages → 200 in \d+ ms \(request id req_stream\)$/);
    assert.equal(records.length, 2);
    assert.deepEqual(Object.keys(records[1]).sort(), ['model', 'requestId', 'route', 'status', 'timestamp']);
    assert.equal(records[1].model, 'claude-demo-sonnet');
  });

  it('a throwing logger never breaks a request', async () => {
    server = await startServer((_req, res) => json(res, 200, { data: [] }));
    const bad = (): never => {
      throw new Error('logger down');
    };
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'k',
      logger: { debug: bad, info: bad, warn: bad, error: bad },
    });
    assert.deepEqual(await client.listModels(), []);
  });
});
