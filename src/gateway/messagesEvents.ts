// Reads a Messages stream's events (docs/gateway-protocol.md#messages-stream): they already are the events the
// assembler applies, so this reader only finds each event's type — from its JSON `type`, else its `event:` line
// (some gateways omit one or the other) — and offers the compact text-delta fast path (fastDelta.ts). Pure.
import type { ChunkReader } from './chatChunks';
import { lastDelta, readTextDelta } from './fastDelta';
import type { StreamEvent } from './types';

// Read once: a live-binding import is a property getter on every access in CommonJS output.
const LAST_DELTA = lastDelta;

export class MessagesEventReader implements ChunkReader {
  /** A Messages stream is whole at message_stop, which the assembler sees. */
  readonly finished = false;
  readonly doneEnds = false;
  readonly cutWhy = 'the stream ended before message_stop (the answer is cut off)';

  get fastBlock(): number {
    return LAST_DELTA.index;
  }

  fastText(data: string): string | undefined {
    return readTextDelta(data);
  }

  read(chunk: unknown, eventName?: string): StreamEvent[] {
    if (typeof chunk !== 'object' || chunk === null) return [];
    const ev = chunk as StreamEvent;
    if (typeof ev.type !== 'string') {
      // LiteLLM writes an error after the stream started as a bare `data: {"error": {...}}` line: no
      // event line and no type. An `error` member is what makes it an error.
      if (eventName === undefined && !Array.isArray(ev) && ev.error !== undefined && ev.error !== null)
        ev.type = 'error';
      else if (eventName === undefined || Array.isArray(ev)) return [];
      else ev.type = eventName;
    }
    return [ev];
  }
}
