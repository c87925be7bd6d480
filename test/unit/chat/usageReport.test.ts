// Usage of all zeros on a message with content (some routers report nothing) is "not reported by the
// gateway" in the chat, never "0 tokens"; a message without content and real counts stay as they are.
import { strict as assert } from 'node:assert';
import { toChatUsage } from '../../../src/chat/ask/streamAnswer';
import { usageUnreported } from '../../../src/gateway/usageReport';
import { webviewStrings } from '../../../src/shared/webviewStrings';

describe('chat: usage the gateway did not report', () => {
  const content = [{ type: 'text', text: 'hello' }];
  it('zeros on a message with content are "not reported"', () => {
    assert.deepEqual(toChatUsage({ input_tokens: 0, output_tokens: 0 }, content), {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      notReported: true,
    });
    assert.equal(usageUnreported({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 }, content), true);
  });
  it('real counts and empty messages keep their numbers', () => {
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    assert.deepEqual(toChatUsage({ input_tokens: 12, output_tokens: 0 }, content), { ...zero, input: 12 });
    assert.deepEqual(toChatUsage({ input_tokens: 0, output_tokens: 0 }, []), zero);
    assert.equal(usageUnreported({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 50 }, content), false);
  });
  it('has its words', () => {
    const en = webviewStrings();
    assert.equal(en['chat.usageNotReported'], 'tokens not reported by the gateway');
  });
});
