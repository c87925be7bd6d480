// GET /v1/models: the models of the calling key's group, in a hybrid of the two shapes seen in the wild.

import { sendError } from '../errors';
import { sendJson, type Ctx } from '../http';

const CREATED = 1_735_689_600; // 2025-01-01, fixed so replies are deterministic

export function handleModels(ctx: Ctx): void {
  if (ctx.faults.noModelList) return sendError(ctx, 404, 'Not found: /v1/models', 'not_found');
  const { groups, models } = ctx.state.config;
  const visible = Object.entries(groups[ctx.key!.group].models);
  let data = visible.map(([id, upstream]) => ({
    id,
    type: 'model',
    object: 'model',
    display_name: models[upstream]?.displayName ?? id,
    created: CREATED,
    created_at: new Date(CREATED * 1000).toISOString(),
    owned_by: 'model-gateway-emulator',
    ...pricingOf(models[upstream]?.listPrices),
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
