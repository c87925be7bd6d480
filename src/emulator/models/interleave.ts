// Interleaved tool-call streaming (the scripted agent's @interleave), as Messages routers send parallel tool
// calls: each tool block is closed as soon as the next one opens, while its input_json_delta fragments keep
// coming, mixed with the next blocks' fragments. So a fragment of block 0 arrives after block 0's
// content_block_stop, and a client that fixes a block's input at its stop event loses part of it.
import type { FinalBlock } from '../reply';

export type StreamEvent = { type: string } & Record<string, unknown>;

/** The events of the tool_use blocks at `start` and after: opens with one fragment each, the rest round-robin. */
export function interleavedToolEvents(blocks: readonly FinalBlock[], start: number): StreamEvent[] {
  const tools = blocks.map((b, index) => ({ b, index })).filter((t) => t.index >= start && t.b.type === 'tool_use');
  const events: StreamEvent[] = [];
  const delta = (index: number, piece: string): StreamEvent => ({
    type: 'content_block_delta',
    index,
    delta: { type: 'input_json_delta', partial_json: piece },
  });
  tools.forEach(({ b, index }, j) => {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
    });
    if (b.pieces.length > 0) events.push(delta(index, b.pieces[0]));
    if (j < tools.length - 1) events.push({ type: 'content_block_stop', index });
  });
  for (let i = 1; tools.some((t) => i < t.b.pieces.length); i++) {
    for (const { b, index } of tools) if (i < b.pieces.length) events.push(delta(index, b.pieces[i]));
  }
  if (tools.length > 0) events.push({ type: 'content_block_stop', index: tools[tools.length - 1].index });
  return events;
}
