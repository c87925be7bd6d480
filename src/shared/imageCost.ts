// What makes an image request cost more than the default one (one image, default size, default
// quality, a generation without reference images). Words only: prices live in the console (spec,
// Limits), so none are invented here. The words go through the Localizer passed in (vscode.l10n in the host).
import { english, type Localizer } from './l10n';

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
export function costFactors(request: CostInput, defaults: CostDefaults, l10n: Localizer = english): string[] {
  const reasons: string[] = [];
  const n = request.n ?? 1;
  if (n > 1) reasons.push(l10n.t('{0} images instead of one (each image is charged)', n));
  if (request.size && normalizeSize(request.size) !== normalizeSize(defaults.size)) {
    reasons.push(l10n.t('size {0} instead of the default {1}', request.size, defaults.size));
  }
  if (request.quality && HIGH_QUALITY.has(request.quality.toLowerCase())) {
    reasons.push(l10n.t('{0} quality', request.quality.toLowerCase()));
  }
  if (request.kind === 'edit' && request.hasSource !== false)
    reasons.push(request.hasMask ? l10n.t('an edit with a mask') : l10n.t('an edit of an existing image'));
  const refs = request.referenceCount ?? 0;
  if (refs > 0) reasons.push(refs === 1 ? l10n.t('1 reference image') : l10n.t('{0} reference images', refs));
  return reasons;
}

/** The confirmation text for a costlier request. */
export function costConfirmationMessage(reasons: string[], l10n: Localizer = english): string {
  return l10n.t(
    'This image request may cost more than the default one: {0}. Charges are applied when the request is sent; prices are in your gateway console.',
    reasons.join(l10n.t('; ')),
  );
}

function normalizeSize(size: string): string {
  return size.trim().toLowerCase().replace(/\s+/g, '').replace('×', 'x');
}
