// The one-sentence summary of why a turn ended (its token accounting from the gateway: unfinishedUsage in
// src/gateway/usageReport.ts).
import { english, type Localizer } from '../shared/l10n';
import { totalTokens, type TokenCounts } from '../shared/tokens';
import type { TurnEndReason } from './types';

/** What the user reads when the turn ends. */
export function endMessage(
  reason: TurnEndReason,
  o: { steps: number; usage: TokenCounts; tokenBudget?: number; error?: unknown; l10n?: Localizer },
): string {
  const l10n = o.l10n ?? english;
  const messages: Record<TurnEndReason, string> = {
    end_turn: l10n.t('The agent finished.'),
    stop_sequence: l10n.t('The answer ended at a stop sequence.'),
    max_tokens: l10n.t('The answer reached its length limit (max tokens).'),
    refusal: l10n.t('The model declined to continue.'),
    step_budget: l10n.t(
      'Stopped after {0} steps: the step budget of this turn is used up. Continue to let the agent go on.',
      o.steps,
    ),
    token_budget: l10n.t(
      'Stopped: this turn used {0} tokens of its budget of {1}. Continue to let the agent go on.',
      totalTokens(o.usage),
      o.tokenBudget ?? 0,
    ),
    daily_budget: l10n.t(
      "Stopped before the next request: it would pass today's budget for this key (modelGateway.budget.daily). Continue to let the agent go on anyway.",
    ),
    context_full: l10n.t(
      "The conversation no longer fits the model's context window, even with older tool results shortened. Start a new conversation.",
    ),
    stopped: l10n.t('Stopped.'),
    outcome_unknown: l10n.t(
      'Step {0} was cut off ({1}). The gateway may have processed and billed it, so it was not sent again: retry it if you want.',
      o.steps,
      errorText(o.error, l10n),
    ),
    rate_limited: l10n.t('The gateway is rate limiting ({0}). Try again later.', errorText(o.error, l10n)),
    error: l10n.t('Step {0} failed: {1}', o.steps, errorText(o.error, l10n)),
  };
  return messages[reason];
}

function errorText(error: unknown, l10n: Localizer): string {
  return error instanceof Error ? error.message : error === undefined ? l10n.t('no answer') : String(error);
}
