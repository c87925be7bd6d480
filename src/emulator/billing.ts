// Prices charged at request time (the spec: size, quality, quantity, reference images and editing).

import type { Prices } from './types';

export interface ImageCharge {
  width: number;
  height: number;
  n: number;
  quality?: string;
  references: number;
  edit: boolean;
}

/** One image costs `image` per started megapixel (at least 1) times the quality factor; edits add the rest. */
export function imagePrice(p: Prices, c: ImageCharge): number {
  const megapixels = Math.max(1, (c.width * c.height) / 1_048_576);
  const quality = c.quality !== undefined ? (p.quality[c.quality] ?? 1) : 1;
  const total = c.n * p.image * megapixels * quality + c.references * p.referenceImage + (c.edit ? p.edit : 0);
  return Math.round(total * 1e6) / 1e6;
}

/** Upstream prices a cache write at 1.25× and a cache read at 0.1× the input price (5-minute cache). */
export const CACHE_WRITE_FACTOR = 1.25;
export const CACHE_READ_FACTOR = 0.1;

/** Input tokens weighted by what they cost: uncached input at full price, cache writes and reads at their factors. */
export function inputCostTokens(u: {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}): number {
  const weighted =
    u.input_tokens + CACHE_WRITE_FACTOR * u.cache_creation_input_tokens + CACHE_READ_FACTOR * u.cache_read_input_tokens;
  return Math.round(weighted * 100) / 100;
}

/** A chat reply's usage as the price reads it (Messages field names). */
export interface ReplyUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/**
 * What a chat reply or a fill costs: its tokens at the prices the model list publishes for the model (listPrices, per
 * million tokens; cache writes and reads at the upstream factors), so an answer's "gateway price", Show Usage and the
 * balance agree. A model the list prices not: the flat `fallback` (prices.message).
 */
export function replyPrice(
  listPrices: { input: number; output: number } | undefined,
  u: ReplyUsage,
  fallback: number,
): number {
  if (!listPrices) return fallback;
  const cost = (inputCostTokens(u) * listPrices.input + u.output_tokens * listPrices.output) / 1e6;
  return Math.round(cost * 1e6) / 1e6;
}
