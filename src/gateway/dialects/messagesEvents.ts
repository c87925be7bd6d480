// Reads a Messages stream's events (docs/gateway-protocol.md#messages-stream): they already are the events the
// assembler applies, so this reader only finds each event's type — from its JSON `type`, else its `event:` line
// (some gateways omit one or the other) — and offers the compact text-delta fast path (fastDelta.ts). Pure.
import type { ChunkReader } from './chatChunks';
import { capturedStringBytes, JSON_TEXT, readTextDelta } from '../stream/fastDelta';
import type { StreamEvent } from '../types';

/** A whole compact text delta event, as readTextDelta reads one but narrower (eventFeed.ts). */
const RUN = new RegExp(
  String.raw`(?:event: ?content_block_delta\n)?data: ?\{"type":"content_block_delta","index":(0|[1-9]\d{0,5}),"delta":\{"type":"text_delta","text":"${JSON_TEXT}"\}\}\n\n`,
  'y',
);

export class MessagesEventReader implements ChunkReader {
  /** A Messages stream is whole at message_stop, which the assembler sees. */
  readonly finished = false;
  readonly doneEnds = false;
  readonly cutWhy = 'the stream ended before message_stop (the answer is cut off)';

  fastBlock = 0;

  fastText(data: string): string | undefined {
    return readTextDelta(data, this);
  }

  readonly run = RUN;

  runText(match: RegExpExecArray): string | undefined {
    const bytes = capturedStringBytes(match[2]);
    if (bytes !== undefined) this.fastBlock = +match[1];
    return bytes;
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
