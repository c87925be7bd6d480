// GET /v1/models: both list shapes of docs/gateway-protocol.md#models-list, paginated with after_id while has_more.
// Asked with `Authorization: Bearer` only (the spec does not say which header the route takes; the spec's
// service and every gateway of docs/gateway-protocol.md#real-gateways read it): with x-api-key + anthropic-version new-api answers
// its Anthropic-shaped list without `supported_endpoint_types`, the hints the catalog classifies by.
// A LiteLLM proxy (its `x-litellm-*` response headers) lists ids only; its GET /model/info (free, one call)
// gives each model's mode and limits, merged into the entries so the catalog caches them with the list.
import type { ClientContext } from './context';
import { protocolError, readJson, send, type CallSpec, type Headers } from './http';
import type { ModelInfo, RequestOptions } from './types';

const MAX_PAGES = 50;
type Json = Record<string, unknown>;

/** Lists the models of the calling key, all pages, unknown fields kept, duplicates dropped. */
export async function listModels(ctx: ClientContext, options?: RequestOptions): Promise<ModelInfo[]> {
  const seen = new Map<string, ModelInfo>();
  let after: string | undefined;
  let liteLlm = false;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = after === undefined ? '' : `?after_id=${encodeURIComponent(after)}`;
    const spec: CallSpec = {
      method: 'GET',
      route: 'GET /v1/models',
      url: ctx.baseUrl + '/v1/models' + query,
      auth: 'bearer',
      signal: options?.signal,
      onWait: options?.onWait,
    };
    const ex = await send(ctx, spec);
    if (isLiteLlm(ex.headers)) liteLlm = true;
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
  const models = [...seen.values()];
  return liteLlm ? withLiteLlmInfo(ctx, models, options) : models;
}

/** LiteLLM marks its replies with x-litellm-* headers (x-litellm-call-id, x-litellm-version, …). */
function isLiteLlm(headers: Headers): boolean {
  return Object.keys(headers).some((name) => name.toLowerCase().startsWith('x-litellm-'));
}

/** Fields of LiteLLM's model_info copied onto a listed entry (the entry's own fields win). */
const LITELLM_INFO_FIELDS = ['mode', 'max_input_tokens', 'max_output_tokens', 'supports_vision'] as const;

/**
 * The list with LiteLLM's GET /model/info merged in. A failure of that call (an older proxy, a key without
 * the right) leaves the list as it was: the kinds then come from the ids.
 */
async function withLiteLlmInfo(
  ctx: ClientContext,
  models: ModelInfo[],
  options?: RequestOptions,
): Promise<ModelInfo[]> {
  const spec: CallSpec = {
    method: 'GET',
    route: 'GET /model/info',
    url: ctx.baseUrl + '/model/info',
    auth: 'bearer',
    signal: options?.signal,
  };
  let body: unknown;
  try {
    body = await readJson(ctx, spec, await send(ctx, spec));
  } catch (error) {
    if (options?.signal?.aborted) throw error;
    return models;
  }
  const info = new Map<string, Json>();
  for (const entry of listOf(body) ?? []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Json;
    const details = typeof e.model_info === 'object' && e.model_info !== null ? (e.model_info as Json) : undefined;
    // Several deployments can share a model_name: the first one that says its mode counts.
    if (typeof e.model_name === 'string' && details && !info.has(e.model_name) && typeof details.mode === 'string')
      info.set(e.model_name, details);
  }
  return models.map((model) => {
    const details = info.get(model.id);
    if (!details) return model;
    const merged: ModelInfo = { ...model };
    for (const field of LITELLM_INFO_FIELDS) {
      if (merged[field] === undefined && details[field] !== undefined && details[field] !== null)
        merged[field] = details[field];
    }
    return merged;
  });
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
