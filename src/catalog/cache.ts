// The persisted shape of the model-list cache and its pure helpers (unit-tested). Entries are keyed
// by (key fingerprint, base URL): never by the key itself.
import type { ModelInfo } from '../gateway/types';
import type { ModelKind } from '../shared/config';
import type { CatalogModel, CatalogSnapshot } from '../platform/services';
import { classifyModel, hintsOf } from './classify';

export interface CacheEntry {
  keyFingerprint: string;
  baseUrl: string;
  fetchedAt: number;
  models: ModelInfo[];
  /** GET /v1/models answered 404: this gateway has no list route (the declared models stand in). */
  unlisted?: boolean;
}

export type CacheTable = Record<string, CacheEntry>;

export const MAX_CACHE_ENTRIES = 20;

export function cacheKey(keyFingerprint: string, baseUrl: string): string {
  return `${keyFingerprint}@${baseUrl}`;
}

export function isFresh(entry: { fetchedAt: number }, lifetimeMs: number, now: number): boolean {
  return lifetimeMs > 0 && now - entry.fetchedAt >= 0 && now - entry.fetchedAt < lifetimeMs;
}

/**
 * A snapshot with kinds computed from the current overrides and the declared ids appended (so a settings
 * change applies without refetching). Declared ids already in the list keep the listed entry.
 */
export function toSnapshot(
  entry: CacheEntry,
  overrides: Record<string, ModelKind>,
  declared: readonly string[] = [],
): CatalogSnapshot {
  const models: CatalogModel[] = entry.models.map((raw) => {
    const hints = hintsOf(raw);
    return {
      id: raw.id,
      kind: classifyModel(raw, overrides),
      raw,
      ...(hints.endpointTypes ? { endpointTypes: hints.endpointTypes } : {}),
      ...(hints.contextTokens !== undefined ? { contextTokens: hints.contextTokens } : {}),
      ...(hints.outputTokens !== undefined ? { outputTokens: hints.outputTokens } : {}),
    };
  });
  const listed = new Set(entry.models.map((model) => model.id));
  for (const id of declared) {
    if (!listed.has(id)) models.push({ id, kind: classifyModel(id, overrides), raw: { id }, declared: true });
  }
  return {
    keyFingerprint: entry.keyFingerprint,
    baseUrl: entry.baseUrl,
    fetchedAt: entry.fetchedAt,
    models,
    ...(entry.unlisted ? { listUnavailable: true } : {}),
  };
}

/** Adds an entry and drops the oldest beyond MAX_CACHE_ENTRIES. Returns a new table. */
export function withEntry(table: CacheTable, entry: CacheEntry, max = MAX_CACHE_ENTRIES): CacheTable {
  const next: CacheTable = { ...table, [cacheKey(entry.keyFingerprint, entry.baseUrl)]: entry };
  const keys = Object.keys(next).sort((a, b) => next[a].fetchedAt - next[b].fetchedAt);
  for (const key of keys.slice(0, Math.max(0, keys.length - max))) delete next[key];
  return next;
}

/** Reads a persisted table defensively (older or damaged state becomes an empty table). */
export function readTable(value: unknown): CacheTable {
  if (typeof value !== 'object' || value === null) return {};
  const table: CacheTable = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const candidate = entry as Partial<CacheEntry> | null;
    if (!candidate || typeof candidate.keyFingerprint !== 'string' || typeof candidate.baseUrl !== 'string') continue;
    if (typeof candidate.fetchedAt !== 'number' || !Array.isArray(candidate.models)) continue;
    const models = candidate.models.filter((model): model is ModelInfo => typeof (model as ModelInfo)?.id === 'string');
    table[key] = {
      keyFingerprint: candidate.keyFingerprint,
      baseUrl: candidate.baseUrl,
      fetchedAt: candidate.fetchedAt,
      models,
      ...(candidate.unlisted === true ? { unlisted: true } : {}),
    };
  }
  return table;
}

/** True when two model lists hold the same ids in the same order. */
export function sameIds(a: readonly { id: string }[], b: readonly { id: string }[]): boolean {
  return a.length === b.length && a.every((model, i) => model.id === b[i].id);
}
