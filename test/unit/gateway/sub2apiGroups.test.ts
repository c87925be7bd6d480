// sub2api serves one platform per key group (issue 45, item 2): an OpenAI-group key's models on /v1/messages get
// 503 "No available accounts: no available accounts supporting model: X" — account selection failed, nothing was
// processed. Where the error or the key's list proves the group serves OpenAI, the request moves once to
// chat-completions (and that is remembered); otherwise it is not re-sent and the advice names
// modelGateway.models.dialects in one sentence. Real sockets on 127.0.0.1: the emulator's sub2api dialect and a local
// server with sub2api's other wordings.
import * as assert from 'node:assert/strict';
import { adviseOnError, createGatewayClient, type Dialect, type ModelInfo } from '../../../src/gateway';
import { defaultConfig, startEmulator, type Emulator } from '../../../src/emulator';
import { classifyModel } from '../../../src/catalog/classify';
import { familyOfModelIds } from '../../../src/gateway/dialects/dialect';
import { json, startServer } from './server';

/** A client whose dialect knowledge is what the host's dialect source gives: the list, its family, what it learned. */
async function listedClient(baseUrl: string, apiKey: string, learned: string[]) {
  const list: ModelInfo[] = await createGatewayClient({ baseUrl, apiKey, maxRetries: 0 })
    .listModels()
    .catch(() => []);
  const family = familyOfModelIds(list.filter((m) => classifyModel(m) === 'chat').map((m) => m.id));
  const kept = new Map<string, Dialect>();
  return createGatewayClient({
    baseUrl,
    apiKey,
    maxRetries: 0,
    dialects: {
      knowledge: (model) => ({
        listed: list.some((m) => m.id === model),
        groupFamily: family,
        learned: kept.get(model),
      }),
      learned: (model, d, evidence) => {
        kept.set(model, d);
        learned.push(`${model}:${evidence.from}→${d}`);
      },
    },
  });
}

const ask = (model: string) => ({ model, max_tokens: 100, messages: [{ role: 'user' as const, content: 'Hello' }] });

describe("sub2api: an OpenAI group's key", () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ config: { ...defaultConfig(), dialect: 'sub2api' } });
  });
  after(() => emu.close());

  it('a list of OpenAI models proves the group: the 503 of /v1/messages moves once to chat-completions, remembered', async () => {
    const learned: string[] = [];
    const client = await listedClient(emu.url, 'mg-openai-group-0013', learned);
    const before = emu.requests().length;
    const first = await client.streamMessage(ask('gpt-demo-chat')).finalMessage();
    assert.ok(first.content.length > 0);
    await client.createMessage(ask('gpt-demo-chat'));
    assert.deepEqual(
      emu
        .requests()
        .slice(before)
        .filter((r) => r.method === 'POST')
        .map((r) => `${r.path} ${r.status}`),
      ['/v1/messages 503', '/v1/chat/completions 200', '/v1/chat/completions 200'],
    );
    assert.deepEqual(learned, ['gpt-demo-chat:messages→chat-completions']);
  });

  it('a mixed list proves nothing: the 503 is not re-sent, and the advice names modelGateway.models.dialects', async () => {
    const learned: string[] = [];
    const client = await listedClient(emu.url, 'mg-openai-chat-0009', learned);
    const before = emu.requests().length;
    const error = await client.createMessage(ask('gpt-demo-chat')).catch((e: unknown) => e);
    assert.deepEqual(
      emu
        .requests()
        .slice(before)
        .filter((r) => r.method === 'POST')
        .map((r) => `${r.path} ${r.status}`),
      ['/v1/messages 503'],
    );
    assert.deepEqual(learned, []);
    const advice = adviseOnError(error, { surface: 'chat' });
    assert.match(advice.detail, /set modelGateway\.models\.dialects to call gpt-demo-chat over it/);
  });
});

describe("sub2api's other wordings (local server)", () => {
  const serve = (messages: [number, unknown]) =>
    startServer((req, res) => {
      if (req.url === '/v1/messages') return json(res, messages[0], messages[1]);
      json(res, 200, {
        id: 'c',
        object: 'chat.completion',
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      });
    });

  for (const [what, body] of [
    [
      'the error names OpenAI accounts',
      {
        type: 'error',
        error: {
          type: 'api_error',
          message: 'No available accounts: no available OpenAI accounts supporting model: gpt-5',
        },
      },
    ],
    [
      'newer versions: 503 endpoint_not_supported',
      {
        type: 'error',
        error: { type: 'endpoint_not_supported', message: 'No accounts in this group support the requested endpoint' },
      },
    ],
  ] as const)
    it(`${what}: once on chat-completions, without a list`, async () => {
      const server = await serve([503, body]);
      try {
        const client = await listedClient(server.url, 'k', []);
        assert.deepEqual((await client.createMessage(ask('gpt-5'))).content, [{ type: 'text', text: 'ok' }]);
        assert.deepEqual(
          server.requests.filter((r) => r.method === 'POST').map((r) => r.url),
          ['/v1/messages', '/v1/chat/completions'],
        );
      } finally {
        await server.close();
      }
    });

  it('the family of a list: OpenAI or Anthropic ids only, else none', () => {
    assert.equal(familyOfModelIds(['gpt-5', 'gpt-5-codex', 'o3-mini', 'openai/gpt-4o']), 'openai');
    assert.equal(familyOfModelIds(['claude-sonnet-4-5', 'claude-haiku-4-5']), 'anthropic');
    assert.equal(familyOfModelIds(['gpt-5', 'claude-sonnet-4-5']), undefined);
    assert.equal(familyOfModelIds([]), undefined);
  });
});
