import * as assert from 'node:assert/strict';
import { estimateMessageTokens, MESSAGE_OVERHEAD_TOKENS, ModelCalibrations } from '../../../src/lm/tokens';

const calibrations = new ModelCalibrations();
const countTokensFor = (id: string, item: Parameters<ModelCalibrations['countTokens']>[1]) =>
  calibrations.countTokens(id, item);
const calibrateModel = (id: string, reported: number | undefined, estimate: number) =>
  calibrations.calibrate(id, reported, estimate);
import { textTokens } from '../../../src/shared/tokenEstimate';

describe('lm/tokens', () => {
  it('counts text with the one estimate (3 ASCII characters a token, one token per other character)', () => {
    assert.equal(countTokensFor('lm-test-plain', ''), 0);
    assert.equal(countTokensFor('lm-test-plain', 'abc'), 1);
    assert.equal(countTokensFor('lm-test-plain', 'abcd'), 2);
    assert.equal(countTokensFor('lm-test-plain', 'x'.repeat(300)), 100);
    assert.equal(countTokensFor('lm-test-plain', '日本語'), 3);
    assert.equal(countTokensFor('lm-test-plain', '🙂'), 2);
    assert.equal(countTokensFor('lm-test-plain', 'abc日本'), 3);
  });

  it('adds a per-message overhead and counts tool calls and results', () => {
    const tokens = estimateMessageTokens({
      role: 'assistant',
      parts: [
        { kind: 'text', text: 'abcd' },
        { kind: 'toolCall', callId: 'c', name: 'ab', input: { a: 1 } },
        { kind: 'toolResult', callId: 'c', content: 'abcdabcd' },
      ],
    });
    // 'abcd' → 2; 'ab' + '{"a":1}' (9 chars) → 3; 'abcdabcd' → 3
    assert.equal(tokens, MESSAGE_OVERHEAD_TOKENS + 2 + 3 + 3);
  });

  it("a model's counts follow the input tokens its last response reported, per model and clamped", () => {
    const text = 'const answer = compute(42);\n'.repeat(50);
    const plain = textTokens(text);
    assert.equal(countTokensFor('lm-test-a', text), plain);
    calibrateModel('lm-test-a', 800, 1000);
    assert.equal(countTokensFor('lm-test-a', text), Math.ceil(plain * 0.8));
    assert.equal(countTokensFor('lm-test-b', text), plain, 'another model keeps the heuristic');
    calibrateModel('lm-test-a', 100_000, 1000);
    assert.equal(countTokensFor('lm-test-a', text), Math.ceil(plain * 2), 'at most twice the heuristic');
    calibrateModel('lm-test-a', undefined, 1000);
    calibrateModel('lm-test-a', 0, 1000);
    assert.equal(countTokensFor('lm-test-a', text), Math.ceil(plain * 2), 'no report keeps the last calibration');
    const message = { role: 'user' as const, parts: [{ kind: 'text' as const, text }] };
    assert.equal(countTokensFor('lm-test-a', message), Math.ceil(estimateMessageTokens(message) * 2));
  });
});
