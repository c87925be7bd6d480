// Usage of all zeros on a message with content (some routers report nothing) is "not reported by the
// gateway" in the chat, never "0 tokens"; a message without content and real counts stay as they are.
import { strict as assert } from 'node:assert';
import { toChatUsage } from '../../../src/chat/streamAnswer';
import { usageUnreported } from '../../../src/gateway/usageReport';
import { webviewStrings } from '../../../src/shared/webviewStrings';

describe('chat: usage the gateway did not report', () => {
  const content = [{ type: 'text', text: 'hello' }];
  it('zeros on a message with content are "not reported"', () => {
    assert.deepEqual(toChatUsage({ input_tokens: 0, output_tokens: 0 }, content), {
      inputTokens: 0,
      outputTokens: 0,
      notReported: true,
    });
    assert.equal(usageUnreported({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 }, content), true);
  });
  it('real counts and empty messages keep their numbers', () => {
    assert.deepEqual(toChatUsage({ input_tokens: 12, output_tokens: 0 }, content), {
      inputTokens: 12,
      outputTokens: 0,
    });
    assert.deepEqual(toChatUsage({ input_tokens: 0, output_tokens: 0 }, []), { inputTokens: 0, outputTokens: 0 });
    assert.equal(usageUnreported({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 50 }, content), false);
  });
  it('has its words', () => {
    const en = webviewStrings();
    assert.equal(en['chat.usageNotReported'], 'tokens not reported by the gateway');
  });
});
