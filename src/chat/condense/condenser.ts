// The one condenser of the chat (pure), for Ask answers, Agent turns and the Condense action: plan the cut (past the
// threshold of the model's window, or what the Condense action may take), run the summary request, apply it to the
// answer the summary card goes on. The rules of what is kept whole and the request itself are in condense.ts.
import type { GatewayClient, MessageParam, Usage } from '../../gateway/types';
import type { ChatCost } from '../../shared/money';
import type { AgentCondensed, ChatMessage } from '../../shared/protocol/chat';
import {
  CONDENSE_KEEP_TURNS,
  condensedHistory,
  condensePoint,
  overThreshold,
  requestSummary,
  summaryMessages,
  type CondensedHistory,
} from './condense';

/** Where the history is cut: the summary so far and the messages after it, condensed through `through`. */
export interface CondenseCut {
  base: CondensedHistory;
  /** The id of the last message condensed. */
  through: string;
  /** How many messages of `base.rest` the cut condenses. */
  count: number;
}

/** The history as requests see it: the summary (as the first exchange) and the messages it does not cover. */
export function withSummary(h: CondensedHistory): ChatMessage[] {
  return [...(h.summary ? summaryMessages(h.summary) : []), ...h.rest];
}

/** When an answer condenses first: its request's `estimate` (of `whole`) passes `threshold` of the input window. */
export interface CondenseThreshold {
  estimate(whole: ChatMessage[]): number;
  inputWindow: number;
  threshold: number;
}

/**
 * The history a request sends (`whole`: the latest summary instead of the turns it covers) and the cut to condense
 * (undefined: nothing to condense). Before an answer (`when` given; the history ends with its question) only when
 * the estimate passes the threshold, and the current question and the last CONDENSE_KEEP_TURNS before it stay
 * whole. The Condense action (no `when`, no question pending) always cuts, keeping the last CONDENSE_KEEP_TURNS.
 */
export function planCondense(
  history: readonly ChatMessage[],
  when?: CondenseThreshold,
): { whole: ChatMessage[]; cut?: CondenseCut } {
  const base = condensedHistory(history);
  const whole = withSummary(base);
  if (when && !overThreshold(when.estimate(whole), when.inputWindow, when.threshold)) return { whole };
  const through = condensePoint(base.rest, CONDENSE_KEEP_TURNS + (when ? 1 : 0));
  const cut = through ? { base, through, count: base.rest.findIndex((m) => m.id === through) + 1 } : undefined;
  return { whole, cut };
}

export interface CondenseRun {
  client: Pick<GatewayClient, 'streamMessage'>;
  model: string;
  /** Stop: closes the request; nothing is kept. */
  signal: AbortSignal;
  /** The request messages of the condensed messages (agent turns with their tool calls). */
  requestHistory(older: readonly ChatMessage[]): MessageParam[];
  costOf?(model: string, usage: Usage): ChatCost | undefined;
  /** Keeps the summary on the answer it belongs to and shows its card. */
  apply(condensed: AgentCondensed): void;
  /** The summary request started (true) or ended (false): the view shows a line meanwhile. */
  progress?(running: boolean): void;
}

/**
 * Summarises the cut in one request and applies it; resolves with the history to send instead (undefined when Stop
 * came first). Throws when the request fails or the summary is empty.
 */
export async function condense(cut: CondenseCut, run: CondenseRun): Promise<ChatMessage[] | undefined> {
  const { base, through, count } = cut;
  if (run.signal.aborted) return undefined;
  const older = run.requestHistory(base.rest.slice(0, count));
  run.progress?.(true);
  const reply = await requestSummary(run.client, run.model, older, base.summary, run.signal).finally(() =>
    run.progress?.(false),
  );
  if (run.signal.aborted) return undefined;
  const cost = reply.usage ? run.costOf?.(run.model, reply.usage) : undefined;
  run.apply({ through, summary: reply.summary, tokens: reply.tokens, ...(cost ? { cost } : {}) });
  return withSummary({ summary: reply.summary, rest: base.rest.slice(count) });
}
