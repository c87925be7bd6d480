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
  if (request.size) {
    const compared = compareSize(request.size, defaults.size);
    // A smaller or equal size is never charged more; a size that cannot be compared (not WxH) might be.
    if (compared === 'larger')
      reasons.push(l10n.t('size {0}, larger than the default {1}', request.size, defaults.size));
    else if (compared === 'unknown')
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

/** A size against the default by pixel count; 'unknown' when either is not WxH ("auto" is the default's own). */
export function compareSize(size: string, defaultSize: string): 'larger' | 'same' | 'smaller' | 'unknown' {
  const a = normalizeSize(size);
  const b = normalizeSize(defaultSize);
  if (a === b || a === 'auto') return 'same';
  const pixels = (s: string) => {
    const m = /^(\d{1,5})x(\d{1,5})$/.exec(s);
    return m ? Number(m[1]) * Number(m[2]) : undefined;
  };
  const [pa, pb] = [pixels(a), pixels(b)];
  if (pa === undefined || pb === undefined) return 'unknown';
  return pa > pb ? 'larger' : pa < pb ? 'smaller' : 'same';
}

/**
 * The quality values a model's family takes, the family's default first where it has one: GPT Image models
 * low/medium/high (and auto), DALL·E 3 standard/hd, DALL·E 2 standard only. Other families document no quality
 * parameter: only "auto" (the gateway's default), so the form never offers a choice that would be ignored.
 */
export function qualitiesFor(model: string): string[] {
  const id = model.toLowerCase();
  if (/(^|[/_-])gpt-image/.test(id) || id.startsWith('gpt-image')) return ['auto', 'low', 'medium', 'high'];
  if (/dall-?e-?3/.test(id)) return ['standard', 'hd'];
  if (/dall-?e-?2/.test(id)) return ['standard'];
  return ['auto'];
}

function normalizeSize(size: string): string {
  return size.trim().toLowerCase().replace(/\s+/g, '').replace('×', 'x');
}
