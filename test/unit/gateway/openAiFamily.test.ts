// The OpenAI-family helpers (src/gateway/dialects/openAiFamily.ts) as both mappings use them: one request's tools, tool choice,
// tool results and images come out alike in chat-completions and Responses, and both usage shapes read the same.
import * as assert from 'node:assert/strict';
import { toChatRequest } from '../../../src/gateway/dialects/chatMapping';
import { toResponsesRequest } from '../../../src/gateway/dialects/responsesMapping';
import { usageOf } from '../../../src/gateway/dialects/openAiFamily';
import type { MessagesRequest } from '../../../src/gateway/types';

const image = {
  type: 'image' as const,
  source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' },
};
const request: MessagesRequest = {
  model: 'm',
  max_tokens: 10,
  tools: [{ name: 'read', description: 'reads', input_schema: { type: 'object' } }],
  tool_choice: { type: 'tool', name: 'read' },
  messages: [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', is_error: true, content: [{ type: 'text', text: 'no' }, image] },
      ],
    },
  ],
};

describe('OpenAI-family helpers', () => {
  it('map tools, the named tool choice, a failed tool result and its image alike in both dialects', () => {
    const chat = toChatRequest(request, false) as { tools: unknown; tool_choice: unknown; messages: unknown[] };
    const resp = toResponsesRequest(request, false) as { tools: unknown; tool_choice: unknown; input: unknown[] };
    assert.deepEqual(chat.tools, [
      { type: 'function', function: { name: 'read', description: 'reads', parameters: { type: 'object' } } },
    ]);
    assert.deepEqual(resp.tools, [
      { type: 'function', name: 'read', description: 'reads', parameters: { type: 'object' }, strict: false },
    ]);
    assert.deepEqual(chat.tool_choice, { type: 'function', function: { name: 'read' } });
    assert.deepEqual(resp.tool_choice, { type: 'function', name: 'read' });
    assert.deepEqual(chat.messages.slice(-2), [
      { role: 'tool', tool_call_id: 't1', content: 'Error: no' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    ]);
    assert.deepEqual(resp.input.slice(-2), [
      { type: 'function_call_output', call_id: 't1', output: 'Error: no' },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' }],
      },
    ]);
  });

  it('reads chat-completions and Responses usage alike: cached prompt tokens are cache reads', () => {
    const expected = { input_tokens: 70, output_tokens: 5, cache_read_input_tokens: 30, cost: 0.01 };
    assert.deepEqual(
      usageOf({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 30 }, cost: 0.01 }),
      expected,
    );
    assert.deepEqual(
      usageOf({ input_tokens: 100, output_tokens: 5, input_tokens_details: { cached_tokens: 30 }, cost: 0.01 }),
      expected,
    );
    assert.equal(usageOf(null), undefined);
  });
});
