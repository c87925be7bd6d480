// The user's request headers (GatewayClientOptions.headers / secretHeaders, docs/gateway-protocol.md#request-headers):
// sent on every route, never replacing the key's auth header, the version header or the framing; names and
// values checked; secret values redacted like the key. Real sockets on 127.0.0.1.
import * as assert from 'node:assert/strict';
import { createGatewayClient, isGatewayError, type DialectSource } from '../../../src/gateway';
import { checkRequestHeaders } from '../../../src/gateway/requestHeaders';
import { defaultConfig } from '../../../src/emulator';
import { json, startServer, type TestServer } from './server';
import { MESSAGE_REQUEST } from './streamHelpers';
import { failure } from '../../support/failure';
import { useEmulator } from '../../support/emulatorLifecycle';

const MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 2 },
};
const COMPLETION = {
  id: 'c1',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1 },
};
const IMAGE = { created: 1, data: [{ url: 'https://cdn.example/a.png' }] };
const chatOnly: DialectSource = { knowledge: () => ({ override: 'chat-completions' }), learned: () => undefined };
const SECRET = 'hdr-secret-value-5f1e9a7c';

describe('request headers: sent on every route', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer((req, res) => {
      const url = req.url ?? '';
      if (url.startsWith('/v1/models')) return json(res, 200, { data: [{ id: 'm' }] });
      if (url === '/v1/messages') return json(res, 200, MESSAGE);
      if (url === '/v1/chat/completions') return json(res, 200, COMPLETION);
      if (url === '/v1/images/generations') return json(res, 200, IMAGE);
      if (url === '/v1/images/generations/async')
        return json(res, 202, { id: 't1', status: 'processing' }, { location: '/v1/images/tasks/t1' });
      if (url === '/v1/images/tasks/t1') return json(res, 200, { id: 't1', status: 'completed', result: IMAGE });
      if (url.endsWith('/dashboard/billing/subscription')) return json(res, 200, { hard_limit_usd: 5 });
      if (url.endsWith('/dashboard/billing/usage')) return json(res, 200, { total_usage: 100 });
      return json(res, 404, { error: { message: `no ${url}` } });
    });
  });
  after(() => server.close());

  it('models, Messages, chat-completions, images, async tasks and balance all carry them; auth and version stay the client’s', async () => {
    const options = {
      baseUrl: server.url,
      apiKey: 'key-headers-1',
      headers: { 'X-Portkey-Provider': 'openai', 'x-team': 'blue', 'User-Agent-Extra': 'a b' },
      secretHeaders: { 'cf-aig-authorization': `Bearer ${SECRET}`, 'x-team': 'red' },
    };
    const messages = createGatewayClient(options);
    await messages.listModels();
    await messages.createMessage(MESSAGE_REQUEST);
    await messages.generateImage({ model: 'img', prompt: 'p', size: '1024x1024' });
    const ref = await messages.submitImageTask('generation', { model: 'img', prompt: 'p', size: '1024x1024' });
    await messages.getImageTask(ref.id);
    assert.equal((await messages.readBalance('new-api')).kind, 'balance');
    await createGatewayClient({ ...options, dialects: chatOnly }).createMessage(MESSAGE_REQUEST);

    const routes = server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
    for (const route of [
      'GET /v1/models',
      'POST /v1/messages',
      'POST /v1/chat/completions',
      'POST /v1/images/generations',
      'POST /v1/images/generations/async',
      'GET /v1/images/tasks/t1',
      'GET /dashboard/billing/subscription',
    ])
      assert.ok(routes.includes(route), `${route} in ${routes.join(', ')}`);
    for (const r of server.requests) {
      const at = `${r.method} ${r.url}`;
      assert.equal(r.headers['x-portkey-provider'], 'openai', at);
      assert.equal(r.headers['user-agent-extra'], 'a b', at);
      // A secret header of the same name wins over the setting's.
      assert.equal(r.headers['x-team'], 'red', at);
      assert.equal(r.headers['cf-aig-authorization'], `Bearer ${SECRET}`, at);
      // The key's own auth is untouched.
      const auth = r.headers['authorization'] ?? '';
      const apiKey = r.headers['x-api-key'] ?? '';
      assert.ok(auth === 'Bearer key-headers-1' || apiKey === 'key-headers-1', at);
    }
    const onMessages = server.requests.find((r) => r.url === '/v1/messages')!;
    assert.equal(onMessages.headers['anthropic-version'], '2023-06-01');
    assert.equal(onMessages.headers['x-api-key'], 'key-headers-1');
  });

  for (const [name, names] of [
    ['Authorization', /Authorization.*auth header/],
    ['X-API-Key', /X-API-Key.*auth header/],
    ['anthropic-version', /anthropic-version.*version header/],
    ['Content-Type', /Content-Type.*set by the client/],
  ] as const) {
    it(`a header named ${name} would replace the client's own: every call fails naming it, nothing is sent`, async () => {
      const before = server.requests.length;
      const client = createGatewayClient({ baseUrl: server.url, apiKey: 'key-headers-2', headers: { [name]: 'x' } });
      for (const call of [client.listModels(), client.createMessage(MESSAGE_REQUEST), client.readBalance('new-api')]) {
        const error = await call.then(
          (v) => v,
          (e: unknown) => e,
        );
        if (!isGatewayError(error)) {
          // readBalance reports a failed probe instead of throwing.
          assert.deepEqual(error, { kind: 'failed' });
          continue;
        }
        assert.equal(error.kind, 'bad_request');
        assert.equal(error.serverCode, 'INVALID_REQUEST_HEADERS');
        assert.match(error.message, names);
      }
      assert.equal(server.requests.length, before, 'nothing reached the gateway');
    });
  }

  it('the version header is the configured one: a renamed version header is reserved, anthropic-version then is not', () => {
    assert.match(checkRequestHeaders({ 'Vendor-Version': '1' }, 'vendor-version').problem ?? '', /version header/);
    assert.equal(checkRequestHeaders({ 'anthropic-version': '1' }, 'vendor-version').problem, undefined);
  });

  it('names are RFC 7230 tokens and values carry no CR, LF or NUL', () => {
    assert.match(
      checkRequestHeaders({ 'bad name': 'x' }, 'anthropic-version').problem ?? '',
      /"bad name".*header name/,
    );
    assert.match(checkRequestHeaders({ 'x-a(b)': 'x' }, 'anthropic-version').problem ?? '', /"x-a\(b\)"/);
    for (const value of ['a\r\nx-injected: 1', 'a\nb', 'a\u0000b'])
      assert.match(checkRequestHeaders({ 'x-ok': value }, 'anthropic-version').problem ?? '', /value of "x-ok"/);
    assert.deepEqual(checkRequestHeaders({ 'X-Ok': 'tab\tseparated ünïcode' }, 'anthropic-version'), {
      headers: { 'x-ok': 'tab\tseparated ünïcode' },
    });
  });

  it('a secret header value is redacted from error messages like the key', async () => {
    const s = await startServer((_req, res) =>
      json(res, 401, { error: { message: `invalid cf-aig token ${SECRET} for gateway` } }),
    );
    try {
      const error = await failure(
        createGatewayClient({
          baseUrl: s.url,
          apiKey: 'key-headers-3',
          secretHeaders: { 'cf-aig-authorization': SECRET },
        }).listModels(),
      );
      assert.ok(!`${error.message} ${error.serverMessage}`.includes(SECRET), error.message);
      assert.match(error.serverMessage ?? '', /\[redacted\]/);
    } finally {
      await s.close();
    }
  });
});

describe('request headers: a gateway that requires one (the emulator as Portkey)', () => {
  const emu = useEmulator(() => ({ ...defaultConfig(), dialect: 'portkey' }), { resetBeforeEach: false });

  it("without the header: Portkey's 400 reaches the message as it said it", async () => {
    const error = await failure(createGatewayClient({ baseUrl: emu().url, apiKey: 'mg-demo-key-0001' }).listModels());
    assert.equal(error.status, 400);
    assert.equal(error.serverMessage, 'Either x-portkey-config or x-portkey-provider header is required');
    assert.match(error.message, /GET \/v1\/models failed: HTTP 400: Either x-portkey-config or x-portkey-provider/);
  });

  it('with it: the list, a streamed answer and an image', async () => {
    const client = createGatewayClient({
      baseUrl: emu().url,
      apiKey: 'mg-demo-key-0001',
      headers: { 'x-portkey-provider': 'openai' },
    });
    assert.ok((await client.listModels()).some((m) => m.id === 'claude-demo-sonnet'));
    const message = await client
      .streamMessage({ ...MESSAGE_REQUEST, model: 'claude-demo-sonnet', max_tokens: 64 })
      .finalMessage();
    assert.ok(message.content.length > 0);
    const images = await client.generateImage({ model: 'gpt-image-demo', prompt: 'a cat', size: '64x64' });
    assert.equal(images.images.length, 1);
  });
});
