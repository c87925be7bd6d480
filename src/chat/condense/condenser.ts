// The one condenser of the chat (pure), for Ask answers, Agent turns and the Condense action: plan the cut (past the
// threshold of the model's window, or what the Condense action may take), run the summary request, apply it to the
// answer the summary card goes on. The rules of what is kept whole and the request itself are in condense.ts.
import type { GatewayClient, MessageParam, Usage } from '../../gateway/types';
import type { ChatCost } from '../../shared/money';
import type { AgentCondensed, ChatMessage } from '../../shared/protocol/chat';
import {
  condensedHistory,
  condensePoint,
  manualCondensePoint,
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

function cutAt(base: CondensedHistory, through: string | undefined): CondenseCut | undefined {
  if (!through) return undefined;
  return { base, through, count: base.rest.findIndex((m) => m.id === through) + 1 };
}

/**
 * The history a request sends (`whole`: the latest summary instead of the turns it covers) and, when `estimate` of
 * it passes `threshold` of the input window, the cut to condense first (never the current question and the last turns).
 */
export function planCondense(
  history: readonly ChatMessage[],
  estimate: (whole: ChatMessage[]) => number,
  inputWindow: number,
  threshold: number,
): { whole: ChatMessage[]; cut?: CondenseCut } {
  const base = condensedHistory(history);
  const whole = withSummary(base);
  const over = overThreshold(estimate(whole), inputWindow, threshold);
  return { whole, cut: over ? cutAt(base, condensePoint(base.rest)) : undefined };
}

/** The Condense action's cut: all but the last turns of the conversation (undefined: nothing to condense yet). */
export function planManualCondense(history: readonly ChatMessage[]): CondenseCut | undefined {
  const base = condensedHistory(history);
  return cutAt(base, manualCondensePoint(base.rest));
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
