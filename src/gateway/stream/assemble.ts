// Assembles a Message from Messages-stream events (docs/gateway-protocol.md#messages-stream). Text pieces are
// kept in arrays and joined once, so a long answer costs O(n) and not O(n²) copies.
import { fromBytes, toBytes } from './byteText';
import type { ContentBlock, Message, StreamEvent, ToolInputProblem, Usage } from '../types';
import { isObj, type Json } from '../json';

interface BlockState {
  base: Json;
  /** Text pieces as byte strings (UTF-8 bytes, see byteText.ts), decoded once when the block is built. */
  text?: string[];
  /** How many leading entries of `text` are already joined segments (see appendText). */
  joined?: number;
  thinking?: string[];
  signature?: string[];
  /** input_json_delta fragments, by block index until message_stop: real routers interleave blocks
   * and send fragments of a block after its content_block_stop, so a block's input is never fixed early. */
  json?: string[];
  citations?: unknown[];
}

/** An `error` event (or event data of type error) arrived: type and message as sent. */
export interface StreamErrorEvent {
  type?: string;
  message?: string;
}

export class MessageAssembler {
  private message: Omit<Message, 'content'> | undefined;
  private readonly blocks: BlockState[] = [];
  /** True once message_stop arrived. */
  stopped = false;
  /** Set when an `error` event arrived. */
  error: StreamErrorEvent | undefined;
  /** output_tokens of the latest message_delta usage (message_start's count is only a placeholder). */
  reportedOutputTokens: number | undefined;

  /** Applies one event. Returns false for events that are ignored (ping, unknown, after stop). */
  apply(ev: StreamEvent): boolean {
    if (this.stopped) return false;
    switch (ev.type) {
      case 'content_block_delta':
        return this.delta(ev);
      case 'message_start':
        return this.start(ev);
      case 'content_block_start':
        return this.blockStart(ev);
      case 'content_block_stop':
        return this.blockStop(ev);
      case 'message_delta':
        return this.messageDelta(ev);
      case 'message_stop':
        this.stopped = true;
        return true;
      case 'error':
        this.error = readError(ev);
        return true;
      case 'content_block_head':
        return this.blockHead(ev);
      default:
        return false;
    }
  }

  /** Fast path: a text delta (as a byte string) to an existing text block; false when the general path must decide. */
  appendTextBytes(index: number, text: string): boolean {
    const b = this.stopped ? undefined : this.blocks[index];
    if (b === undefined || b.base.type !== 'text') return false;
    if (b.text === undefined) {
      b.text = [text];
      b.joined = 0;
    } else if (b.text.push(text) - (b.joined ?? 0) >= COMPACT_EVERY) {
      // Join the newest pieces into one segment; older segments are never copied again before the end.
      const joined = b.joined ?? 0;
      b.text.push(b.text.splice(joined).join(''));
      b.joined = joined + 1;
    }
    return true;
  }

  private start(ev: StreamEvent): boolean {
    const m = (isObj(ev.message) ? ev.message : {}) as Json;
    const usage = isObj(m.usage) ? { ...(m.usage as Json) } : {};
    this.message = {
      ...m,
      id: String(m.id ?? ''),
      type: 'message',
      role: 'assistant',
      model: String(m.model ?? ''),
      stop_reason: (m.stop_reason as string | null) ?? null,
      stop_sequence: (m.stop_sequence as string | null) ?? null,
      usage: { input_tokens: 0, output_tokens: 0, ...usage } as Usage,
    };
    if (Array.isArray(m.content)) for (const b of m.content) if (isObj(b)) this.blocks.push({ base: { ...b } });
    delete (this.message as Json).content;
    return true;
  }

  private blockStart(ev: StreamEvent): boolean {
    const index = blockIndex(ev.index, this.blocks.length);
    if (index < 0) return false;
    this.blocks[index] = {
      base: isObj(ev.content_block) ? { ...(ev.content_block as Json) } : { type: 'text', text: '' },
    };
    return true;
  }

  private delta(ev: StreamEvent): boolean {
    const d = ev.delta as Json | undefined;
    if (!d) return false;
    const index = blockIndex(ev.index, this.blocks.length - 1);
    if (index < 0) return false;
    const b =
      this.blocks[index] ??
      (this.blocks[index] = { base: { type: d.type === 'thinking_delta' ? 'thinking' : 'text' } });
    switch (d.type) {
      case 'text_delta':
        (b.text ??= []).push(toBytes(String(d.text ?? '')));
        return true;
      case 'thinking_delta':
        (b.thinking ??= []).push(String(d.thinking ?? ''));
        return true;
      case 'signature_delta':
        (b.signature ??= []).push(String(d.signature ?? ''));
        return true;
      case 'input_json_delta':
        (b.json ??= []).push(String(d.partial_json ?? ''));
        return true;
      case 'citations_delta':
        (b.citations ??= []).push(d.citation);
        return true;
      default:
        return false;
    }
  }

  /** A tool call's id or name that arrived after its first fragment (chat-completions streams; chatChunks.ts). */
  private blockHead(ev: StreamEvent): boolean {
    const b = this.blocks[blockIndex(ev.index, -1)];
    if (!b) return false;
    if (typeof ev.id === 'string' && !b.base.id) b.base.id = ev.id;
    if (typeof ev.name === 'string' && !b.base.name) b.base.name = ev.name;
    return true;
  }

  private blockStop(ev: StreamEvent): boolean {
    // Nothing is fixed here: fragments of this block may still follow (see BlockState.json).
    return blockIndex(ev.index, -1) >= 0;
  }

  private messageDelta(ev: StreamEvent): boolean {
    const m = this.ensureMessage() as unknown as Json;
    const d = isObj(ev.delta) ? (ev.delta as Json) : {};
    // Every field the gateway sends is kept (stop_details, container, ...), so a streamed message has
    // the shape of the same message from createMessage. Event-level extras (context_management) too.
    // A null only replaces an earlier value for the stop fields, which every message_delta states; for the
    // others (container, context_management) null means "nothing new", as in the official SDK.
    const put = (k: string, v: unknown): void => {
      if (v !== undefined && (v !== null || STOP_FIELDS.has(k) || m[k] === undefined || m[k] === null)) m[k] = v;
    };
    for (const [k, v] of Object.entries(ev)) if (k !== 'type' && k !== 'delta' && k !== 'usage') put(k, v);
    for (const [k, v] of Object.entries(d)) put(k, v);
    // Usage in message_delta is cumulative: overwrite the fields it carries, never add. A null (or absent)
    // counter means "not reported here" and keeps the earlier value, as the official SDK does.
    if (isObj(ev.usage)) {
      for (const [k, v] of Object.entries(ev.usage as Json))
        if (v !== undefined && v !== null) (m.usage as Json)[k] = v;
      const out = (ev.usage as Json).output_tokens;
      if (typeof out === 'number') this.reportedOutputTokens = out;
    }
    return true;
  }

  private ensureMessage(): Omit<Message, 'content'> {
    return (this.message ??= {
      id: '',
      type: 'message',
      role: 'assistant',
      model: '',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    });
  }

  /** True once anything (a message_start or a block) arrived. */
  hasContent(): boolean {
    return this.message !== undefined || this.blocks.length > 0;
  }

  /**
   * The message as assembled so far (a fresh object each call). A tool input is always a parsed object:
   * one whose JSON does not parse (yet, or at all) keeps its start value ({}) and is listed in `problems`
   * with its raw text, so no caller is ever handed a string where an object belongs.
   */
  snapshot(problems?: ToolInputProblem[]): Message {
    const m = this.ensureMessage();
    const content: ContentBlock[] = [];
    this.blocks.forEach((b, index) => {
      if (b) content.push(buildBlock(b, index, problems));
    });
    return { ...m, usage: { ...m.usage }, content };
  }

  /** Tool inputs that are not a JSON object (malformed or cut), with their raw text; [] when all parse. */
  toolInputProblems(): ToolInputProblem[] {
    const problems: ToolInputProblem[] = [];
    this.blocks.forEach((b, index) => {
      if (b?.json) parseToolInput(b, index, problems);
    });
    return problems;
  }
}

function buildBlock(b: BlockState, index: number, problems: ToolInputProblem[] | undefined): ContentBlock {
  const out: Json = { ...b.base };
  if (b.text) out.text = String(out.text ?? '') + fromBytes(b.text.join(''));
  if (b.thinking) out.thinking = String(out.thinking ?? '') + b.thinking.join('');
  if (b.signature) out.signature = String(out.signature ?? '') + b.signature.join('');
  if (b.citations) out.citations = [...(Array.isArray(out.citations) ? out.citations : []), ...b.citations];
  if (b.json) out.input = parseToolInput(b, index, problems);
  return out as unknown as ContentBlock;
}

/**
 * Tool input from the concatenated partial_json: '' keeps the start value ({}); JSON that does not parse
 * to an object (the Messages API's input is always one) is not usable, with the reason.
 */
export function readToolInputJson(
  raw: string,
  initial: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  const start = (isObj(initial) ? initial : {}) as Record<string, unknown>;
  if (raw.trim() === '') return { ok: true, value: start };
  try {
    const value = JSON.parse(raw) as unknown;
    if (isObj(value)) return { ok: true, value: value as Record<string, unknown> };
    return {
      ok: false,
      reason: `the input is JSON ${Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value}, not an object`,
    };
  } catch (error) {
    return {
      ok: false,
      reason: `the input is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** A block's tool input; an unusable one keeps the start value and is reported in `problems`. */
function parseToolInput(b: BlockState, index: number, problems: ToolInputProblem[] | undefined): unknown {
  const raw = (b.json ?? []).join('');
  const read = readToolInputJson(raw, b.base.input);
  if (read.ok) return read.value;
  problems?.push({
    index,
    raw,
    reason: read.reason,
    ...(typeof b.base.id === 'string' ? { id: b.base.id } : {}),
    ...(typeof b.base.name === 'string' ? { name: b.base.name } : {}),
  });
  return isObj(b.base.input) ? b.base.input : {};
}

function readError(ev: StreamEvent): StreamErrorEvent {
  const e = ev.error;
  if (isObj(e)) {
    const o = e as Json;
    return {
      type: typeof o.type === 'string' ? o.type : undefined,
      message: typeof o.message === 'string' ? o.message : undefined,
    };
  }
  // claude-code-router (@musistudio/llms) puts the reason in an object under `message`:
  // {"type":"error","message":{"type":"overloaded_error","message":"…"}}.
  if (isObj(ev.message)) {
    const o = ev.message as Json;
    return {
      type: typeof o.type === 'string' ? o.type : undefined,
      message: typeof o.message === 'string' ? o.message : undefined,
    };
  }
  return { message: typeof e === 'string' ? e : typeof ev.message === 'string' ? ev.message : undefined };
}

const MAX_BLOCKS = 10_000;
const STOP_FIELDS = new Set(['stop_reason', 'stop_sequence', 'stop_details']);
// Deltas are slices of large network chunks: joining them every few hundred lets those chunks die young
// instead of being promoted (copied) by the GC, and keeps the final join cheap.
const COMPACT_EVERY = Number(process.env.MG_COMPACT ?? 256);

/** A usable block index (a small non-negative integer), else `fallback`; -1 means "ignore". */
function blockIndex(index: unknown, fallback: number): number {
  if (typeof index !== 'number') return fallback;
  return Number.isInteger(index) && index >= 0 && index < MAX_BLOCKS ? index : -1;
}
