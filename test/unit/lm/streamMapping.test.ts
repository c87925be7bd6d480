import * as assert from 'node:assert/strict';
import { StreamPartMapper, type OutputPart } from '../../../src/lm/streamMapping';
import type { StreamEvent } from '../../../src/gateway/types';
import { isGatewayError } from '../../../src/gateway/errors/errors';

function run(events: StreamEvent[]): { parts: OutputPart[]; mapper: StreamPartMapper } {
  const mapper = new StreamPartMapper();
  const parts = events.flatMap((e) => mapper.push(e));
  return { parts, mapper };
}

describe('lm/streamMapping', () => {
  it('passes text deltas on as they arrive and ignores thinking, pings and unknown events', () => {
    const { parts, mapper } = run([
      { type: 'message_start', message: { id: 'm', content: [] } },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hel' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'lo ✓' } },
      { type: 'something_new', index: 1 },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
      { type: 'message_stop' },
    ]);
    assert.deepEqual(parts, [
      { kind: 'text', text: 'Hel' },
      { kind: 'text', text: 'lo ✓' },
    ]);
    assert.equal(mapper.stopReason, 'end_turn');
  });

  it('emits a tool call at message_stop, once its input JSON is complete', () => {
    const mapper = new StreamPartMapper();
    assert.deepEqual(
      mapper.push({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_9', name: 'weather', input: {} },
      }),
      [],
    );
    assert.deepEqual(
      mapper.push({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"city": "Os' },
      }),
      [],
    );
    assert.deepEqual(
      mapper.push({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: 'lo", "days": 2}' },
      }),
      [],
    );
    assert.deepEqual(mapper.push({ type: 'content_block_stop', index: 0 }), []);
    assert.deepEqual(mapper.push({ type: 'message_stop' }), [
      { kind: 'toolCall', callId: 'toolu_9', name: 'weather', input: { city: 'Oslo', days: 2 } },
    ]);
  });

  it('keeps input fragments that arrive after their block stopped (a router interleaving two calls)', () => {
    const { parts } = run([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'a', name: 'weather', input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'b', name: 'time', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"tz":"CET"' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    ]);
    assert.deepEqual(parts, [
      { kind: 'toolCall', callId: 'a', name: 'weather', input: { city: 'Paris' } },
      { kind: 'toolCall', callId: 'b', name: 'time', input: { tz: 'CET' } },
    ]);
  });

  it('keeps interleaved blocks apart by index and uses the start input when no JSON delta came', () => {
    const { parts } = run([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'a', name: 'one', input: { fixed: true } },
      },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'b', name: 'two', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"x":1}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_stop' },
    ]);
    assert.deepEqual(parts, [
      { kind: 'toolCall', callId: 'a', name: 'one', input: { fixed: true } },
      { kind: 'toolCall', callId: 'b', name: 'two', input: { x: 1 } },
    ]);
  });

  it('does not surface server tool use blocks as client tool calls', () => {
    const { parts } = run([
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', id: 's', name: 'web_search', input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"q":"x"}' } },
      { type: 'content_block_stop', index: 0 },
    ]);
    assert.deepEqual(parts, []);
  });

  it('fails with a typed error on a truncated or non-object tool input, raw text kept', () => {
    for (const raw of ['{"x":', '"just a string"', '[1,2]']) {
      const mapper = new StreamPartMapper();
      mapper.push({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'a', name: 'broken', input: {} },
      });
      mapper.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: raw } });
      assert.deepEqual(mapper.push({ type: 'content_block_stop', index: 0 }), []);
      assert.throws(
        () => mapper.push({ type: 'message_stop' }),
        (e: unknown) => {
          assert.ok(isGatewayError(e));
          assert.equal(e.kind, 'protocol');
          assert.deepEqual(
            e.toolInputProblems?.map((p) => [p.name, p.raw]),
            [['broken', raw]],
          );
          assert.match(e.message, /broken/);
          return true;
        },
      );
    }
  });

  it('emits text that arrives in content_block_start', () => {
    const { parts } = run([{ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'pre' } }]);
    assert.deepEqual(parts, [{ kind: 'text', text: 'pre' }]);
  });
});
