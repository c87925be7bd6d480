// Token accounting of a turn and the one-sentence summary of why it ended.
import type { Usage } from '../gateway/types';
import type { TurnEndReason, UsageTotals } from './types';

export const ZERO_USAGE: Readonly<UsageTotals> = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/** One step's usage from the Messages usage object (missing or null counts are 0). */
export function usageOf(u: Usage | undefined): UsageTotals {
  const n = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return { input: n(u?.input_tokens), output: n(u?.output_tokens), cacheRead: n(u?.cache_read_input_tokens), cacheWrite: n(u?.cache_creation_input_tokens) };
}

export function addUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
}

export function totalTokens(u: UsageTotals): number {
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** What the user reads when the turn ends. */
export function endMessage(reason: TurnEndReason, o: { steps: number; usage: UsageTotals; tokenBudget?: number; error?: unknown }): string {
  switch (reason) {
    case 'end_turn': return 'The agent finished.';
    case 'stop_sequence': return 'The answer ended at a stop sequence.';
    case 'max_tokens': return 'The answer reached its length limit (max tokens).';
    case 'refusal': return 'The model declined to continue.';
    case 'step_budget': return `Stopped after ${o.steps} steps: the step budget of this turn is used up. Continue to let the agent go on.`;
    case 'token_budget': return `Stopped: this turn used ${totalTokens(o.usage)} tokens of its budget of ${o.tokenBudget ?? 0}. Continue to let the agent go on.`;
    case 'context_full': return 'The conversation no longer fits the model\'s context window, even with older tool results shortened. Start a new conversation.';
    case 'stopped': return 'Stopped.';
    case 'outcome_unknown': return `Step ${o.steps} was cut off (${errorText(o.error)}). The gateway may have processed and billed it, so it was not sent again: retry it if you want.`;
    case 'rate_limited': return `The gateway is rate limiting (${errorText(o.error)}). Try again later.`;
    case 'error': return `Step ${o.steps} failed: ${errorText(o.error)}`;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : error === undefined ? 'no answer' : String(error);
}
