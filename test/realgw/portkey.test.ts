// Our client through the real Portkey gateway (@portkey-ai/gateway 1.15.2 from npm, its own start script, with
// @hono/node-server pinned to 1.13.5: newer ones 500 every stream, Portkey issue 1389). Portkey serves nothing
// without a header of the user's (x-portkey-provider / x-portkey-config): the user's request headers
// (GatewayClientOptions.headers, the setting modelGateway.requestHeaders) route it to the emulator, which plays
// the provider. Real sockets: client → Portkey (child process) → emulator.
import assert from 'node:assert/strict';
import {
  createGatewayClient,
  type DialectSource,
  type GatewayClientOptions,
  type Message,
  type MessagesRequest,
} from '../../src/gateway';
import { startPortkey, type PortkeyGateway } from './portkey';
import { failure } from '../support/failure';

const KEY = 'mg-demo-key-0001';
const MODEL = 'claude-demo-sonnet';
const ASK: MessagesRequest = {
  model: MODEL,
  max_tokens: 200,
  messages: [{ role: 'user', content: 'Hello Portkey ü 世界' }],
};
const TOOL_ASK: MessagesRequest = {
  model: MODEL,
  max_tokens: 400,
  messages: [{ role: 'user', content: 'Look this up [[tool]]' }],
  tools: [
    {
      name: 'lookup',
      description: 'Looks a word up',
      input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  ],
};
const onDialect = (dialect: 'messages' | 'chat-completions'): DialectSource => ({
  knowledge: () => ({ override: dialect }),
  learned: () => undefined,
});

const toolsOf = (m: Message): Array<[string, unknown]> =>
  m.content
    .filter((b) => b.type === 'tool_use')
    .map((b) => [(b as { name: string }).name, (b as { input: unknown }).input]);
const textOf = (m: Message): string =>
  m.content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('');

describe('real gateway (@portkey-ai/gateway): request headers route every call', function () {
  this.timeout(30_000);
  let pk: PortkeyGateway;
  before(async function () {
    this.timeout(30_000);
    pk = await startPortkey();
  });
  after(async () => {
    await pk?.close();
  });
  beforeEach(() => pk.emulator.reset());
  const client = (extra: Partial<GatewayClientOptions> = {}) =>
    createGatewayClient({ baseUrl: pk.url, apiKey: KEY, maxRetries: 0, timeoutMs: 15_000, ...extra });
  /** The same request straight to the emulator: what Portkey must pass through unchanged. */
  const direct = (dialect: 'messages' | 'chat-completions') =>
    createGatewayClient({ baseUrl: pk.emulator.url, apiKey: KEY, maxRetries: 0, dialects: onDialect(dialect) });

  it("without the header: Portkey's own 400 reaches the message, and nothing reached the provider", async () => {
    const error = await failure(client().listModels());
    assert.equal(error.status, 400);
    assert.equal(error.kind, 'bad_request');
    assert.equal(error.serverMessage, 'Either x-portkey-config or x-portkey-provider header is required');
    assert.equal(
      error.message,
      'GET /v1/models failed: HTTP 400: Either x-portkey-config or x-portkey-provider header is required',
    );
    const chat = await failure(
      client({ dialects: onDialect('chat-completions') })
        .streamMessage(ASK)
        .finalMessage(),
    );
    assert.equal(chat.serverMessage, 'Either x-portkey-config or x-portkey-provider header is required');
    assert.equal(pk.emulator.requests().length, 0);
  });

  it('the model list, through Portkey to the provider', async () => {
    const ids = (await client({ headers: pk.headersFor('openai') }).listModels()).map((m) => m.id);
    assert.ok(ids.includes(MODEL), ids.join(', '));
    assert.deepEqual(
      pk.emulator.requests().map((r) => `${r.method} ${r.path}`),
      ['GET /v1/models'],
    );
  });

  it('chat-completions (provider openai): a streamed answer assembles exactly as straight from the provider', async () => {
    const viaPortkey = await client({ headers: pk.headersFor('openai'), dialects: onDialect('chat-completions') })
      .streamMessage(ASK)
      .finalMessage();
    const straight = await direct('chat-completions').streamMessage(ASK).finalMessage();
    assert.equal(textOf(viaPortkey), textOf(straight));
    assert.match(textOf(viaPortkey), /Hello Portkey ü 世界/);
    assert.equal(viaPortkey.stop_reason, 'end_turn');
    assert.ok(viaPortkey.usage.output_tokens > 0);
    assert.equal(pk.emulator.billableCount('chat.completions'), 2, 'one billable request each');
  });

  it('chat-completions: a tool call arrives whole (name and parsed input)', async () => {
    const viaPortkey = await client({ headers: pk.headersFor('openai'), dialects: onDialect('chat-completions') })
      .streamMessage(TOOL_ASK)
      .finalMessage();
    const straight = await direct('chat-completions').streamMessage(TOOL_ASK).finalMessage();
    assert.deepEqual(toolsOf(viaPortkey), toolsOf(straight));
    assert.equal(toolsOf(viaPortkey)[0]?.[0], 'lookup');
  });

  it('Messages (provider anthropic): a streamed answer and a tool call, as straight from the provider', async () => {
    const c = client({ headers: pk.headersFor('anthropic'), dialects: onDialect('messages') });
    const text = await c.streamMessage(ASK).finalMessage();
    assert.equal(textOf(text), textOf(await direct('messages').streamMessage(ASK).finalMessage()));
    const tool = await c.streamMessage(TOOL_ASK).finalMessage();
    assert.equal(tool.stop_reason, 'tool_use');
    assert.equal(toolsOf(tool)[0]?.[0], 'lookup');
    assert.ok(pk.emulator.requests().some((r) => r.path === '/v1/messages' && r.status === 200));
  });

  it('provider openai and the default dialect: Portkey refuses /v1/messages, the same question goes once over chat-completions', async () => {
    const learned: string[] = [];
    const c = client({
      headers: pk.headersFor('openai'),
      dialects: { knowledge: () => ({}), learned: (model, dialect) => learned.push(`${model}:${dialect}`) },
    });
    const message = await c.streamMessage(ASK).finalMessage();
    assert.match(textOf(message), /Hello Portkey/);
    assert.deepEqual(learned, [`${MODEL}:chat-completions`]);
    assert.deepEqual(
      pk.emulator.requests().map((r) => r.path),
      ['/v1/chat/completions'],
      'Portkey itself refused Messages: the provider saw one request',
    );
  });

  it('an image generation, through Portkey', async () => {
    const result = await client({ headers: pk.headersFor('openai') }).generateImage({
      model: 'gpt-image-demo',
      prompt: 'a lighthouse',
      size: '64x64',
    });
    assert.equal(result.images.length, 1);
    assert.ok(pk.emulator.requests().some((r) => r.path === '/v1/images/generations' && r.status === 200));
  });

  it('a provider Portkey cannot reach: its 500 {"html-message"} reaches the message (not only \'HTTP 500\')', async () => {
    const error = await failure(
      client({
        headers: { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': 'http://127.0.0.1:9/v1' },
      }).listModels(),
    );
    assert.equal(error.status, 500);
    assert.match(error.serverMessage ?? '', /^Message: fetch failed Cause: /);
    assert.match(error.message, /HTTP 500: Message: fetch failed/);
  });
});
