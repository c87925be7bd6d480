// GET /v1/models: the models of the calling key's group, in a hybrid of the two shapes seen in the wild,
// or in the shape of the request's dialect (new-api's header switch, LiteLLM's bare list, …).
// GET /model/info: LiteLLM's per-model mode and limits (only in the litellm dialect).

import type { ListedModel } from '../dialects/types';
import { sendError } from '../errors';
import { sendJson, type Ctx } from '../http';

const CREATED = 1_735_689_600; // 2025-01-01, fixed so replies are deterministic

function listedModels(ctx: Ctx): ListedModel[] {
  const { groups, models } = ctx.state.config;
  return Object.entries(groups[ctx.key!.group].models).map(([id, upstream]) => ({
    id,
    displayName: models[upstream]?.displayName ?? id,
    protocol: models[upstream]?.protocol ?? 'messages',
    ...(models[upstream]?.kind ? { kind: models[upstream].kind } : {}),
    ...(models[upstream]?.listPrices ? { listPrices: models[upstream].listPrices } : {}),
    ...(models[upstream]?.vision !== undefined ? { vision: models[upstream].vision } : {}),
    ...(models[upstream]?.contextWindow ? { contextWindow: models[upstream].contextWindow } : {}),
    ...(models[upstream]?.thinks ? { thinks: true } : {}),
    created: CREATED,
  }));
}

export function handleModels(ctx: Ctx): void {
  if (ctx.faults.noModelList) return sendError(ctx, 404, 'Not found: /v1/models', 'not_found');
  const listed = listedModels(ctx);
  const shaped = ctx.dialect?.modelList?.(ctx, listed);
  if (shaped !== undefined) return sendJson(ctx, 200, shaped);
  let data = listed.map((m) => ({
    id: m.id,
    type: 'model',
    object: 'model',
    display_name: m.displayName,
    created: m.created,
    created_at: new Date(m.created * 1000).toISOString(),
    owned_by: 'model-gateway-emulator',
    ...pricingOf(m.listPrices),
    ...capabilitiesOf(m),
  }));
  const after = ctx.url.searchParams.get('after_id');
  if (after) data = data.slice(data.findIndex((m) => m.id === after) + 1);
  const limit = Number(ctx.url.searchParams.get('limit') ?? NaN);
  const hasMore = Number.isInteger(limit) && limit > 0 && data.length > limit;
  if (hasMore) data = data.slice(0, limit);
  sendJson(ctx, 200, {
    object: 'list',
    data,
    has_more: hasMore,
    first_id: data[0]?.id ?? null,
    last_id: data[data.length - 1]?.id ?? null,
  });
}

/**
 * What a chat model's entry says about it, as real lists do: OpenRouter's `context_length` (the whole window) and
 * `supported_parameters` ('reasoning' for a model that reasons), and new-api's `supported_endpoint_types` for a
 * Responses-only model (its channel serves nothing else, so a client calls it over POST /v1/responses).
 */
function capabilitiesOf(m: ListedModel): Record<string, unknown> {
  if (m.protocol !== 'messages' || (m.kind && m.kind !== 'responses')) return {};
  return {
    ...(m.contextWindow ? { context_length: m.contextWindow } : {}),
    supported_parameters: [
      'max_tokens',
      'temperature',
      'stop',
      'tools',
      'tool_choice',
      ...(m.thinks ? ['reasoning'] : []),
    ],
    ...(m.kind === 'responses' ? { supported_endpoint_types: ['openai-response', 'openai-response-compact'] } : {}),
  };
}

/** OpenRouter's `pricing`: USD per token as decimal strings. */
function pricingOf(p: { input: number; output: number; image?: number } | undefined): Record<string, unknown> {
  if (!p) return {};
  const perToken = (perMillion: number): string => String(perMillion / 1e6);
  return {
    pricing: {
      prompt: perToken(p.input),
      completion: perToken(p.output),
      ...(p.image !== undefined ? { image: String(p.image) } : {}),
    },
  };
}

export function handleModelInfo(ctx: Ctx): void {
  const body = ctx.dialect?.modelInfo?.(listedModels(ctx));
  if (body === undefined) return sendError(ctx, 404, `Not found: GET ${ctx.entry.path}.`, 'not_found');
  sendJson(ctx, 200, body);
}
