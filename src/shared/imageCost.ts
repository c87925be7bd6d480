// What makes an image request cost more than the default one (one image, default size, default
// quality, a generation without reference images). Words only: prices live in the console (spec,
// Limits), so none are invented here.

export interface CostInput {
  kind: 'generation' | 'edit';
  n?: number;
  size?: string;
  quality?: string;
  /** Reference images besides the edit source. */
  referenceCount?: number;
  hasMask?: boolean;
  /** False for an edit-route call that carries only reference images (no source to edit). */
  hasSource?: boolean;
}

export interface CostDefaults {
  size: string;
}

const HIGH_QUALITY = new Set(['high', 'hd']);

/** Reasons, in words, why this request is charged more than the default one; empty when it is not. */
export function costFactors(request: CostInput, defaults: CostDefaults): string[] {
  const reasons: string[] = [];
  const n = request.n ?? 1;
  if (n > 1) reasons.push(`${n} images instead of one (each image is charged)`);
  if (request.size && normalizeSize(request.size) !== normalizeSize(defaults.size)) {
    reasons.push(`size ${request.size} instead of the default ${defaults.size}`);
  }
  if (request.quality && HIGH_QUALITY.has(request.quality.toLowerCase())) {
    reasons.push(`${request.quality.toLowerCase()} quality`);
  }
  if (request.kind === 'edit' && request.hasSource !== false) reasons.push(request.hasMask ? 'an edit with a mask' : 'an edit of an existing image');
  const refs = request.referenceCount ?? 0;
  if (refs > 0) reasons.push(`${refs} reference image${refs === 1 ? '' : 's'}`);
  return reasons;
}

/** The confirmation text for a costlier request. */
export function costConfirmationMessage(reasons: string[]): string {
  return `This image request may cost more than the default one: ${reasons.join('; ')}. ` +
    'Charges are applied when the request is sent; prices are in your gateway console.';
}

function normalizeSize(size: string): string {
  return size.trim().toLowerCase().replace(/\s+/g, '').replace('×', 'x');
}
