// Clearing older tool results inside a turn: the free first step before any condensing, applied before every
// request. Peers do the same: Claude Code clears old tool results ("microcompact"; the API's context editing keeps
// the last three tool uses), Cline and Roo truncate. Without it a turn that reads a 20 KB file on each of its steps
// sends every earlier read again on every step, and requests grow to hundreds of kilobytes before the window
// overflows.
//
// The rule, chosen so that the agent still works well and prompt caching still hits:
// - the newest step's results are always whole, whatever their size; the step before stays whole too while the two
//   together are within KEEP_WHOLE_CHARS, about 8,000 tokens (an edit usually follows the read it needs; two large
//   reads in a row keep only the second whole: the first one is read again when it is still needed);
// - an older result larger than CLEAR_MIN_CHARS keeps its first CLEARED_HEAD_CHARS characters and a marker that says
//   how much was cleared and how to get it back (call the same tool again): the model re-reads what it still needs,
//   and that read is the newest result again, so whole (no loop);
// - clearing waits until the request would pass CLEAR_TRIGGER_TOKENS and at least CLEAR_AT_LEAST_CHARS can go, then
//   clears every such result at once (a short task keeps everything); each result is cleared once, with bytes that
//   never change afterwards (the marker is recognised): the prompt prefix stays the same between clearings, so the
//   cached prefix is reused instead of moving on every step. Small results are never cleared.
// Measured (docs/performance.md): a 300-step session sends 13 % of the bytes and pays 59 % of the cached input price
// it did; a single 15-step turn of 8 KB reads sends 43 % of the tokens for about 8 % more priced input (the
// clearings rewrite the cache twice).
import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '../gateway/types';
import { estimateMessages } from './fit';

/** Tool-result messages (steps) at the end kept whole, the newest always. */
export const KEEP_WHOLE_STEPS = 2;
/** Characters of results the kept steps may hold together (the newest step is whole beyond it). */
export const KEEP_WHOLE_CHARS = 24_000;
/** Results up to this size are never cleared (clearing them would gain little and lose detail). */
export const CLEAR_MIN_CHARS = 4_000;
/**
 * Older large results are cleared together, and only once the request would pass this many tokens (a short task keeps
 * everything): clearing rewrites the prompt after the first cleared result, so the cache is written again from there;
 * clearing one result per step would do that on every step and cost more than it saves.
 */
export const CLEAR_TRIGGER_TOKENS = 16_000;
/** ... and only when at least this much would go (otherwise the cache would be rewritten for little). */
export const CLEAR_AT_LEAST_CHARS = 12_000;
/** Characters kept from the start of a cleared result, so the model still sees what it was. */
export const CLEARED_HEAD_CHARS = 400;

const CLEARED_AT_END = /\[… \d+ more characters of this earlier result were cleared to keep requests small; [^\]]*\]$/;

/** The marker that replaces the cleared part of a result: what is gone and how to get it back. */
export function clearedMarker(chars: number, tool: string | undefined): string {
  const again = tool ? `call ${tool} again` : 'call the tool again';
  return `[… ${chars} more characters of this earlier result were cleared to keep requests small; ${again} (same input) if you need them]`;
}

export interface ClearResult {
  /** The same array when nothing changed, else a copy with new message objects (never mutated). */
  messages: MessageParam[];
  results: number;
  charsCleared: number;
}

function resultText(block: ToolResultBlockParam): { text: string; images: number } {
  if (typeof block.content === 'string') return { text: block.content, images: 0 };
  return {
    text: block.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'),
    images: block.content.filter((b) => b.type === 'image').length,
  };
}

const sizeOf = (block: ToolResultBlockParam): number => {
  const { text, images } = resultText(block);
  return text.length + images * CLEAR_MIN_CHARS;
};

const isResultMessage = (m: MessageParam): boolean =>
  m.role === 'user' && typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result');

/** Clears the large results older than the kept steps (see the rule above). */
export function clearOldResults(messages: readonly MessageParam[], fixedTokens = 0): ClearResult {
  const steps: number[] = [];
  for (let i = messages.length - 1; i >= 0; i--) if (isResultMessage(messages[i])) steps.push(i);
  // steps[0] is the newest: always whole. The ones after it stay whole within the step count and the size.
  const stepChars = (i: number): number =>
    (messages[i].content as ContentBlockParam[]).reduce((n, b) => n + (b.type === 'tool_result' ? sizeOf(b) : 0), 0);
  let kept = Math.min(1, steps.length);
  let keptChars = kept ? stepChars(steps[0]) : 0;
  while (kept < Math.min(KEEP_WHOLE_STEPS, steps.length)) {
    const chars = stepChars(steps[kept]);
    if (keptChars + chars > KEEP_WHOLE_CHARS) break;
    keptChars += chars;
    kept++;
  }
  const older = new Set(steps.slice(kept));
  if (older.size === 0) return { messages: messages as MessageParam[], results: 0, charsCleared: 0 };
  const toolNames = new Map<string, string>();
  for (const m of messages)
    if (m.role === 'assistant' && typeof m.content !== 'string')
      for (const b of m.content) if (b.type === 'tool_use') toolNames.set(b.id, b.name);
  const clearable = (block: ContentBlockParam): block is ToolResultBlockParam =>
    block.type === 'tool_result' && sizeOf(block) > CLEAR_MIN_CHARS && !CLEARED_AT_END.test(resultText(block).text);
  let backlog = 0;
  for (const i of older)
    for (const b of messages[i].content as ContentBlockParam[]) if (clearable(b)) backlog += sizeOf(b);
  if (backlog < CLEAR_AT_LEAST_CHARS || fixedTokens + estimateMessages(messages) <= CLEAR_TRIGGER_TOKENS)
    return { messages: messages as MessageParam[], results: 0, charsCleared: 0 };
  let out: MessageParam[] | undefined;
  let results = 0;
  let charsCleared = 0;
  for (const i of older) {
    const message = messages[i];
    let changed = false;
    const blocks = (message.content as ContentBlockParam[]).map((block): ContentBlockParam => {
      if (!clearable(block)) return block;
      const { text, images } = resultText(block);
      const cleared = Math.max(0, text.length - CLEARED_HEAD_CHARS);
      changed = true;
      results++;
      charsCleared += cleared;
      const imageNote = images > 0 ? `\n[${images} image(s) cleared]` : '';
      return {
        ...block,
        content: `${text.slice(0, CLEARED_HEAD_CHARS)}${imageNote}\n${clearedMarker(cleared, toolNames.get(block.tool_use_id))}`,
      };
    });
    if (!changed) continue;
    out ??= [...messages];
    out[i] = { ...message, content: blocks };
  }
  return out
    ? { messages: out, results, charsCleared }
    : { messages: messages as MessageParam[], results: 0, charsCleared: 0 };
}
