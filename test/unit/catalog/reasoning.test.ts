import * as assert from 'assert';
import { guessReasoning, listedReasoning, modelReasons } from '../../../src/catalog/reasoning';
import { createGatewayClient } from '../../../src/gateway';
import { startEmulator, defaultConfig } from '../../../src/emulator';
import { modelOptionOf } from '../../../src/chat/composer/modelOptions';

describe('which models reason (the composer offers its Reasoning control)', () => {
  it('guesses the reasoning families from the id', () => {
    for (const id of [
      'o1',
      'o3-mini',
      'openai/o4-mini',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-codex',
      'deepseek-reasoner',
      'deepseek/deepseek-r1',
      'deepseek-demo-reasoner',
      'deepseek-r1-0528',
      'claude-3-7-sonnet-20250219',
      'claude-sonnet-4-20250514',
      'claude-opus-4-1',
      'anthropic/claude-sonnet-4.5',
      'qwq-32b',
      'qwen3-235b-a22b-thinking-2507',
      'gemini-2.5-pro',
      'google/gemini-2.5-flash',
    ])
      assert.strictEqual(guessReasoning(id), true, id);
  });

  it('does not guess reasoning for the plain chat models', () => {
    for (const id of [
      'gpt-4o',
      'gpt-4.1-mini',
      'claude-3-5-sonnet',
      'deepseek-chat',
      'qwen3-coder',
      'gemini-2.0-flash',
      'llama-3.1-70b',
      'pro1',
    ])
      assert.strictEqual(guessReasoning(id), false, id);
  });

  it('believes the model list where it says (LiteLLM, OpenRouter, capabilities), over the guess', () => {
    assert.strictEqual(listedReasoning({ id: 'x', supports_reasoning: true }), true);
    assert.strictEqual(modelReasons({ id: 'o3', supports_reasoning: false }), false);
    assert.strictEqual(modelReasons({ id: 'my-model', supported_parameters: ['tools', 'reasoning'] }), true);
    assert.strictEqual(modelReasons({ id: 'gpt-5', supported_parameters: ['tools'] }), false);
    assert.strictEqual(modelReasons({ id: 'local', capabilities: ['thinking'] }), true);
    assert.strictEqual(listedReasoning({ id: 'local' }), undefined);
    assert.strictEqual(modelReasons({ id: 'local' }), false);
  });
});

describe("the demo's model list (the emulator publishes what real lists do)", () => {
  it('the picker shows a window for every demo chat model and the reasoning mark for the ones that reason', async () => {
    const emu = await startEmulator({ config: defaultConfig() });
    try {
      const options = new Map<string, ReturnType<typeof modelOptionOf>>();
      for (const key of ['mg-demo-key-0001', 'mg-reasoning-0010', 'mg-openai-chat-0009']) {
        const list = await createGatewayClient({ baseUrl: emu.url, apiKey: key }).listModels();
        for (const raw of list.filter((m) => !/image|flux/.test(m.id)))
          options.set(raw.id, modelOptionOf({ id: raw.id, kind: 'chat', raw }, undefined, {}));
      }
      for (const [id, option] of options) assert.ok((option.window ?? 0) >= 32_768, `${id}: ${JSON.stringify(option)}`);
      assert.strictEqual(options.get('deepseek-demo-reasoner')?.reasons, true);
      assert.strictEqual(options.get('gpt-demo-codex')?.reasons, true);
      assert.strictEqual(options.get('claude-demo-sonnet')?.reasons, undefined);
      assert.strictEqual(options.get('deepseek-demo-reasoner')?.window, 128_000);
    } finally {
      await emu.close();
    }
  });
});
