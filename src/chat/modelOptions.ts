// What the composer's model picker shows of each chat model (pure: register.ts hands in the catalog entry, the
// vision guess and the user's price table): its kind, its window and its prices where the list or the user's
// modelGateway.prices say them. Nothing is guessed: an unknown window or price is left out, not shown as a default.
import { listedWindow } from '../agent/contextWindow';
import { gatewayPricesOf, type ModelPrices } from '../gateway/pricing';
import type { ModelInfo } from '../gateway/types';
import type { ModelOption } from '../shared/protocol/chat';

export function modelOptionOf(
  model: { id: string; kind: string; raw: ModelInfo },
  vision: boolean | undefined,
  userPrices: Readonly<Record<string, ModelPrices>>,
): ModelOption {
  const option: ModelOption = { id: model.id, vision, kind: model.kind };
  const window = listedWindow(model.raw);
  if (window) option.window = window.tokens;
  // The user's table wins (it is what the usage view prices with), else what the gateway publishes.
  const prices = userPrices[model.id] ?? gatewayPricesOf(model.raw);
  if (prices && (prices.input !== undefined || prices.output !== undefined))
    option.price = { input: prices.input, output: prices.output };
  return option;
}
