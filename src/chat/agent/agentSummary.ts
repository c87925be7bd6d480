// What an earlier agent turn did, as plain text for requests without tools (pure: no `vscode` import).
// An Ask request (and an agent request for a turn whose transcript is no longer kept) carries only the answers'
// text; a follow-up such as "why did you change that file?" also needs the tool calls. Each agent answer gets a
// short note before its text: one line per call with the tool's name, its target (the path or the command, as the
// policy summarised it) and an outcome made of fixed words ("exit 1", "accepted", "failed").
//
// Tool results and file contents are untrusted data: nothing of them is copied here. The outcome is read only
// from the status of the card and from the fixed prefixes our own tools write before any output ("Exit code: N",
// "Accepted:", "Rejected:" …), and only the words of this file (or a number) go into the prompt. The text is for
// the model, so it stays English in every display language.
import type { AgentToolCard, AgentTurnInfo, ChatMessage } from '../../shared/protocol/chat';

/**
 * Size caps. Every Ask request sends the whole conversation again, so the notes are paid for on each later
 * question: they remind the model of what happened, they do not replay it.
 * - 20 calls per turn: the default step budget is 25 and most turns use far fewer; past 20, reads go first
 *   (edits, commands and failures are what a follow-up asks about) and a count says how many were left out.
 * - 120 characters per target: a path or a one-line command fits; a long command is cut with "…".
 * - 4,000 characters per turn: a hard stop even for 20 long lines.
 * - 12,000 characters (about 3,000 tokens) per request: the three or so most recent turns in full, a few percent
 *   of a context window; older turns get a one-line count while that fits, then nothing.
 */
export const SUMMARY_MAX_CALLS = 20;
export const SUMMARY_TARGET_CHARS = 120;
export const SUMMARY_TURN_CHARS = 4_000;
export const SUMMARY_TOTAL_CHARS = 12_000;

const WRITE_TOOLS = new Set(['propose_edit', 'create_file', 'delete_file']);
const COMMAND_TOOLS = new Set(['run_command']);

/** Why a turn stopped early, in fixed words (the end message itself is not copied). */
const END_NOTES: Partial<Record<string, string>> = {
  step_budget: 'The turn ended at its step budget, before it was finished.',
  token_budget: 'The turn ended at its token budget, before it was finished.',
  daily_budget: 'The turn stopped at the daily budget, before it was finished.',
  context_full: "The turn ended because the model's context window was full.",
  stopped: 'The user stopped the turn before it was finished.',
  outcome_unknown: 'The turn ended after a request whose outcome is unknown.',
  rate_limited: 'The turn ended on a rate limit, before it was finished.',
  error: 'The turn ended with an error, before it was finished.',
  max_tokens: 'The last reply of the turn was cut at the output token limit.',
  refusal: 'The model declined to go on.',
};

/** One line of text from untrusted-shaped input: no line breaks or control characters, at most `max` characters. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The outcome of a finished run_command, from the fixed lines its result starts with (never from the output). */
function commandOutcome(result: string | undefined): string | undefined {
  if (result === undefined) return undefined;
  // Our lines come first: bracketed notes, then "Exit code: …", then "Output…". Nothing after them is read.
  const head = /^((?:\[[^\n]*\]\n)*)Exit code: (-?\d+|unknown)/.exec(result);
  if (!head) return undefined;
  const notes = head[1];
  const parts = [head[2] === 'unknown' ? 'exit code unknown' : `exit ${head[2]}`];
  if (notes.includes('[Stopped by the user')) parts.push('stopped by the user');
  if (notes.includes('[Timed out')) parts.push('timed out');
  return parts.join(', ');
}

/** The user's answer to a proposed change, from the fixed start of the result (proposals.ts outcomeText). */
function writeOutcome(result: string | undefined): string {
  if (result === undefined) return 'done';
  if (result.startsWith('Accepted with user changes:')) return 'accepted after the user changed it';
  if (result.startsWith('Accepted:')) return 'accepted';
  if (result.startsWith('Rejected:')) return 'rejected by the user';
  if (result.startsWith('Not applied:')) return 'not applied';
  if (result.startsWith('No change:')) return 'no change';
  return 'done';
}

function outcomeOf(card: AgentToolCard): string {
  switch (card.status) {
    case 'refused':
      return 'not run (denied or refused)';
    case 'rejected':
      return 'rejected by the user in review (nothing written)';
    case 'error': {
      const command = COMMAND_TOOLS.has(card.name) ? commandOutcome(card.result) : undefined;
      return command ? `failed (${command})` : 'failed';
    }
    case 'done':
      if (COMMAND_TOOLS.has(card.name)) return commandOutcome(card.result) ?? 'done';
      if (WRITE_TOOLS.has(card.name)) return writeOutcome(card.result);
      return 'ok';
    default:
      return 'not finished';
  }
}

/** One line per call: `- name: target -> outcome`. */
export function callLine(card: AgentToolCard): string {
  const name = oneLine(card.name, 64) || 'tool';
  const rawTarget = card.summary && card.summary !== card.name ? card.summary : '';
  const target = oneLine(rawTarget, SUMMARY_TARGET_CHARS);
  const shown = target ? (COMMAND_TOOLS.has(card.name) ? `\`${target.replace(/`/g, "'")}\`` : target) : '';
  return `- ${name}${shown ? `: ${shown}` : ''} -> ${outcomeOf(card)}`;
}

/** Calls kept when a turn made more than the cap: edits, commands and failures first, then reads, in turn order. */
function keptCalls(tools: readonly AgentToolCard[]): AgentToolCard[] {
  if (tools.length <= SUMMARY_MAX_CALLS) return [...tools];
  const important = (c: AgentToolCard) =>
    WRITE_TOOLS.has(c.name) || COMMAND_TOOLS.has(c.name) || c.status === 'error' || c.status === 'refused';
  const keep = new Set<AgentToolCard>(tools.filter(important).slice(0, SUMMARY_MAX_CALLS));
  for (const c of tools) {
    if (keep.size >= SUMMARY_MAX_CALLS) break;
    keep.add(c);
  }
  return tools.filter((c) => keep.has(c));
}

const HEADER = "[Tool calls of this agent turn, listed by the extension (results and file contents aren't repeated):";

/** The full note of one agent turn, or undefined when the turn called no tool and ended normally. */
export function turnSummary(agent: AgentTurnInfo): string | undefined {
  const tools = agent.tools ?? [];
  const endNote = agent.end ? END_NOTES[agent.end.reason] : undefined;
  const restored = agent.restored
    ? 'The user later restored the workspace to before this turn: its file changes were undone.'
    : undefined;
  if (tools.length === 0 && !endNote && !restored) return undefined;
  const lines = [HEADER];
  const kept = keptCalls(tools);
  const tail = [endNote, restored].filter((l): l is string => l !== undefined);
  const tailChars = tail.reduce((n, l) => n + l.length + 1, 0) + 80;
  let chars = HEADER.length;
  let shown = 0;
  for (const card of kept) {
    const line = callLine(card);
    if (chars + line.length + 1 + tailChars > SUMMARY_TURN_CHARS) break;
    lines.push(line);
    chars += line.length + 1;
    shown++;
  }
  if (tools.length === 0) lines.push('- (no tool calls)');
  const left = tools.length - shown;
  if (left > 0) lines.push(`- … ${left} more call${left === 1 ? '' : 's'} not listed (reads are left out first).`);
  lines.push(...tail);
  return `${lines.join('\n')}]`;
}

/** The one-line note of an older turn when the full one no longer fits the request's budget. */
function shortSummary(agent: AgentTurnInfo): string | undefined {
  const n = agent.tools?.length ?? 0;
  if (n === 0) return undefined;
  return `[This agent turn made ${n} tool call${n === 1 ? '' : 's'}; not listed, to keep the request small.]`;
}

/**
 * The notes for the agent answers of one request, newest first within SUMMARY_TOTAL_CHARS (a follow-up question
 * is most likely about the latest turn). Keyed by message; answers without a note are absent.
 */
export function agentSummaries(
  messages: readonly ChatMessage[],
  total = SUMMARY_TOTAL_CHARS,
): Map<ChatMessage, string> {
  const out = new Map<ChatMessage, string>();
  let budget = total;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant' || !m.agent) continue;
    const full = turnSummary(m.agent);
    const note = full !== undefined && full.length <= budget ? full : shortSummary(m.agent);
    if (note === undefined || note.length > budget) continue;
    out.set(m, note);
    budget -= note.length;
  }
  return out;
}
