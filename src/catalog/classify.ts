// The kind of each listed model (docs/gateway-protocol.md#model-kinds). What the gateway says comes first:
// new-api's `supported_endpoint_types`, LiteLLM's mode (from GET /model/info, merged into the entry by
// src/gateway/models.ts), an Anthropic-style entry's `capabilities`; the id is only the last resort; the
// user's `models.kindOverrides` win over everything. Only 'chat' and 'image' models are offered by the
// chat and image flows; the other kinds are listed (Show Models, @gateway /models) under their kind.
import type { ModelInfo } from '../gateway/types';
import { MODEL_KINDS, type ModelKind } from '../shared/config';
import { english, type Localizer } from '../shared/l10n';

export { MODEL_KINDS };

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
  // Image models of real lists whose ids do not say so (docs/gateway-protocol.md#real-gateways).
  'mj_imagine',
  'cogview',
  'jimeng',
  'recraft',
  'ideogram',
];

/** `sd-` only counts at the start of the id or after a separator (`sd-xl`, `vendor/sd-3`), not inside a word (`usd-pro`). */
const SD_PREFIX = /(^|[/:_.-])sd-/i;
/** Tongyi Wanxiang text-to-image ids: `wanx-v1-t2i`, `wanx2.1-t2i-turbo`. */
const WANX_T2I = /wanx[^/]*t2i/i;

/** Ids of non-chat models that real lists carry next to the chat models (checked before the image patterns). */
const OTHER_ID_PATTERNS: readonly (readonly [RegExp, ModelKind])[] = [
  [/rerank/i, 'rerank'],
  [/(^|[/:_.-])text-embedding|embedding|(^|[/:_.-])bge-|(^|[/:_.-])e5-/i, 'embedding'],
  [/moderation/i, 'moderation'],
  [/(^|[/:_.-])(tts|whisper)(-|$)|(^|[/:_.-])gpt-4o(-mini)?-(transcribe|tts)/i, 'audio'],
  [/(^|[/:_.-])(sora|veo|kling)(-|$)|video/i, 'video'],
];

/** new-api endpoint types that say the model answers a chat request (constant/endpoint_type.go). */
const CHAT_ENDPOINTS = new Set(['openai', 'anthropic', 'gemini']);
/** Specific endpoint types (not the 'openai' every new-api channel claims). */
const STRONG_CHAT_ENDPOINTS = new Set(['anthropic', 'gemini']);

/** LiteLLM's `mode` (GET /model/info) → kind. */
const LITELLM_MODES: Record<string, ModelKind> = {
  chat: 'chat',
  completion: 'chat',
  image_generation: 'image',
  image_edit: 'image',
  embedding: 'embedding',
  audio_transcription: 'audio',
  audio_speech: 'audio',
  moderation: 'moderation',
  moderations: 'moderation',
  rerank: 'rerank',
  video_generation: 'video',
  // A Responses-only model is a chat model called over POST /v1/responses (hintsOf notes its endpoint type).
  responses: 'chat',
};

export interface ModelHints {
  /** The kind the gateway's own hints give, when they give one. */
  kind?: ModelKind;
  /** new-api's `supported_endpoint_types`, verbatim. */
  endpointTypes?: readonly string[];
  /** Context window (input tokens) where the gateway gives one. */
  contextTokens?: number;
  /** Output token limit where the gateway gives one. */
  outputTokens?: number;
}

type Json = Record<string, unknown>;

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;

function firstNumber(entry: Json, names: readonly string[]): number | undefined {
  for (const name of names) {
    const n = positive(entry[name]);
    if (n !== undefined) return n;
  }
  return undefined;
}

/** The endpoint types as strings, or undefined when the entry has none. */
export function endpointTypesOf(raw: ModelInfo): readonly string[] | undefined {
  const value = raw.supported_endpoint_types;
  if (!Array.isArray(value)) return undefined;
  return value.filter((t): t is string => typeof t === 'string');
}

function kindFromEndpointTypes(types: readonly string[], id: string): ModelKind | undefined {
  const lower = types.map((t) => t.toLowerCase());
  if (lower.includes('image-generation')) return 'image';
  if (lower.some((t) => STRONG_CHAT_ENDPOINTS.has(t))) return 'chat';
  if (lower.some((t) => CHAT_ENDPOINTS.has(t))) {
    // Every new-api channel claims 'openai': an embedding or speech model on an OpenAI channel says so only by id.
    return otherKindOfId(id) ?? 'chat';
  }
  // Responses-only (codex, o3-pro): a chat model, called over POST /v1/responses (gateway/dialect.ts).
  if (lower.length > 0 && lower.every((t) => t.startsWith('openai-response'))) return 'chat';
  if (lower.includes('openai-video') || lower.some((t) => t.includes('video'))) return 'video';
  if (lower.includes('embeddings')) return 'embedding';
  if (lower.some((t) => t.includes('rerank'))) return 'rerank';
  return undefined;
}

/** Everything the entry itself says about the model (no id patterns, no overrides). */
export function hintsOf(raw: ModelInfo): ModelHints {
  const entry = raw as Json;
  const hints: ModelHints = {};
  const types = endpointTypesOf(raw);
  if (types) {
    hints.endpointTypes = types;
    hints.kind = kindFromEndpointTypes(types, raw.id);
  }
  const info = typeof entry.model_info === 'object' && entry.model_info !== null ? (entry.model_info as Json) : {};
  const mode = typeof entry.mode === 'string' ? entry.mode : typeof info.mode === 'string' ? info.mode : undefined;
  if (hints.kind === undefined && mode) {
    hints.kind = LITELLM_MODES[mode.toLowerCase()];
    // LiteLLM's mode `responses` says what new-api's `openai-response` says: the dialect reads it there.
    if (mode.toLowerCase() === 'responses' && !hints.endpointTypes) hints.endpointTypes = ['openai-response'];
  }
  if (hints.kind === undefined && typeof entry.capabilities === 'object' && entry.capabilities !== null) {
    // An Anthropic-style entry with capabilities (claude-code-router's discovery): a Messages model.
    hints.kind = 'chat';
  }
  const contextTokens =
    firstNumber(entry, ['max_input_tokens', 'context_length', 'context_window', 'input_token_limit']) ??
    firstNumber(info, ['max_input_tokens']);
  const outputTokens =
    firstNumber(entry, ['max_output_tokens', 'max_tokens', 'output_token_limit']) ??
    firstNumber(info, ['max_output_tokens', 'max_tokens']);
  if (contextTokens !== undefined) hints.contextTokens = contextTokens;
  if (outputTokens !== undefined) hints.outputTokens = outputTokens;
  return hints;
}

function otherKindOfId(id: string): ModelKind | undefined {
  for (const [pattern, kind] of OTHER_ID_PATTERNS) if (pattern.test(id)) return kind;
  return undefined;
}

/** The kind an id alone suggests. */
export function kindOfId(id: string): ModelKind {
  const other = otherKindOfId(id);
  if (other) return other;
  const lower = id.toLowerCase();
  if (IMAGE_ID_PATTERNS.some((pattern) => lower.includes(pattern))) return 'image';
  return SD_PREFIX.test(lower) || WANX_T2I.test(lower) ? 'image' : 'chat';
}

/** The kind of a model: an override (exact id, case-insensitive), then the gateway's hints, then the id. */
export function classifyModel(model: string | ModelInfo, overrides: Record<string, ModelKind> = {}): ModelKind {
  const raw = typeof model === 'string' ? { id: model } : model;
  return findOverride(raw.id, overrides) ?? hintsOf(raw).kind ?? kindOfId(raw.id);
}

function findOverride(id: string, overrides: Record<string, ModelKind>): ModelKind | undefined {
  if (Object.prototype.hasOwnProperty.call(overrides, id)) return overrides[id];
  const lower = id.toLowerCase();
  for (const [key, kind] of Object.entries(overrides)) {
    if (key.toLowerCase() === lower) return kind;
  }
  return undefined;
}

export type KindSplit<T> = { chat: T[]; image: T[]; other: { kind: ModelKind; models: T[] }[] };

/** A snapshot's models (kinds already decided) grouped the same way. */
export function groupByKind<T extends { kind: ModelKind }>(models: readonly T[]): KindSplit<T> {
  const byKind = new Map<ModelKind, T[]>();
  for (const model of models) byKind.set(model.kind, [...(byKind.get(model.kind) ?? []), model]);
  return splitFromMap(byKind);
}

function splitFromMap<T>(byKind: Map<ModelKind, T[]>): KindSplit<T> {
  const other = MODEL_KINDS.filter((k) => k !== 'chat' && k !== 'image' && byKind.has(k)).map((kind) => ({
    kind,
    models: byKind.get(kind)!,
  }));
  return { chat: byKind.get('chat') ?? [], image: byKind.get('image') ?? [], other };
}

/** Models split by kind, in list order; `other` holds the kinds no chat or image flow offers, in MODEL_KINDS order. */
export function splitByKind<T extends ModelInfo>(
  models: readonly T[],
  overrides: Record<string, ModelKind> = {},
): KindSplit<T> {
  const byKind = new Map<ModelKind, T[]>();
  for (const model of models) {
    const kind = classifyModel(model, overrides);
    const list = byKind.get(kind) ?? [];
    list.push(model);
    byKind.set(kind, list);
  }
  return splitFromMap(byKind);
}

/** The kind's name in words, for the lists that show models no flow offers. */
export function kindLabel(kind: ModelKind, l10n: Localizer = english): string {
  const labels: Record<ModelKind, string> = {
    chat: l10n.t('chat'),
    image: l10n.t('image'),
    embedding: l10n.t('embedding'),
    audio: l10n.t('audio (speech, transcription)'),
    video: l10n.t('video'),
    rerank: l10n.t('rerank'),
    moderation: l10n.t('moderation'),
  };
  return labels[kind];
}

/** "2 embedding, 1 audio (speech, transcription)": the kinds no flow offers, with their counts. */
export function otherKindsSummary(other: KindSplit<unknown>['other'], l10n: Localizer = english): string {
  return other.map((group) => `${group.models.length} ${kindLabel(group.kind, l10n)}`).join(', ');
}
