import * as assert from 'node:assert/strict';
import {
  buildMessagesRequest,
  mapConversation,
  messageFromVsCode,
  partFromVsCode,
  roleFromVsCode,
  type NeutralMessage,
} from '../../../src/lm/requestMapping';

// Shapes of VS Code's part classes (LanguageModelTextPart, ToolCallPart, ToolResultPart, DataPart) as plain objects.
const text = (value: string) => ({ value });
const toolCall = (callId: string, name: string, input: object) => ({ callId, name, input });
const toolResult = (callId: string, content: unknown[]) => ({ callId, content });

describe('lm/requestMapping', () => {
  it('maps VS Code roles (User 1, Assistant 2, System 3)', () => {
    assert.equal(roleFromVsCode(1), 'user');
    assert.equal(roleFromVsCode(2), 'assistant');
    assert.equal(roleFromVsCode(3), 'system');
  });

  it('recognises text, tool call and tool result parts by shape and drops unknown parts', () => {
    assert.deepEqual(partFromVsCode(text('hi')), { kind: 'text', text: 'hi' });
    assert.deepEqual(partFromVsCode(toolCall('c1', 'search', { q: 'x' })), {
      kind: 'toolCall',
      callId: 'c1',
      name: 'search',
      input: { q: 'x' },
    });
    assert.deepEqual(partFromVsCode(toolResult('c1', [text('found '), text('2')])), {
      kind: 'toolResult',
      callId: 'c1',
      content: 'found 2',
    });
    // An image VS Code attached is read by its bytes: two bytes named image/png are no image, only a sentence says so.
    assert.deepEqual(partFromVsCode({ mimeType: 'image/png', data: new Uint8Array([1, 2]) }), {
      kind: 'text',
      text: '[An attached image was left out: not a PNG, JPEG, WebP or GIF.]',
    });
    assert.equal(partFromVsCode({ mimeType: 'application/x-cache', data: new Uint8Array([1, 2]) }), undefined);
    assert.equal(partFromVsCode(42), undefined);
  });

  it('reads text-like data parts inside tool results and stringifies other values', () => {
    const data = { mimeType: 'application/json', data: new TextEncoder().encode('{"a":1}') };
    const tsx = { value: { node: 'x' } };
    assert.deepEqual(partFromVsCode(toolResult('c', [data, tsx])), {
      kind: 'toolResult',
      callId: 'c',
      content: '{"a":1}{"node":"x"}',
    });
  });

  it('sends plain text turns as strings and system turns as the system field', () => {
    const mapped = mapConversation([
      messageFromVsCode({ role: 3, content: [text('Be brief.')] }),
      messageFromVsCode({ role: 1, content: [text('Hello')] }),
    ]);
    assert.equal(mapped.system, 'Be brief.');
    assert.deepEqual(mapped.messages, [{ role: 'user', content: 'Hello' }]);
  });

  it('merges consecutive turns of the same role and drops empty ones', () => {
    const mapped = mapConversation([
      { role: 'user', parts: [{ kind: 'text', text: 'one' }] },
      { role: 'user', parts: [{ kind: 'text', text: '' }] },
      { role: 'user', parts: [{ kind: 'text', text: 'two' }] },
      { role: 'assistant', parts: [] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'ok' }] },
    ]);
    assert.deepEqual(mapped.messages, [
      { role: 'user', content: 'one\n\ntwo' },
      { role: 'assistant', content: 'ok' },
    ]);
  });

  it('maps a tool round trip to tool_use / tool_result blocks, tool results first in the user turn', () => {
    const conversation: NeutralMessage[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'weather?' }] },
      {
        role: 'assistant',
        parts: [
          { kind: 'text', text: 'Checking.' },
          { kind: 'toolCall', callId: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { kind: 'text', text: 'and be quick' },
          { kind: 'toolResult', callId: 'toolu_1', content: 'rain' },
        ],
      },
    ];
    const { messages } = mapConversation(conversation);
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
      ],
    });
    assert.deepEqual(messages[2], {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'rain' },
        { type: 'text', text: 'and be quick' },
      ],
    });
  });

  it('builds the request with tools, tool choice, options and the system prompt', () => {
    const request = buildMessagesRequest({
      model: 'claude-demo-sonnet',
      messages: [
        { role: 'system', parts: [{ kind: 'text', text: 'From VS Code.' }] },
        { role: 'user', parts: [{ kind: 'text', text: 'Hi' }] },
      ],
      maxTokens: 4096,
      tools: [
        {
          name: 'weather',
          description: 'Weather by city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'noschema', description: '' },
      ],
      toolMode: 2,
      modelOptions: { temperature: 0.2, max_tokens: 100, stop: ['END'], ignored: 'x' },
      systemPrompt: 'Be kind.',
    });
    assert.equal(request.model, 'claude-demo-sonnet');
    assert.equal(request.max_tokens, 100);
    assert.equal(request.system, 'Be kind.\n\nFrom VS Code.');
    assert.equal(request.temperature, 0.2);
    assert.deepEqual(request.stop_sequences, ['END']);
    assert.deepEqual(request.tool_choice, { type: 'any' });
    assert.deepEqual(request.tools?.[1], { name: 'noschema', input_schema: { type: 'object', properties: {} } });
    assert.equal((request as unknown as Record<string, unknown>).ignored, undefined);
  });

  it('uses auto tool choice by default and omits tools when none are given', () => {
    const withTools = buildMessagesRequest({
      model: 'm',
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }],
      maxTokens: 10,
      tools: [{ name: 't' }],
      toolMode: 1,
    });
    assert.deepEqual(withTools.tool_choice, { type: 'auto' });
    const without = buildMessagesRequest({
      model: 'm',
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }],
      maxTokens: 10,
      tools: [],
    });
    assert.equal(without.tools, undefined);
    assert.equal(without.tool_choice, undefined);
    assert.equal(without.max_tokens, 10);
  });

  it('refuses a conversation with nothing to send', () => {
    assert.throws(
      () =>
        buildMessagesRequest({
          model: 'm',
          messages: [{ role: 'system', parts: [{ kind: 'text', text: 's' }] }],
          maxTokens: 10,
        }),
      /no user message/,
    );
  });
});
