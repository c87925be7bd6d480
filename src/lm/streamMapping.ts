// Pure: Messages stream events → response parts for VS Code (text deltas, complete tool calls).
// No `vscode` import (unit-tested in plain node); the provider wraps the parts in VS Code's classes.
import { readToolInputJson } from '../gateway/stream/assemble';
import { unusableToolInputError } from '../gateway/errors/errors';
import type { StreamEvent, ToolInputProblem } from '../gateway/types';

export type OutputPart =
  { kind: 'text'; text: string } | { kind: 'toolCall'; callId: string; name: string; input: object };

interface PendingToolCall {
  id: string;
  name: string;
  json: string;
  startInput: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Feed it every event of one stream, in order. Text is passed on as it arrives; tool calls are held until
 * message_stop, because their input arrives as JSON fragments (input_json_delta) by block index, and real
 * routers send fragments of a block after its content_block_stop (interleaving two calls). A tool input
 * that is not a JSON object then is a typed GatewayError (raw text kept), never a string passed along.
 * Unknown events and block types (thinking, server tools, ...) are ignored.
 */
export class StreamPartMapper {
  private readonly toolCalls = new Map<number, PendingToolCall>();
  private stop: string | undefined;

  /** The stop_reason of message_delta, once seen. */
  get stopReason(): string | undefined {
    return this.stop;
  }

  push(event: StreamEvent): OutputPart[] {
    switch (event.type) {
      case 'content_block_start':
        return this.blockStart(event);
      case 'content_block_delta':
        return this.blockDelta(event);
      case 'message_delta': {
        const delta = isRecord(event.delta) ? event.delta : {};
        if (typeof delta.stop_reason === 'string') this.stop = delta.stop_reason;
        return [];
      }
      case 'message_stop':
        return this.toolCallParts();
      default:
        return [];
    }
  }

  private blockStart(event: StreamEvent): OutputPart[] {
    const block = isRecord(event.content_block) ? event.content_block : {};
    const index = typeof event.index === 'number' ? event.index : -1;
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      this.toolCalls.set(index, { id: block.id, name: block.name, json: '', startInput: block.input });
      return [];
    }
    if (block.type === 'text' && typeof block.text === 'string' && block.text.length > 0)
      return [{ kind: 'text', text: block.text }];
    return [];
  }

  private blockDelta(event: StreamEvent): OutputPart[] {
    const delta = isRecord(event.delta) ? event.delta : {};
    if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text.length > 0) {
      return [{ kind: 'text', text: delta.text }];
    }
    if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      const pending = this.toolCalls.get(typeof event.index === 'number' ? event.index : -1);
      if (pending) pending.json += delta.partial_json;
    }
    return [];
  }

  /** Every held tool call in block order, or a GatewayError naming each unusable input. */
  private toolCallParts(): OutputPart[] {
    const parts: OutputPart[] = [];
    const problems: ToolInputProblem[] = [];
    for (const [index, pending] of [...this.toolCalls].sort((a, b) => a[0] - b[0])) {
      const read = readToolInputJson(pending.json, pending.startInput);
      if (read.ok) parts.push({ kind: 'toolCall', callId: pending.id, name: pending.name, input: read.value });
      else problems.push({ index, id: pending.id, name: pending.name, raw: pending.json, reason: read.reason });
    }
    this.toolCalls.clear();
    if (problems.length) throw unusableToolInputError(problems);
    return parts;
  }
}
