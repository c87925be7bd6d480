import * as assert from 'node:assert/strict';
import { estimateMessageTokens, estimateTextTokens, MESSAGE_OVERHEAD_TOKENS } from '../../../src/lm/tokens';

describe('lm/tokens', () => {
  it('estimates about four ASCII characters per token, rounding up', () => {
    assert.equal(estimateTextTokens(''), 0);
    assert.equal(estimateTextTokens('abcd'), 1);
    assert.equal(estimateTextTokens('abcde'), 2);
    assert.equal(estimateTextTokens('x'.repeat(400)), 100);
  });

  it('counts each non-ASCII character as a token (safe side for CJK and emoji)', () => {
    assert.equal(estimateTextTokens('日本語'), 3);
    assert.equal(estimateTextTokens('🙂'), 1);
    assert.equal(estimateTextTokens('abcd日本'), 3);
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
    // 'abcd' → 1; 'ab' + '{"a":1}' (9 chars) → 3; 'abcdabcd' → 2
    assert.equal(tokens, MESSAGE_OVERHEAD_TOKENS + 1 + 3 + 2);
  });
});
