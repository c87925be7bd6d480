// What a response cost, and where that figure comes from. Pure. The order of trust: the cost the gateway billed for
// this response (OpenRouter's usage.cost, LiteLLM's x-litellm-response-cost header), else prices the gateway
// publishes for the model (a `pricing` object in its model list, OpenRouter's shape), else the user's own prices
// (modelGateway.prices). Anything but a billed cost is an estimate. No price known: no cost (tokens only).
import type { ModelInfo, Usage } from './types';
import { roundAmount, type CostSource } from '../shared/money';
import type { TokenCounts } from '../shared/tokens';

export { formatAmount } from '../shared/money';

export type PriceSource = CostSource;

/** Prices per million tokens, and per image; any may be missing. */
export interface ModelPrices {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  perImage?: number;
}

export interface Cost {
  amount: number;
  source: PriceSource;
  /** True unless the gateway billed this very figure. */
  estimate: boolean;
}

export type { TokenCounts };

/** Used when a price list has an input price but no cache prices: the upstream ratios (5-minute cache). */
export const CACHE_READ_RATIO = 0.1;
export const CACHE_WRITE_RATIO = 1.25;

const finite = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** The billed cost a response carries: usage.cost (OpenRouter, or copied there from LiteLLM's header). */
export function billedCostOf(usage: Usage | undefined): number | undefined {
  return finite((usage as { cost?: unknown } | undefined)?.cost);
}

/** LiteLLM's per-response cost header; "None" or garbage is no cost. */
export function costFromHeader(value: string | string[] | undefined): number | undefined {
  return finite(Array.isArray(value) ? value[0] : value);
}

/** Token counts of a Messages usage object (missing or null counts are 0). */
export function tokenCountsOf(u: Usage | undefined): TokenCounts {
  const n = (v: unknown): number => finite(v) ?? 0;
  return {
    input: n(u?.input_tokens),
    output: n(u?.output_tokens),
    cacheRead: n(u?.cache_read_input_tokens),
    cacheWrite: n(u?.cache_creation_input_tokens),
  };
}

/**
 * Prices a gateway publishes in its model list: OpenRouter's `pricing` {prompt, completion, input_cache_read,
 * input_cache_write, image} in USD per token (strings), converted to per million tokens.
 */
export function gatewayPricesOf(model: ModelInfo | undefined): ModelPrices | undefined {
  const p = model?.pricing;
  if (typeof p !== 'object' || p === null) return undefined;
  const rec = p as Record<string, unknown>;
  const perM = (v: unknown): number | undefined => {
    const n = finite(v);
    return n === undefined ? undefined : Math.round(n * 1e6 * 1e9) / 1e9;
  };
  const prices: ModelPrices = {
    input: perM(rec.prompt),
    output: perM(rec.completion),
    cacheRead: perM(rec.input_cache_read),
    cacheWrite: perM(rec.input_cache_write),
    perImage: finite(rec.image),
  };
  return prices.input !== undefined || prices.output !== undefined ? prices : undefined;
}

/** Reads modelGateway.prices: {model id: {input, output, cacheRead, cacheWrite, perImage}}; bad entries are dropped. */
export function parsePriceTable(value: unknown): Record<string, ModelPrices> {
  const table: Record<string, ModelPrices> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return table;
  for (const [model, raw] of Object.entries(value as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const r = raw as Record<string, unknown>;
    const prices: ModelPrices = {};
    for (const field of ['input', 'output', 'cacheRead', 'cacheWrite', 'perImage'] as const) {
      const n = finite(r[field]);
      if (n !== undefined) prices[field] = n;
    }
    if (Object.keys(prices).length) table[model] = prices;
  }
  return table;
}

/** The amount for these tokens and images at these prices; undefined when a needed price is missing. */
export function priceTokens(tokens: TokenCounts, prices: ModelPrices, images = 0): number | undefined {
  const needsTokens = tokens.input + tokens.cacheRead + tokens.cacheWrite > 0 || tokens.output > 0;
  if (needsTokens) {
    if (tokens.input + tokens.cacheRead + tokens.cacheWrite > 0 && prices.input === undefined) return undefined;
    if (tokens.output > 0 && prices.output === undefined) return undefined;
  }
  if (images > 0 && prices.perImage === undefined) return undefined;
  const input = prices.input ?? 0;
  const perMillion =
    tokens.input * input +
    tokens.cacheRead * (prices.cacheRead ?? input * CACHE_READ_RATIO) +
    tokens.cacheWrite * (prices.cacheWrite ?? input * CACHE_WRITE_RATIO) +
    tokens.output * (prices.output ?? 0);
  return roundAmount(perMillion / 1e6 + images * (prices.perImage ?? 0));
}

export interface CostInputs {
  tokens: TokenCounts;
  images?: number;
  billed?: number;
  gatewayPrices?: ModelPrices;
  userPrices?: ModelPrices;
}

/** The cost of one response by the order of trust above; undefined when nothing prices it. */
export function resolveCost(c: CostInputs): Cost | undefined {
  if (c.billed !== undefined) return { amount: c.billed, source: 'billed', estimate: false };
  for (const [prices, source] of [
    [c.gatewayPrices, 'gateway'],
    [c.userPrices, 'user'],
  ] as const) {
    const amount = prices ? priceTokens(c.tokens, prices, c.images) : undefined;
    if (amount !== undefined) return { amount, source, estimate: true };
  }
  return undefined;
}

/** A sum of costs (a turn, a conversation): an estimate when any part is; `partial` when some part had no price. */
export interface CostTotal {
  amount: number;
  sources: PriceSource[];
  estimate: boolean;
  partial: boolean;
}

export function sumCosts(costs: Array<Cost | undefined>): CostTotal | undefined {
  const known = costs.filter((c): c is Cost => c !== undefined);
  if (!known.length) return undefined;
  return {
    amount: roundAmount(known.reduce((a, c) => a + c.amount, 0)),
    sources: [...new Set(known.map((c) => c.source))],
    estimate: known.some((c) => c.estimate),
    partial: known.length < costs.length,
  };
}
