// Headers per route, request ids, non-streaming messages, models (both shapes, pagination).
import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import { json, startServer, type TestServer } from './server';
import { MESSAGE_REQUEST } from './streamHelpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 2 },
  extra_field: 1,
};

describe('gateway requests: headers per route', () => {
  beforeEach(async () => {
    server = await startServer((req, res) => {
      if (req.url?.startsWith('/gw/v1/models'))
        return json(res, 200, { data: [{ id: 'a' }] }, { 'x-request-id': 'req_models' });
      if (req.url === '/gw/v1/messages') return json(res, 200, MESSAGE, { 'x-oneapi-request-id': 'req_oneapi' });
      return json(res, 200, { created: 1, data: [{ url: 'https://cdn.example/a.png' }] });
    });
  });

  it('POST /v1/messages: x-api-key + configured version header + content-type, no Authorization', async () => {
    const client = createGatewayClient({
      baseUrl: `${server!.url}/gw/v1/messages`,
      apiKey: 'key-1',
      versionHeader: 'Vendor-Version',
      version: '2024-01-01',
    });
    assert.equal(client.baseUrl, `${server!.url}/gw`);
    const m = await client.createMessage(MESSAGE_REQUEST);
    assert.equal((m.content[0] as { text: string }).text, 'hi');
    assert.equal((m as unknown as { extra_field: number }).extra_field, 1);
    const h = server!.requests[0].headers;
    assert.equal(server!.requests[0].url, '/gw/v1/messages');
    assert.equal(h['x-api-key'], 'key-1');
    assert.equal(h['vendor-version'], '2024-01-01');
    assert.equal(h['content-type'], 'application/json');
    assert.equal(h['authorization'], undefined);
    assert.equal(h['anthropic-version'], undefined);
    assert.equal(JSON.parse(server!.requests[0].body.toString()).stream, false);
  });

  it('defaults the version header to anthropic-version: 2023-06-01', async () => {
    await createGatewayClient({ baseUrl: `${server!.url}/gw`, apiKey: 'k' }).createMessage(MESSAGE_REQUEST);
    assert.equal(server!.requests[0].headers['anthropic-version'], '2023-06-01');
  });

  it('image routes: Authorization: Bearer + content-type, no x-api-key, no version header', async () => {
    const client = createGatewayClient({ baseUrl: `${server!.url}/gw/`, apiKey: 'key-2' });
    await client.generateImage({ model: 'gpt-image-demo', prompt: 'p', size: '1024x1024' });
    const h = server!.requests[0].headers;
    assert.equal(server!.requests[0].url, '/gw/v1/images/generations');
    assert.equal(h['authorization'], 'Bearer key-2');
    assert.equal(h['content-type'], 'application/json');
    assert.equal(h['x-api-key'], undefined);
    assert.equal(h['anthropic-version'], undefined);
  });

  // Bearer only: with x-api-key + anthropic-version new-api answers its hint-less Anthropic list shape
  // (docs/gateway-protocol.md#real-gateways); the spec does not say which header the list takes.
  it('GET /v1/models: Authorization: Bearer only (no x-api-key, no version header); request id captured in the support record', async () => {
    const records: unknown[] = [];
    const client = createGatewayClient({
      baseUrl: `${server!.url}/gw/v1`,
      apiKey: 'key-3',
      onSupportRecord: (r) => records.push(r),
    });
    await client.listModels();
    const h = server!.requests[0].headers;
    assert.equal(h['authorization'], 'Bearer key-3');
    assert.equal(h['x-api-key'], undefined);
    assert.equal(h['anthropic-version'], undefined);
    assert.equal((records[0] as { requestId: string }).requestId, 'req_models');
  });
});

describe('gateway requests: request id headers', () => {
  for (const name of ['request-id', 'x-request-id', 'x-client-request-id', 'x-oneapi-request-id']) {
    it(`captures ${name}`, async () => {
      server = await startServer((_req, res) => json(res, 401, { error: { message: 'no' } }, { [name]: `id-${name}` }));
      const error = await createGatewayClient({ baseUrl: server.url, apiKey: 'k' })
        .createMessage(MESSAGE_REQUEST)
        .catch((e: unknown) => e);
      assert.equal((error as { requestId: string }).requestId, `id-${name}`);
    });
  }
});

describe('gateway models list', () => {
  it('reads the OpenAI shape and keeps unknown fields', async () => {
    server = await startServer((_req, res) =>
      json(res, 200, {
        object: 'list',
        data: [{ id: 'gpt-image-demo', object: 'model', created: 1, owned_by: 'x', custom: { a: 1 } }, { nope: true }],
      }),
    );
    const models = await createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).listModels();
    assert.deepEqual(models, [{ id: 'gpt-image-demo', object: 'model', created: 1, owned_by: 'x', custom: { a: 1 } }]);
  });

  it('paginates the Messages shape with after_id while has_more', async () => {
    const pages: Record<string, unknown> = {
      '': {
        data: [
          { type: 'model', id: 'm1', display_name: 'M1', created_at: 't' },
          { type: 'model', id: 'm2' },
        ],
        has_more: true,
        first_id: 'm1',
        last_id: 'm2',
      },
      m2: { data: [{ type: 'model', id: 'm3' }], has_more: true, last_id: 'm3' },
      m3: { data: [{ type: 'model', id: 'm4' }], has_more: false, last_id: 'm4' },
    };
    server = await startServer((req, res) =>
      json(res, 200, pages[new URL(req.url ?? '', 'http://x').searchParams.get('after_id') ?? '']),
    );
    const models = await createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).listModels();
    assert.deepEqual(
      models.map((m) => m.id),
      ['m1', 'm2', 'm3', 'm4'],
    );
    assert.equal(models[0].display_name, 'M1');
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/v1/models', '/v1/models?after_id=m2', '/v1/models?after_id=m3'],
    );
  });

  it('a list without a data array is a protocol error', async () => {
    server = await startServer((_req, res) => json(res, 200, { models: 'none' }));
    const error = await createGatewayClient({ baseUrl: server.url, apiKey: 'k' })
      .listModels()
      .catch((e: unknown) => e);
    assert.equal((error as { kind: string }).kind, 'protocol');
  });

  it('an unusable base URL fails every call with its reason, without a request', async () => {
    const client = createGatewayClient({ baseUrl: 'gw.example.com', apiKey: 'k' });
    const error = await client.listModels().catch((e: unknown) => e);
    assert.equal((error as { kind: string }).kind, 'bad_request');
    assert.equal((error as { serverCode: string }).serverCode, 'INVALID_BASE_URL');
    assert.match((error as Error).message, /scheme/);
  });
});
