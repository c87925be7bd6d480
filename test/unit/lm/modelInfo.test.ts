import * as assert from 'node:assert/strict';
import { DEFAULT_MAX_INPUT_TOKENS, familyOf, toChatInformation, versionOf } from '../../../src/lm/modelInfo';

describe('lm/modelInfo', () => {
  it('derives family and version from dated ids', () => {
    assert.equal(familyOf('claude-sonnet-4-20250514'), 'claude-sonnet-4');
    assert.equal(versionOf('claude-sonnet-4-20250514'), '20250514');
    assert.equal(familyOf('claude-3-5-haiku-latest'), 'claude-3-5-haiku');
    assert.equal(versionOf('claude-demo-haiku'), 'latest');
    assert.equal(familyOf('gpt-4o-2024-08-06'), 'gpt-4o');
  });

  it('uses only the id when the list gives nothing else, with defaults and capabilities', () => {
    const info = toChatInformation(
      { id: 'claude-demo-sonnet', raw: { id: 'claude-demo-sonnet', object: 'model' } },
      { maxOutputTokens: 4096, keyName: 'demo' },
    );
    assert.deepEqual(info, {
      id: 'claude-demo-sonnet',
      name: 'claude-demo-sonnet',
      family: 'claude-demo-sonnet',
      version: 'latest',
      maxInputTokens: DEFAULT_MAX_INPUT_TOKENS,
      maxOutputTokens: 4096,
      detail: 'Model Gateway',
      tooltip: 'claude-demo-sonnet through Model Gateway with the key "demo"',
      // A claude id is guessed to read images (src/catalog/vision.ts) when the list does not say.
      capabilities: { toolCalling: true, imageInput: true },
    });
  });

  it('reads display_name and context limits when present and well-typed', () => {
    const info = toChatInformation(
      { id: 'm', raw: { id: 'm', display_name: 'Model M', context_window: 200000, max_output_tokens: 8000 } },
      { maxOutputTokens: 4096 },
    );
    assert.equal(info.name, 'Model M');
    assert.equal(info.maxOutputTokens, 8000);
    assert.equal(info.maxInputTokens, 192000);
    const odd = toChatInformation(
      { id: 'm', raw: { id: 'm', display_name: 42, context_window: 'big' } },
      { maxOutputTokens: 100 },
    );
    assert.equal(odd.name, 'm');
    assert.equal(odd.maxInputTokens, DEFAULT_MAX_INPUT_TOKENS);
  });
});
