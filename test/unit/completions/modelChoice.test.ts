// Which model code completion turns on with, and what happens when a model cannot fill a middle (issue 45, item 3):
// the offer, the status bar and the walkthrough pick a coder model, else a fast chat model, never a reasoner; a
// refusal of /v1/completions that says the model does no fill-in-the-middle moves to the chat fill once (and is
// remembered by the host). Real lists from the emulator, real sockets on 127.0.0.1.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createGatewayClient, type ModelInfo } from '../../../src/gateway';
import { parseConfigText, startEmulator, defaultConfig, type Emulator } from '../../../src/emulator';
import { classifyModel, endpointTypesOf } from '../../../src/catalog/classify';
import { isFillRouteRefusal, modeOfModelName } from '../../../src/gateway/completion/completionMode';
import { recommendedCompletionModel, type ChoosableModel } from '../../../src/completions/modelChoice';

const ROOT = path.resolve(__dirname, '..', '..', '..');

async function listOf(emu: Emulator, key: string): Promise<ChoosableModel[]> {
  const list: ModelInfo[] = await createGatewayClient({ baseUrl: emu.url, apiKey: key }).listModels();
  return list.map((raw) => ({ id: raw.id, kind: classifyModel(raw), raw, endpointTypes: endpointTypesOf(raw) }));
}

describe('code completion: the model it turns on with', () => {
  let start: Emulator;
  before(async () => {
    const { withAgentModels } = (await import(path.join(ROOT, 'scripts', 'lib', 'startOptions.mjs'))) as {
      withAgentModels(config: unknown): boolean;
    };
    const config = parseConfigText(fs.readFileSync(path.join(ROOT, 'emulator.json'), 'utf8'));
    withAgentModels(config);
    start = await startEmulator({ config });
  });
  after(() => start.close());

  it("npm start's demo key: a fast chat model (claude-demo-haiku), not deepseek-demo-reasoner or gpt-demo-codex", async () => {
    const models = await listOf(start, 'mg-demo-key-0001');
    assert.ok(models.some((m) => m.id === 'deepseek-demo-reasoner'));
    assert.equal(recommendedCompletionModel(models), 'claude-demo-haiku');
  });

  it('a coder model first where the list has one; nothing where every chat model reasons', async () => {
    assert.equal(recommendedCompletionModel(await listOf(start, 'mg-coder-key-0011')), 'qwen2.5-coder-demo');
    const reasoning = await listOf(start, 'mg-reasoning-0010');
    const reasoners = reasoning.filter((m) => m.id !== 'claude-demo-agent'); // npm start adds the agent model
    assert.deepEqual(reasoners.map((m) => m.id).sort(), ['deepseek-demo-reasoner', 'gpt-demo-codex']);
    assert.equal(recommendedCompletionModel(reasoners), undefined);
    const byId = (...ids: string[]) => ids.map((id) => ({ id, kind: 'chat', raw: { id } }));
    assert.equal(recommendedCompletionModel(byId('deepseek-reasoner', 'o3', 'gpt-4o', 'gpt-4o-mini')), 'gpt-4o-mini');
    assert.equal(recommendedCompletionModel(byId('deepseek-r1', 'deepseek-chat')), 'deepseek-chat');
  });

  it("a DeepSeek reasoner's name does not make it a fill-in-the-middle model", () => {
    assert.equal(modeOfModelName('deepseek-demo-reasoner'), undefined);
    assert.equal(modeOfModelName('deepseek-reasoner'), undefined);
    assert.equal(modeOfModelName('deepseek-chat'), 'fim');
    assert.equal(modeOfModelName('qwen2.5-coder-demo'), 'fim');
  });
});

describe('code completion: a model that does no fill-in-the-middle gets the chat fill once', () => {
  it('the emulator\'s 400 "does not support fill-in-the-middle": /v1/completions once, then the chat fill', async () => {
    const emu = await startEmulator({ config: defaultConfig() });
    try {
      const fellBack: unknown[] = [];
      const client = createGatewayClient({ baseUrl: emu.url, apiKey: 'mg-demo-key-0001', maxRetries: 0 });
      const done = await client.completeCode!({
        model: 'claude-demo-haiku',
        mode: 'fim',
        allowChatFallback: true,
        onFellBack: (e) => fellBack.push(e),
        prefix: 'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(n',
        suffix: '\n}\n',
        maxTokens: 64,
        singleLine: true,
      });
      assert.equal(done.mode, 'chat');
      assert.deepEqual(fellBack, [{ status: 400 }]);
      assert.deepEqual(
        emu.requests().map((r) => `${r.path} ${r.status}`),
        ['/v1/completions 400', '/v1/messages 200'],
      );
    } finally {
      await emu.close();
    }
  });

  it("OpenAI's and vLLM's words for it are refusals of the route; a missing model and a 5xx are not", () => {
    const yes = [
      {
        status: 404,
        serverMessage:
          'This is a chat model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?',
      },
      { status: 400, serverMessage: 'suffix is not currently supported', serverCode: 'BadRequestError' },
      {
        status: 400,
        serverMessage: "model 'x' does not support fill-in-the-middle.",
        serverCode: 'model_not_supported',
      },
    ];
    for (const e of yes) assert.equal(isFillRouteRefusal(e), true, JSON.stringify(e));
    const no = [
      { status: 404, serverCode: 'model_not_found', serverMessage: 'The model `x` does not exist' },
      { status: 400, serverMessage: 'max_tokens: must be positive' },
      { status: 500, serverMessage: 'fill-in-the-middle backend crashed' },
    ];
    for (const e of no) assert.equal(isFillRouteRefusal(e), false, JSON.stringify(e));
  });
});

describe("the emulator's demo-start key is npm start's demo key", () => {
  it('lists the same models as the demo key under npm start', async () => {
    const { withAgentModels } = (await import(path.join(ROOT, 'scripts', 'lib', 'startOptions.mjs'))) as {
      withAgentModels(config: unknown): boolean;
    };
    const config = parseConfigText(fs.readFileSync(path.join(ROOT, 'emulator.json'), 'utf8'));
    withAgentModels(config);
    assert.deepEqual(
      Object.keys(config.groups['demo-start'].models).sort(),
      Object.keys(config.groups.default.models).sort(),
    );
  });
});
