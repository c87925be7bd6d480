// GET /v1/models: both list shapes of docs/gateway-protocol.md#models-list, paginated with after_id while has_more.
import type { ClientContext } from './context';
import { protocolError, readJson, send, type CallSpec } from './http';
import type { ModelInfo, RequestOptions } from './types';

const MAX_PAGES = 50;
type Json = Record<string, unknown>;

/** Lists the models of the calling key, all pages, unknown fields kept, duplicates dropped. */
export async function listModels(ctx: ClientContext, options?: RequestOptions): Promise<ModelInfo[]> {
  const seen = new Map<string, ModelInfo>();
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = after === undefined ? '' : `?after_id=${encodeURIComponent(after)}`;
    const spec: CallSpec = {
      method: 'GET',
      route: 'GET /v1/models',
      url: ctx.baseUrl + '/v1/models' + query,
      auth: 'both',
      signal: options?.signal,
      onWait: options?.onWait,
    };
    const ex = await send(ctx, spec);
    const body = await readJson(ctx, spec, ex);
    const entries = listOf(body);
    if (!entries) throw protocolError(ctx, spec, ex, 'the model list has no data array');
    for (const entry of entries) {
      const model = modelOf(entry);
      if (model && !seen.has(model.id)) seen.set(model.id, model);
    }
    const next = nextCursor(body, entries);
    if (next === undefined || next === after) break;
    after = next;
  }
  return [...seen.values()];
}

function listOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Json;
  if (Array.isArray(b.data)) return b.data;
  if (Array.isArray(b.models)) return b.models;
  return undefined;
}

function modelOf(entry: unknown): ModelInfo | undefined {
  if (typeof entry === 'string' && entry.trim() !== '') return { id: entry.trim() };
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Json;
  const id = typeof e.id === 'string' && e.id.trim() !== '' ? e.id.trim() : undefined;
  return id === undefined ? undefined : { ...e, id };
}

/** The after_id of the next page: only while has_more is true. */
function nextCursor(body: unknown, entries: unknown[]): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Json;
  if (b.has_more !== true || entries.length === 0) return undefined;
  if (typeof b.last_id === 'string' && b.last_id !== '') return b.last_id;
  return modelOf(entries[entries.length - 1])?.id;
}
