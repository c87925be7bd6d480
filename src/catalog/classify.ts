// Chat vs image classification of model ids. The model list only promises `id`, so the kind is
// guessed from the id (docs/gateway-protocol.md#model-kinds) and the user's overrides win.
import type { ModelKind } from '../shared/config';

/** Substrings of an id that mark an image model (case-insensitive). */
export const IMAGE_ID_PATTERNS: readonly string[] = [
  'image',
  'dall-e',
  'dalle',
  'gpt-image',
  'flux',
  'imagen',
  'midjourney',
  'stable-diffusion',
  'seedream',
  'kolors',
];

/** `sd-` only counts at the start of the id or after a separator (`sd-xl`, `vendor/sd-3`), not inside a word (`usd-pro`). */
const SD_PREFIX = /(^|[/:_.-])sd-/i;

/** The kind of a model id: an override (exact id, case-insensitive) first, then the id patterns. */
export function classifyModel(id: string, overrides: Record<string, ModelKind> = {}): ModelKind {
  const override = findOverride(id, overrides);
  if (override) return override;
  const lower = id.toLowerCase();
  if (IMAGE_ID_PATTERNS.some((pattern) => lower.includes(pattern))) return 'image';
  return SD_PREFIX.test(lower) ? 'image' : 'chat';
}

function findOverride(id: string, overrides: Record<string, ModelKind>): ModelKind | undefined {
  if (Object.prototype.hasOwnProperty.call(overrides, id)) return overrides[id];
  const lower = id.toLowerCase();
  for (const [key, kind] of Object.entries(overrides)) {
    if (key.toLowerCase() === lower) return kind;
  }
  return undefined;
}

/** Ids split by kind, in list order. */
export function splitByKind<T extends { id: string }>(
  models: readonly T[],
  overrides: Record<string, ModelKind> = {},
): { chat: T[]; image: T[] } {
  const chat: T[] = [];
  const image: T[] = [];
  for (const model of models) (classifyModel(model.id, overrides) === 'image' ? image : chat).push(model);
  return { chat, image };
}
