// Refusals that send a model to Responses, in real gateways' words (issue 45, item 1): the emulator's 400 "is a
// responses model" on /v1/messages, new-api's 404 "only supported in v1/responses" on /v1/messages, OpenAI's 404 "This
// is not a chat model …" on /v1/chat/completions (gpt-5.x-codex). Each moves the same request once, from any dialect,
// and the move is remembered. Real sockets on 127.0.0.1: a local server, and the emulator with npm start's config.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createGatewayClient, type Dialect, type ModelInfo } from '../../../src/gateway';
import { startEmulator, parseConfigText, type Emulator } from '../../../src/emulator';
import { classifyModel, endpointTypesOf } from '../../../src/catalog/classify';
import { dialectStep } from '../../../src/diagnostics/dialectStep';
import { pointsToResponses, refusalAllows } from '../../../src/gateway/dialects/dialect';
import { json, startServer, type TestServer } from './server';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TEXT_STREAM = [
  { type: 'response.created', response: { id: 'r1', status: 'in_progress', output: [] } },
  { type: 'response.output_text.delta', item_id: 'm1', output_index: 0, content_index: 0, delta: 'ok' },
  {
    type: 'response.completed',
    response: { id: 'r1', status: 'completed', output: [], usage: { input_tokens: 3, output_tokens: 1 } },
  },
]
  .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
  .join('');

/** A client that knows nothing yet (every model starts on Messages) and keeps what refusals teach it. */
function learningClient(baseUrl: string, apiKey: string, learned: string[], list: ModelInfo[] = []) {
  const kept = new Map<string, Dialect>();
  return createGatewayClient({
    baseUrl,
    apiKey,
    maxRetries: 0,
    dialects: {
      knowledge: (model) => {
        const entry = list.find((m) => m.id === model);
        return { learned: kept.get(model), endpointTypes: entry && endpointTypesOf(entry), listed: !!entry };
      },
      learned: (model, d, evidence) => {
        kept.set(model, d);
        learned.push(`${model}:${evidence.from}→${d}`);
      },
    },
  });
}

const ASK = { model: 'gpt-x', max_tokens: 50, messages: [{ role: 'user' as const, content: 'Hi' }] };

describe('refusals that name Responses (real wordings)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const serveRefusing = async (refusals: Record<string, [number, unknown]>) => {
    server = await startServer((req, res) => {
      const refusal = refusals[req.url ?? ''];
      if (refusal) return json(res, refusal[0], refusal[1]);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(TEXT_STREAM);
    });
    return server;
  };

  it("new-api's 404 'only supported in v1/responses' on /v1/messages: straight to Responses, once, remembered", async () => {
    const s = await serveRefusing({
      '/v1/messages': [
        404,
        {
          error: {
            message: 'This model is only supported in v1/responses and not in v1/chat/completions. (request id: 2026x)',
            type: 'new_api_error',
            code: 'model_not_found',
          },
        },
      ],
    });
    const learned: string[] = [];
    const c = learningClient(s.url, 'sk-t', learned);
    assert.deepEqual((await c.streamMessage(ASK).finalMessage()).content, [{ type: 'text', text: 'ok' }]);
    await c.streamMessage(ASK).finalMessage();
    assert.deepEqual(
      s.requests.map((r) => r.url),
      ['/v1/messages', '/v1/responses', '/v1/responses'],
    );
    assert.deepEqual(learned, ['gpt-x:messages→responses']);
  });

  it("OpenAI's 404 'This is not a chat model …' on chat-completions (gpt-5.3-codex): on to Responses", async () => {
    const s = await serveRefusing({
      '/v1/messages': [404, { error: { message: 'Invalid URL (POST /v1/messages)', type: 'invalid_request_error' } }],
      '/v1/chat/completions': [
        404,
        {
          error: {
            message:
              'This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?',
            type: 'invalid_request_error',
            param: 'model',
            code: null,
          },
        },
      ],
    });
    const learned: string[] = [];
    const c = learningClient(s.url, 'sk-t', learned);
    await c.streamMessage({ ...ASK, model: 'gpt-5.3-codex' }).finalMessage();
    assert.deepEqual(
      s.requests.map((r) => r.url),
      ['/v1/messages', '/v1/chat/completions', '/v1/responses'],
    );
    assert.deepEqual(learned, ['gpt-5.3-codex:messages→chat-completions', 'gpt-5.3-codex:chat-completions→responses']);
  });

  it('the word "model" no longer vetoes the move; a model that does not exist still never moves', () => {
    const emulator = {
      status: 400,
      serverMessage: "model 'gpt-demo-codex' is a responses model: it is not served on /v1/messages",
    };
    assert.equal(pointsToResponses(emulator), true);
    assert.equal(refusalAllows('messages', 'responses', emulator, false), true);
    assert.equal(refusalAllows('messages', 'chat-completions', emulator, false), false, 'Responses, not the next one');
    for (const no of [
      { status: 404, serverCode: 'model_not_found', serverMessage: 'The model `gpt-9` does not exist' },
      { status: 400, serverMessage: 'messages: Field required' },
      { status: 503, serverMessage: 'only supported in v1/responses' },
    ])
      assert.equal(refusalAllows('messages', 'responses', no, true), false, JSON.stringify(no));
  });

  it("a dialect set in modelGateway.models.dialects is the user's word: no move, one request", async () => {
    const s = await serveRefusing({
      '/v1/messages': [400, { error: { message: "model 'x' is a responses model: it is not served on /v1/messages" } }],
    });
    const c = createGatewayClient({
      baseUrl: s.url,
      apiKey: 'k',
      maxRetries: 0,
      dialects: { knowledge: () => ({ override: 'messages' }), learned: () => undefined },
    });
    await assert.rejects(c.createMessage(ASK), /responses model/);
    assert.equal(s.requests.length, 1);
  });
});

describe("the demo key reaches every model npm start's emulator lists (gpt-demo-codex in Ask and Agent)", () => {
  let emu: Emulator;
  before(async () => {
    const { withAgentModels } = (await import(path.join(ROOT, 'scripts', 'lib', 'startOptions.mjs'))) as {
      withAgentModels(config: unknown): boolean;
    };
    const config = parseConfigText(fs.readFileSync(path.join(ROOT, 'emulator.json'), 'utf8'));
    withAgentModels(config);
    config.messages.tokensPerSecond = 0;
    emu = await startEmulator({ config });
  });
  after(() => emu.close());

  const chatModels = async (): Promise<ModelInfo[]> => {
    const list = await createGatewayClient({ baseUrl: emu.url, apiKey: 'mg-demo-key-0001' }).listModels();
    return list.filter((m) => classifyModel(m) === 'chat');
  };

  it('Ask and Agent answer on every listed chat model; Check Connection puts gpt-demo-codex under Responses', async () => {
    const list = await chatModels();
    const ids = list.map((m) => m.id);
    assert.ok(ids.includes('gpt-demo-codex') && ids.includes('deepseek-demo-reasoner'), ids.join());
    const learned: string[] = [];
    const c = learningClient(emu.url, 'mg-demo-key-0001', learned, list);
    const tools = [{ name: 'read_file', description: 'Reads a file', input_schema: { type: 'object' } }];
    for (const model of ids) {
      const ask = await c
        .streamMessage({ model, max_tokens: 200, messages: [{ role: 'user', content: 'Hello' }] })
        .finalMessage();
      assert.ok(ask.content.length > 0, model);
      const agent = await c
        .streamMessage({ model, max_tokens: 200, tools, messages: [{ role: 'user', content: 'read a.ts' }] })
        .finalMessage();
      assert.ok(agent.content.length > 0, model);
    }
    assert.deepEqual(
      emu.requests().filter((r) => r.status !== 200),
      [],
      'no refusal: the list says which dialect',
    );
    const step = dialectStep(c, ids, {
      t: (m: string, ...a: unknown[]) => m.replace(/\{(\d)\}/g, (_, i) => String(a[+i])),
    });
    const messagesLine = step.lines.find((l) => l.startsWith('Messages')) ?? '';
    assert.ok(!messagesLine.includes('gpt-demo-codex'), messagesLine);
    assert.ok(
      step.lines.some((l) => l.startsWith('Responses') && l.includes('gpt-demo-codex')),
      step.lines.join('\n'),
    );
  });

  it("a client that has not read the list: gpt-demo-codex's 400 on /v1/messages moves it to Responses once", async () => {
    const learned: string[] = [];
    const c = learningClient(emu.url, 'mg-demo-key-0001', learned);
    const before = emu.requests().length;
    for (let i = 0; i < 2; i++)
      await c
        .streamMessage({ model: 'gpt-demo-codex', max_tokens: 200, messages: [{ role: 'user', content: 'Hello' }] })
        .finalMessage();
    assert.deepEqual(
      emu
        .requests()
        .slice(before)
        .map((r) => `${r.path} ${r.status}`),
      ['/v1/messages 400', '/v1/responses 200', '/v1/responses 200'],
    );
    assert.deepEqual(learned, ['gpt-demo-codex:messages→responses']);
  });
});
