// Prices charged at request time (the spec: size, quality, quantity, reference images and editing).

import type { Prices } from './types';

export interface ImageCharge { width: number; height: number; n: number; quality?: string; references: number; edit: boolean }

/** One image costs `image` per started megapixel (at least 1) times the quality factor; edits add the rest. */
export function imagePrice(p: Prices, c: ImageCharge): number {
  const megapixels = Math.max(1, (c.width * c.height) / 1_048_576);
  const quality = c.quality !== undefined ? (p.quality[c.quality] ?? 1) : 1;
  const total = c.n * p.image * megapixels * quality + c.references * p.referenceImage + (c.edit ? p.edit : 0);
  return Math.round(total * 1e6) / 1e6;
}
