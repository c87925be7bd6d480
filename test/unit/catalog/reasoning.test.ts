import * as assert from 'assert';
import { guessReasoning, listedReasoning, modelReasons } from '../../../src/catalog/reasoning';

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
