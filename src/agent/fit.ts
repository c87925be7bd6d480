// Context fitting: shortening of older tool results when the conversation would not fit the model's input window,
// sized by the one token estimate (src/shared/tokenEstimate.ts).
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../gateway/types';
import {
  ASCII_CHARS_PER_TOKEN as CHARS_PER_TOKEN,
  IMAGE_TOKENS,
  estimateTokens,
  tokensOfWeight,
  weightOf as charsOf,
} from '../shared/tokenEstimate';

export { CHARS_PER_TOKEN, IMAGE_TOKENS, estimateTokens };
/** Characters kept from the start of a shortened tool result, so the model still sees what it was. */
export const KEEP_HEAD_CHARS = 400;

const MARKER_AT_END = /\[… \d+ characters of an older tool result omitted to fit the context window\]$/;
const sizeCache = new WeakMap<object, number>();

/** Estimated tokens of a whole conversation; messages are treated as immutable, so their sizes are cached. */
export function estimateMessages(messages: readonly MessageParam[]): number {
  let chars = 0;
  for (const m of messages) {
    let size = sizeCache.get(m);
    if (size === undefined) {
      size = charsOf(m);
      sizeCache.set(m, size);
    }
    chars += size;
  }
  return tokensOfWeight(chars);
}

/** The marker that replaces the omitted part of a tool result. */
export function omittedMarker(chars: number): string {
  return `[… ${chars} characters of an older tool result omitted to fit the context window]`;
}

export interface FitResult {
  /** The conversation to send: the same array when nothing changed, else a copy with new message objects. */
  messages: MessageParam[];
  fits: boolean;
  /** Tool results shortened. */
  results: number;
  charsOmitted: number;
}

/**
 * When `fixedTokens` (system + tools) plus the conversation exceeds `budgetTokens`, shortens tool results, oldest
 * first, until the total is at most `targetTokens` (default: the budget). The results of the newest message are
 * shortened only when the older ones were not enough. Messages that change are replaced (never mutated), so the
 * caller's history and caches stay valid. A target well below the budget keeps the shortened prompt stable for
 * several steps: shortening a little on every step would change the cached prefix each time and miss the cache.
 */
export function fitToWindow(
  messages: readonly MessageParam[],
  fixedTokens: number,
  budgetTokens: number,
  targetTokens = budgetTokens,
): FitResult {
  let total = fixedTokens + estimateMessages(messages);
  if (total <= budgetTokens) return { messages: messages as MessageParam[], fits: true, results: 0, charsOmitted: 0 };
  const goal = Math.min(targetTokens, budgetTokens);
  const out = [...messages];
  let results = 0;
  let charsOmitted = 0;
  const order: number[] = [];
  for (let i = 0; i < out.length - 1; i++) order.push(i);
  if (out.length > 0) order.push(out.length - 1);
  for (const i of order) {
    if (total <= goal) break;
    const message = out[i];
    if (typeof message.content === 'string') continue;
    let changed = false;
    const blocks = message.content.map((block): ContentBlockParam => {
      if (total <= goal || block.type !== 'tool_result') return block;
      const shortened = shorten(block);
      if (!shortened) return block;
      changed = true;
      results++;
      charsOmitted += shortened.omitted;
      total -= Math.floor(shortened.saved / CHARS_PER_TOKEN);
      return shortened.block;
    });
    if (changed) out[i] = { ...message, content: blocks };
  }
  if (results === 0)
    return { messages: messages as MessageParam[], fits: total <= budgetTokens, results, charsOmitted };
  // Recount exactly: the running total above is an approximation of the per-message estimate.
  const fits = fixedTokens + estimateMessages(out) <= budgetTokens;
  return { messages: out, fits, results, charsOmitted };
}

function shorten(
  block: ToolResultBlockParam,
): { block: ToolResultBlockParam; omitted: number; saved: number } | undefined {
  const before = charsOf(block.content);
  const text =
    typeof block.content === 'string'
      ? block.content
      : block.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
  const images = typeof block.content === 'string' ? 0 : block.content.filter((b) => b.type === 'image').length;
  const omitted = Math.max(0, text.length - KEEP_HEAD_CHARS) + images * IMAGE_TOKENS * CHARS_PER_TOKEN;
  // Already shortened: shortening it again would lose the original count.
  if (MARKER_AT_END.test(text)) return undefined;
  const marker = omittedMarker(omitted);
  // Too short to gain anything (or already shortened): leave it.
  if (omitted <= marker.length + 1) return undefined;
  const content = `${text.slice(0, KEEP_HEAD_CHARS)}\n${marker}`;
  const saved = before - charsOf(content);
  if (saved <= 0) return undefined;
  return { block: { ...block, content }, omitted, saved };
}
