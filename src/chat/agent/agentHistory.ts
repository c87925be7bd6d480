// Earlier agent turns in the history of a later one (pure: no `vscode` import). The chat stores an answer's text
// and cards; the model also needs to know what it did (which files it read, which edits it proposed and how the
// user answered, which commands ran), so each agent turn's own messages (its tool_use / tool_result pairs and
// texts) are kept, compacted, next to the conversation and replace the answer's plain text in later requests.
//
// Compaction keeps the pairs valid for the API: every tool_use keeps its id, name and an object input, every
// tool_result its tool_use_id; long strings inside inputs and results are shortened with a visible marker, images
// and thinking blocks are left out (earlier turns' thinking may be omitted; their signatures forbid editing it).
import type { ContentBlockParam, MessageParam, TextBlockParam } from '../../gateway/types';
import type { ChatMessage } from '../../shared/protocol/chat';
import { agentSummaries } from './agentSummary';
import { toMessageParams, type ImageBytes } from '../ask/requestBuilder';

/** Characters kept of each tool result and of each string in a tool input, in later turns' history. */
export const HISTORY_RESULT_CHARS = 2_000;
export const HISTORY_INPUT_CHARS = 2_000;
/**
 * Characters of the notes of earlier turns' calls in an agent request (Ask requests allow SUMMARY_TOTAL_CHARS): the
 * last turn goes with its tool calls and results anyway, so a few turns before it in full, then one-line counts.
 */
export const AGENT_NOTES_CHARS = 4_000;

const shorten = (text: string, max: number): string =>
  text.length <= max
    ? text
    : `${text.slice(0, max)}\n[… ${text.length - max} characters left out of this earlier tool call]`;

function compactValue(value: unknown): unknown {
  if (typeof value === 'string') return shorten(value, HISTORY_INPUT_CHARS);
  if (Array.isArray(value)) return value.map(compactValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compactValue(v)]));
  return value;
}

function compactBlock(block: ContentBlockParam): ContentBlockParam | undefined {
  switch (block.type) {
    case 'text':
      return block.text ? { type: 'text', text: block.text } : undefined;
    case 'tool_use':
      return {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input:
          block.input && typeof block.input === 'object' && !Array.isArray(block.input)
            ? compactValue(block.input)
            : {},
      };
    case 'tool_result': {
      const text =
        typeof block.content === 'string'
          ? block.content
          : block.content.map((b) => (b.type === 'text' ? b.text : '[an image, left out of the history]')).join('\n');
      return {
        type: 'tool_result',
        tool_use_id: block.tool_use_id,
        content: shorten(text, HISTORY_RESULT_CHARS),
        ...(block.is_error ? { is_error: true } : {}),
      };
    }
    default:
      // Images the user attached stay with the user's message; thinking and anything else is not replayed.
      return undefined;
  }
}

/**
 * The messages one agent turn added to the conversation (after the question), compacted for later requests.
 * Cache breakpoints are dropped (the next turn places its own).
 */
export function compactTranscript(added: readonly MessageParam[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const m of added) {
    const blocks = (typeof m.content === 'string' ? [{ type: 'text', text: m.content } as TextBlockParam] : m.content)
      .map(compactBlock)
      .filter((b): b is ContentBlockParam => b !== undefined);
    if (blocks.length > 0) out.push({ role: m.role, content: blocks });
  }
  return out;
}

/** True when the transcript is a valid history part: every tool_use answered by the next message, in order. */
function wellFormed(transcript: readonly MessageParam[]): boolean {
  if (transcript.length === 0 || transcript[0].role !== 'assistant') return false;
  for (let i = 0; i < transcript.length; i++) {
    const m = transcript[i];
    if (i > 0 && transcript[i - 1].role === m.role) return false;
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    const ids = m.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
    if (ids.length === 0) continue;
    const next = transcript[i + 1];
    const answered =
      next && typeof next.content !== 'string'
        ? new Set(
            next.content.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id),
          )
        : new Set<string>();
    if (!ids.every((id) => answered.has(id))) return false;
  }
  return true;
}

/**
 * The request messages for an agent turn: like toMessageParams, but each earlier agent answer whose transcript is
 * known is sent as that transcript (tool calls and results included) instead of its plain text. A transcript that
 * ends with tool results (a turn stopped or cut by its budget) is followed by the next question in the same user
 * message, as the API wants roles to alternate. An agent answer whose transcript is gone is sent as its text with
 * a plain-text note of its calls (agentSummary.ts).
 */
export function agentHistory(
  history: readonly ChatMessage[],
  transcriptOf: (turnId: string) => readonly MessageParam[] | undefined,
  images: ImageBytes,
): MessageParam[] {
  const transcripts = new Map<ChatMessage, readonly MessageParam[]>();
  for (const message of history) {
    const transcript = message.role === 'assistant' && message.agent ? transcriptOf(message.agent.turnId) : undefined;
    if (transcript && wellFormed(transcript)) transcripts.set(message, transcript);
  }
  // Turns sent as text (their transcript is gone or too old) get the plain-text note of their calls, within one
  // budget, and only their final answer: what the model said between its calls is left out with the calls' results.
  const originals = agentSummaries(
    history.filter((m) => !transcripts.has(m)),
    AGENT_NOTES_CHARS,
  );
  const notes = new Map<ChatMessage, string>();
  const asText = new Map<ChatMessage, ChatMessage>();
  for (const message of history) {
    if (transcripts.has(message)) continue;
    const sent = message.agent ? { ...message, text: finalAnswer(message) } : message;
    asText.set(message, sent);
    const note = originals.get(message);
    if (note !== undefined) notes.set(sent, note);
  }
  const out: MessageParam[] = [];
  let pending: ChatMessage[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    for (const p of toMessageParams(pending, images, notes)) push(p);
    pending = [];
  };
  const push = (m: MessageParam): void => {
    const last = out[out.length - 1];
    if (!last && m.role !== 'user') return;
    if (last && last.role === m.role) {
      last.content = [...asBlocks(last.content), ...asBlocks(m.content)];
      return;
    }
    out.push({ role: m.role, content: typeof m.content === 'string' ? m.content : [...m.content] });
  };
  for (const message of history) {
    const transcript = transcripts.get(message);
    if (transcript) {
      flush();
      if (out.length === 0) continue; // an answer before any question is never sent (as in toMessageParams)
      for (const m of transcript) push(m);
    } else {
      pending.push(asText.get(message) ?? message);
    }
  }
  flush();
  // The API rejects a final assistant turn that ends in whitespace; an agent turn's request ends with the question.
  return out;
}

/** An agent answer's text after its last tool call (the whole text when it made none). */
export function finalAnswer(message: ChatMessage): string {
  const at = Math.max(0, ...(message.agent?.tools ?? []).map((t) => t.textAt ?? 0));
  return message.text.slice(Math.min(at, message.text.length)).trim();
}

function asBlocks(content: MessageParam['content']): ContentBlockParam[] {
  return typeof content === 'string' ? (content.trim() ? [{ type: 'text', text: content }] : []) : content;
}
