// Reads a chat-completions stream (`data: {"object":"chat.completion.chunk",…}` … `data: [DONE]`) as the
// Messages events the rest of the client assembles (docs/gateway-protocol.md#chat-completions): one model
// of a streamed message above this file, whichever dialect carried it. Pure.
//
// Block order follows first appearance: reasoning (`reasoning_content`, or `reasoning` as some gateways name
// it) → a thinking block, `content` → a text block, each `tool_calls[].index` → its own tool_use block whose
// `function.arguments` fragments are input_json_delta pieces, assembled until the message ends (fragments of
// different calls may interleave). Only choice 0 is read (this client never asks for n > 1).
import { stopReasonOf } from './chatMapping';
import { isObj, type Json } from '../json';
import { usageOf } from './openAiFamily';
import { capturedStringBytes, JSON_TEXT, readChatContent } from '../stream/fastDelta';
import type { StreamEvent } from '../types';

/**
 * One dialect's event reader (chat-completions here, Responses in responsesEvents.ts): what each event of the
 * stream means as Messages events, so stream.ts has one reading path whatever the dialect.
 */
export interface ChunkReader {
  /** The answer is whole (what may follow is usage and an end marker). */
  readonly finished: boolean;
  /** `data: [DONE]` ends the stream (chat-completions). */
  readonly doneEnds: boolean;
  /** Why a stream that ended before the answer was whole is cut, in words. */
  readonly cutWhy: string;
  /** Fast path: the text (as a byte string) of a plain text delta to an open text block, else undefined. */
  fastText(data: string): string | undefined;
  /** The block of the text fastText just returned. */
  readonly fastBlock: number;
  /**
   * Faster path (eventFeed.ts): the sticky pattern of one whole plain text-delta event in the stream's text, from its
   * first line through its blank line; never wider than fastText.
   */
  readonly run?: RegExp;
  /** The text (as a byte string) of a `run` match to an open text block, its block then in fastBlock; else undefined. */
  runText?(match: RegExpExecArray): string | undefined;
  /** The events of one parsed event (`eventName`: its `event:` line, when sent). */
  read(chunk: unknown, eventName?: string): StreamEvent[];
  /**
   * A large event's data (a byte string) parsed as JSON.parse(fromBytes(data)) reads it, less what this reader never
   * reads (Responses' repeats of texts that streamed); undefined to read it the usual way.
   */
  parseLarge?(data: string): unknown;
  /** True for an event this dialect never needs (not parsed at all): Responses' `.done` repeats of whole texts. */
  ignores?(data: string): boolean;
}

/**
 * A whole plain content chunk of choice 0, as readChatContent reads one but narrower: scalar header fields (never an
 * `error`, which makes the chunk a failure), then the content, then what may follow it (fastDelta.ts#CHAT_TAIL).
 */
const CHAT_RUN = new RegExp(
  String.raw`data: ?\{(?:"(?!error")\w+":(?:"[^"\\\n]*"|-?\d+|null),)*"choices":\[\{"index":0,"delta":\{"content":"${JSON_TEXT}"\}(?:,"logprobs":null)?,"finish_reason":null(?:,"logprobs":null)?\}\](?:,"usage":null)?\}\n\n`,
  'y',
);

/** What one chunk means; `events` go to the assembler in order. */
export interface ChunkReading {
  events: StreamEvent[];
  /** A finish_reason arrived in this chunk. */
  finished?: boolean;
}

export class ChatChunkReader implements ChunkReader {
  readonly doneEnds = true;
  readonly cutWhy = 'the stream ended without a finish_reason (the answer is cut off)';
  private started = false;
  private next = 0;
  private textIndex = -1;
  private thinkingIndex = -1;
  /** tool_calls index → block index. */
  private readonly tools = new Map<number, number>();
  private readonly toolIds = new Map<string, number>();
  /** Blocks whose id or name is still unknown (some gateways send them in a later fragment). */
  private readonly toolHeads = new Map<number, { id?: string; name?: string }>();
  /** A finish_reason arrived: the answer is whole; what follows is usage and [DONE]. */
  finished = false;

  /** The events of one parsed chunk. */
  read(chunk: unknown): StreamEvent[] {
    if (!isObj(chunk)) return [];
    const events: StreamEvent[] = [];
    if (chunk.error !== undefined && chunk.error !== null) {
      // `data: {"error":{…}}` mid-stream (new-api, one-api, LiteLLM): the gateway's or upstream's failure.
      const e = isObj(chunk.error) ? chunk.error : { message: String(chunk.error) };
      events.push({
        type: 'error',
        error: {
          type: typeof e.type === 'string' && e.type ? e.type : typeof e.code === 'string' ? e.code : undefined,
          message: typeof e.message === 'string' ? e.message : undefined,
        },
      });
      return events;
    }
    if (!this.started) {
      this.started = true;
      events.push({
        type: 'message_start',
        message: {
          id: String(chunk.id ?? ''),
          model: String(chunk.model ?? ''),
          content: [],
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      });
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const c of choices) {
      if (!isObj(c) || (typeof c.index === 'number' && c.index !== 0)) continue;
      if (isObj(c.delta)) this.readDelta(c.delta, events);
      if (c.finish_reason !== undefined && c.finish_reason !== null && c.finish_reason !== '') {
        this.finished = true;
        events.push({
          type: 'message_delta',
          delta: { stop_reason: stopReasonOf(c.finish_reason), stop_sequence: null },
        });
      }
    }
    const usage = usageOf(chunk.usage);
    if (usage) events.push({ type: 'message_delta', delta: {}, usage });
    return events;
  }

  /** Fast path: a text piece of choice 0 (already read from the raw chunk); the event it means. */
  text(text: string, events: StreamEvent[]): void {
    if (this.textIndex < 0) {
      this.textIndex = this.next++;
      events.push({ type: 'content_block_start', index: this.textIndex, content_block: { type: 'text', text: '' } });
    }
    events.push({ type: 'content_block_delta', index: this.textIndex, delta: { type: 'text_delta', text } });
  }

  /** Index of the text block, or -1 before any text arrived. */
  get textBlock(): number {
    return this.textIndex;
  }

  get fastBlock(): number {
    return this.textIndex;
  }

  /** Hot path: a plain content delta to the text block already open (see fastDelta.ts#readChatContent). */
  fastText(data: string): string | undefined {
    return this.textIndex >= 0 ? readChatContent(data) : undefined;
  }

  readonly run = CHAT_RUN;

  runText(match: RegExpExecArray): string | undefined {
    return this.textIndex >= 0 ? capturedStringBytes(match[1]) : undefined;
  }

  private readDelta(d: Json, events: StreamEvent[]): void {
    const reasoning = typeof d.reasoning_content === 'string' ? d.reasoning_content : d.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') {
      if (this.thinkingIndex < 0) {
        this.thinkingIndex = this.next++;
        events.push({
          type: 'content_block_start',
          index: this.thinkingIndex,
          content_block: { type: 'thinking', thinking: '' },
        });
      }
      events.push({
        type: 'content_block_delta',
        index: this.thinkingIndex,
        delta: { type: 'thinking_delta', thinking: reasoning },
      });
    }
    if (typeof d.content === 'string' && d.content !== '') this.text(d.content, events);
    if (typeof d.refusal === 'string' && d.refusal !== '') this.text(d.refusal, events);
    if (Array.isArray(d.tool_calls)) d.tool_calls.forEach((tc, position) => this.readToolCall(tc, position, events));
  }

  private readToolCall(tc: unknown, position: number, events: StreamEvent[]): void {
    // Only function calls: this client never offers another kind (OpenAI's `custom` tools take free text).
    if (!isObj(tc) || (typeof tc.type === 'string' && tc.type !== 'function') || isObj(tc.custom)) return;
    const fn = isObj(tc.function) ? tc.function : {};
    const id = typeof tc.id === 'string' && tc.id !== '' ? tc.id : undefined;
    const name = typeof fn.name === 'string' && fn.name !== '' ? fn.name : undefined;
    // `index` is the call's identity; gateways that drop it (some Gemini conversions) send one whole call per
    // fragment with its id, so the id (else the position) stands in.
    const key =
      typeof tc.index === 'number'
        ? tc.index
        : id !== undefined
          ? (this.toolIds.get(id) ?? -1 - this.tools.size)
          : position;
    let block = this.tools.get(key);
    if (block === undefined) {
      block = this.next++;
      this.tools.set(key, block);
      if (id !== undefined) this.toolIds.set(id, key);
      events.push({
        type: 'content_block_start',
        index: block,
        content_block: { type: 'tool_use', id: id ?? '', name: name ?? '', input: {} },
      });
      if (id === undefined || name === undefined) this.toolHeads.set(block, { id, name });
    } else {
      const head = this.toolHeads.get(block);
      if (head && ((id !== undefined && head.id === undefined) || (name !== undefined && head.name === undefined))) {
        head.id ??= id;
        head.name ??= name;
        events.push({ type: 'content_block_head', index: block, id: head.id, name: head.name });
        if (head.id !== undefined && head.name !== undefined) this.toolHeads.delete(block);
      }
    }
    const args = fn.arguments;
    if (typeof args === 'string' && args !== '')
      events.push({
        type: 'content_block_delta',
        index: block,
        delta: { type: 'input_json_delta', partial_json: args },
      });
    else if (isObj(args))
      // A few gateways send the arguments as an object instead of a JSON string.
      events.push({
        type: 'content_block_delta',
        index: block,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(args) },
      });
  }
}
