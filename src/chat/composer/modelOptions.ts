// What the composer's model picker shows of each chat model (pure: register.ts hands in the catalog entry, the
// vision guess and the user's price table): its kind, its window and its prices where the list or the user's
// modelGateway.prices say them. Nothing is guessed: an unknown window or price is left out, not shown as a default.
import { listedWindow } from '../../agent/contextWindow';
import { modelReasons } from '../../catalog/reasoning';
import { gatewayPricesOf, type ModelPrices } from '../../gateway/pricing';
import type { ModelInfo } from '../../gateway/types';
import type { ReasoningLevel } from '../../shared/config';
import type { ModelOption, ReasoningChoice } from '../../shared/protocol/chat';

export function modelOptionOf(
  model: { id: string; kind: string; raw: ModelInfo },
  vision: boolean | undefined,
  userPrices: Readonly<Record<string, ModelPrices>>,
  userReasoning: Readonly<Record<string, ReasoningLevel>> = {},
): ModelOption {
  const option: ModelOption = { id: model.id, vision, kind: model.kind };
  if (modelReasons(model.raw)) option.reasons = true;
  if (Object.hasOwn(userReasoning, model.id)) option.reasoning = userReasoning[model.id];
  const window = listedWindow(model.raw);
  if (window) option.window = window.tokens;
  // The user's table wins (it is what the usage view prices with), else what the gateway publishes.
  const prices = userPrices[model.id] ?? gatewayPricesOf(model.raw);
  if (prices && (prices.input !== undefined || prices.output !== undefined))
    option.price = { input: prices.input, output: prices.output };
  return option;
}

/**
 * The user's modelGateway.models.reasoning after the composer's choice for one model: 'default' removes the entry,
 * a level sets it; other entries stay, and a stored value that is no object starts afresh (as the reader ignores it).
 */
export function nextReasoningSetting(
  current: unknown,
  model: string,
  choice: ReasoningChoice,
): Record<string, unknown> {
  const next: Record<string, unknown> =
    typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...current } : {};
  if (choice === 'default') delete next[model];
  else next[model] = choice;
  return next;
}
