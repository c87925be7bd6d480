// GET /v1/models: the models of the calling key's group, in a hybrid of the two shapes seen in the wild.

import { sendError } from '../errors';
import { sendJson, type Ctx } from '../http';

const CREATED = 1_735_689_600; // 2025-01-01, fixed so replies are deterministic

export function handleModels(ctx: Ctx): void {
  if (ctx.faults.noModelList) return sendError(ctx, 404, 'Not found: /v1/models', 'not_found');
  const { groups, models } = ctx.state.config;
  const visible = Object.entries(groups[ctx.key!.group].models);
  const own = ctx.dialect?.modelList?.(
    visible.map(([id, upstream]) => ({ id, displayName: models[upstream]?.displayName ?? id })),
    CREATED,
  );
  if (own !== undefined) return sendJson(ctx, 200, own);
  let data = visible.map(([id, upstream]) => ({
    id,
    type: 'model',
    object: 'model',
    display_name: models[upstream]?.displayName ?? id,
    created: CREATED,
    created_at: new Date(CREATED * 1000).toISOString(),
    owned_by: 'model-gateway-emulator',
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
