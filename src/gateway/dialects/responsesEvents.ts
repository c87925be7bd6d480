// Reads a Responses stream (`event: response.output_text.delta` / `data: {"type":"response.output_text.delta",…}`
// … `response.completed`) as the Messages events the rest of the client assembles (docs/gateway-protocol.md#responses),
// as chatChunks.ts does for chat-completions. Pure.
//
// Blocks follow first appearance: each output item (by output_index) is one block — reasoning → thinking (its
// summary text as thinking deltas, its encrypted_content as the signature when the item is done), function_call →
// tool_use (call_id as the id; argument deltas as input_json_delta), and each content part of a message → text.
import { isObj, type Json } from '../json';
import { parseJsonBytes } from '../stream/byteText';
import { capturedStringBytes, closingQuote, jsonStringBytes, JSON_TEXT } from '../stream/fastDelta';
import { blocksOfItem, responsesStopReason } from './responsesMapping';
import { usageOf } from './openAiFamily';
import type { ChunkReader } from './chatChunks';
import type { StreamEvent } from '../types';

interface Open {
  block: number;
  kind: 'thinking' | 'tool_use' | 'text';
  /** Deltas arrived for it (the `done` events then repeat them and are not read again). */
  streamed: boolean;
  summaryIndex?: number;
}

const TEXT_DELTA = '{"type":"response.output_text.delta",';
const DELTA_MARK = '"delta":"';
const TEXT_DONE = '{"type":"response.output_text.done"';
const PART_DONE = '{"type":"response.content_part.done"';
const LOGPROBS = ',"logprobs":[]';
const OBFUSCATION = ',"obfuscation":"';

/**
 * A whole plain text delta event in OpenAI's field order, as fastText reads one but narrower (eventFeed.ts): output
 * and content index (at most 6 digits, as numberAfter reads them), the text, then empty logprobs and the obfuscation.
 */
const RUN = new RegExp(
  String.raw`(?:event: ?response\.output_text\.delta\n)?data: ?\{"type":"response\.output_text\.delta",(?:"(?:sequence_number|item_id)":(?:\d+|"[^"\\\n]*"),)*"output_index":(0|[1-9]\d{0,5}),"content_index":(0|[1-9]\d{0,5}),"delta":"${JSON_TEXT}"(?:,"logprobs":\[\])?(?:,"obfuscation":"[\w+/=-]*")?\}\n\n`,
  'y',
);

/**
 * True when what follows a text delta's closing quote (at `from`) is what a plain one carries, in OpenAI's order:
 * empty logprobs, then the obfuscation padding (letters, digits, base64 signs), then the end of the object.
 */
function plainTail(data: string, from: number): boolean {
  let t = from;
  if (data.startsWith(LOGPROBS, t)) t += LOGPROBS.length;
  if (data.startsWith(OBFUSCATION, t)) {
    t += OBFUSCATION.length;
    for (let c = data.charCodeAt(t); c !== 0x22; c = data.charCodeAt(++t))
      if (!(
        (c >= 48 && c <= 57) ||
        (c >= 65 && c <= 90) ||
        (c >= 97 && c <= 122) ||
        c === 43 ||
        c === 47 ||
        c === 61 ||
        c === 95 ||
        c === 45
      ))
        return false;
    t++;
  }
  if (data.charCodeAt(t) !== 0x7d) return false;
  for (let k = t + 1; k < data.length; k++) {
    const c = data.charCodeAt(k);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

/** The small non-negative integer after `name` (before `end`), or -1. */
function numberAfter(data: string, name: string, end: number): number {
  const at = data.indexOf(name, TEXT_DELTA.length);
  if (at === -1 || at > end) return -1;
  let i = at + name.length;
  let n = 0;
  const from = i;
  for (let c = data.charCodeAt(i); c >= 48 && c <= 57 && i - from < 6; c = data.charCodeAt(++i)) n = n * 10 + (c - 48);
  const next = data.charCodeAt(i);
  return i > from && (next === 0x2c || next === 0x7d) ? n : -1;
}

export class ResponsesEventReader implements ChunkReader {
  private started = false;
  private next = 0;
  /** `${output_index}` (items) or `${output_index}:${content_index}` (message parts) → the open block. */
  private readonly open = new Map<string, Open>();
  private calledTools = false;
  finished = false;
  readonly doneEnds = false;
  readonly cutWhy = 'the stream ended before response.completed (the answer is cut off)';
  fastBlock = -1;
  private lastPart: Open | undefined;
  private lastOi = -1;
  private lastCi = -1;
  /** Responses text deltas name their block themselves: no single open text block. */
  readonly textBlock = -1;

  /** Fast path: a plain text delta to a text part already open; its block goes to fastBlock. */
  fastText(data: string): string | undefined {
    if (data.slice(0, TEXT_DELTA.length) !== TEXT_DELTA) return undefined;
    const mark = data.indexOf(DELTA_MARK, TEXT_DELTA.length);
    if (mark < 0) return undefined;
    // The fields before the text are scalars (numbers and ids): nothing nested, nothing escaped.
    for (let k = TEXT_DELTA.length; k < mark; k++) {
      const c = data.charCodeAt(k);
      if (c === 0x7b || c === 0x5b || c === 0x5c) return undefined;
    }
    const oi = numberAfter(data, '"output_index":', mark);
    const ci = numberAfter(data, '"content_index":', mark);
    if (oi < 0 || ci < 0) return undefined;
    const part = this.textPart(oi, ci);
    if (!part) return undefined;
    const start = mark + DELTA_MARK.length;
    const stop = closingQuote(data, start, '"');
    if (stop === -1 || !plainTail(data, stop + 1)) return undefined;
    const bytes = jsonStringBytes(data, start, stop);
    if (bytes === undefined) return undefined;
    part.streamed = true;
    this.fastBlock = part.block;
    return bytes;
  }

  readonly run = RUN;

  runText(match: RegExpExecArray): string | undefined {
    const part = this.textPart(+match[1], +match[2]);
    const bytes = part && capturedStringBytes(match[3]);
    if (!part || bytes === undefined) return undefined;
    part.streamed = true;
    this.fastBlock = part.block;
    return bytes;
  }

  /** The open text part at output `oi`, content `ci`, if any. */
  private textPart(oi: number, ci: number): Open | undefined {
    // Consecutive deltas go to the same part: remember it instead of building its key again.
    if (this.lastPart && oi === this.lastOi && ci === this.lastCi) return this.lastPart;
    const part = this.open.get(`${oi}:${ci}`);
    if (!part || part.kind !== 'text') return undefined;
    this.lastPart = part;
    this.lastOi = oi;
    this.lastCi = ci;
    return part;
  }

  /**
   * The `.done` events of a text part repeat the whole text the deltas carried (and output_item.done repeats it once
   * more, for a part that never streamed): not worth parsing.
   */
  ignores(data: string): boolean {
    return data.startsWith(TEXT_DONE) || data.startsWith(PART_DONE);
  }

  /**
   * A large event without the repeats of texts that streamed, never decoded: a message item's done event repeats each
   * part's text, and response.completed / incomplete repeat every item (its output is read only when nothing streamed).
   */
  parseLarge(data: string): unknown {
    return parseJsonBytes(data, (value) => {
      if (!isObj(value)) return;
      if (value.type === 'response.output_item.done' && isObj(value.item) && value.item.type === 'message') {
        const oi = typeof value.output_index === 'number' ? value.output_index : -1;
        const content = value.item.content;
        // itemDone reads no part whose text streamed.
        if (Array.isArray(content))
          content.forEach((_, ci) => {
            if (this.open.get(`${oi}:${ci}`)?.streamed) content[ci] = null;
          });
      } else if (
        (value.type === 'response.completed' || value.type === 'response.incomplete') &&
        this.next > 0 &&
        isObj(value.response)
      )
        value.response.output = [];
    });
  }

  /** The events of one parsed event's data (`type` from the data, else from the `event:` line). */
  read(data: unknown, eventName?: string): StreamEvent[] {
    if (!isObj(data)) return [];
    const type = typeof data.type === 'string' ? data.type : eventName;
    const events: StreamEvent[] = [];
    if (type === 'error' || (type === undefined && data.error !== undefined)) {
      const e = isObj(data.error) ? data.error : data;
      events.push({ type: 'error', error: errorOf(e) });
      return events;
    }
    const response = isObj(data.response) ? data.response : undefined;
    if (!this.started) {
      this.started = true;
      events.push({
        type: 'message_start',
        message: {
          id: String(response?.id ?? ''),
          model: String(response?.model ?? ''),
          content: [],
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      });
    }
    const oi = typeof data.output_index === 'number' ? data.output_index : -1;
    switch (type) {
      case 'response.output_item.added':
        this.itemAdded(oi, data.item, events);
        break;
      case 'response.content_part.added':
        // A message's text or refusal part; a reasoning item's reasoning_text parts go to its thinking block.
        if (isObj(data.part) && (data.part.type === 'output_text' || data.part.type === 'refusal'))
          this.part(oi, data.content_index, events);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (typeof data.delta === 'string' && data.delta !== '') {
          this.emit(this.part(oi, data.content_index, events), { type: 'text_delta', text: data.delta }, events);
        }
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.reasoning(oi, data, events);
        break;
      case 'response.function_call_arguments.delta':
        if (typeof data.delta === 'string' && data.delta !== '') {
          const item = this.item(String(oi), 'tool_use', events);
          this.emit(item, { type: 'input_json_delta', partial_json: data.delta }, events);
        }
        break;
      case 'response.function_call_arguments.done':
        this.argumentsDone(oi, data.arguments, events);
        break;
      case 'response.output_item.done':
        this.itemDone(oi, data.item, events);
        break;
      case 'response.completed':
      case 'response.incomplete':
        this.end(response ?? {}, events);
        break;
      case 'response.failed': {
        const e = isObj(response?.error) ? response.error : { message: 'the response failed' };
        events.push({ type: 'error', error: errorOf(e) });
        break;
      }
      default:
        break;
    }
    return events;
  }

  private item(key: string, kind: Open['kind'], events: StreamEvent[], head?: Json): Open {
    let o = this.open.get(key);
    if (!o) {
      o = { block: this.next++, kind, streamed: false };
      this.open.set(key, o);
      const content_block =
        kind === 'thinking'
          ? { type: 'thinking', thinking: '' }
          : kind === 'tool_use'
            ? {
                type: 'tool_use',
                id: String(head?.call_id ?? head?.id ?? ''),
                name: String(head?.name ?? ''),
                input: {},
              }
            : { type: 'text', text: '' };
      if (kind === 'tool_use') this.calledTools = true;
      events.push({ type: 'content_block_start', index: o.block, content_block });
    }
    return o;
  }

  private itemAdded(oi: number, item: unknown, events: StreamEvent[]): void {
    if (!isObj(item)) return;
    if (item.type === 'reasoning') this.item(String(oi), 'thinking', events);
    else if (item.type === 'function_call') this.item(String(oi), 'tool_use', events, item);
    // A message opens its blocks per content part.
  }

  private part(oi: number, contentIndex: unknown, events: StreamEvent[]): Open {
    const ci = typeof contentIndex === 'number' ? contentIndex : 0;
    return this.item(`${oi}:${ci}`, 'text', events);
  }

  private reasoning(oi: number, data: Json, events: StreamEvent[]): void {
    if (typeof data.delta !== 'string' || data.delta === '') return;
    const item = this.item(String(oi), 'thinking', events);
    const si = typeof data.summary_index === 'number' ? data.summary_index : 0;
    // Summary parts are paragraphs of their own.
    const sep = item.summaryIndex !== undefined && item.summaryIndex !== si ? '\n\n' : '';
    item.summaryIndex = si;
    this.emit(item, { type: 'thinking_delta', thinking: sep + data.delta }, events);
  }

  /** A call's whole arguments (function_call_arguments.done, output_item.done): sent unless its deltas carried them. */
  private argumentsDone(oi: number, args: unknown, events: StreamEvent[]): void {
    const item = this.item(String(oi), 'tool_use', events);
    if (item.streamed || typeof args !== 'string' || args === '') return;
    this.emit(item, { type: 'input_json_delta', partial_json: args }, events);
  }

  /** A delta of the open block `o`, which is then streamed (its done event does not send the text again). */
  private emit(o: Open, delta: Json, events: StreamEvent[]): void {
    o.streamed = true;
    events.push({ type: 'content_block_delta', index: o.block, delta });
  }

  /** A finished item: what its deltas did not carry (the encrypted reasoning, a whole call or text sent only here). */
  private itemDone(oi: number, item: unknown, events: StreamEvent[]): void {
    if (!isObj(item)) return;
    if (item.type === 'message') {
      const content = Array.isArray(item.content) ? item.content : [];
      content.forEach((p, ci) => {
        const open = this.open.get(`${oi}:${ci}`);
        if (open?.streamed) return;
        const [block] = blocksOfItem({ type: 'message', content: [p] });
        if (!block || block.type !== 'text') return;
        this.emit(this.part(oi, ci, events), { type: 'text_delta', text: block.text }, events);
      });
      return;
    }
    if (item.type !== 'reasoning' && item.type !== 'function_call') return;
    const kind = item.type === 'reasoning' ? 'thinking' : 'tool_use';
    const o = this.item(String(oi), kind, events, item);
    if (kind === 'tool_use') {
      events.push({
        type: 'content_block_head',
        index: o.block,
        id: String(item.call_id ?? ''),
        name: String(item.name ?? ''),
      });
      this.argumentsDone(oi, item.arguments, events);
      return;
    }
    const [block] = blocksOfItem(item);
    if (block?.type !== 'thinking') return;
    if (!o.streamed && block.thinking !== '')
      this.emit(o, { type: 'thinking_delta', thinking: block.thinking }, events);
    o.streamed = true;
    if (block.signature) this.emit(o, { type: 'signature_delta', signature: block.signature }, events);
  }

  /** response.completed / response.incomplete: items never streamed, the usage, the stop reason, the end. */
  private end(response: Json, events: StreamEvent[]): void {
    // A gateway that sends only the final response: its output becomes the blocks.
    if (this.next === 0 && Array.isArray(response.output))
      response.output.forEach((item, oi) => {
        for (const ev of this.itemBlocks(oi, item)) events.push(ev);
      });
    this.finished = true;
    const usage = usageOf(response.usage);
    events.push({
      type: 'message_delta',
      delta: { stop_reason: responsesStopReason(response, this.calledTools), stop_sequence: null },
      ...(usage ? { usage } : {}),
    });
    events.push({ type: 'message_stop' });
  }

  private itemBlocks(oi: number, item: unknown): StreamEvent[] {
    const events: StreamEvent[] = [];
    this.itemDone(oi, item, events);
    return events;
  }
}

function errorOf(e: Json): { type?: string; message?: string } {
  const code = typeof e.code === 'string' && e.code ? e.code : typeof e.type === 'string' ? e.type : undefined;
  return { type: code, message: typeof e.message === 'string' ? e.message : undefined };
}
