// The account routes real gateways serve for a key (docs/gateway-protocol.md#balance-and-cost), from the
// key's balance and what it spent here. Free: nothing is charged. Amounts are in the emulator's price unit (USD).
import { sendJson, type Ctx } from '../http';

const spent = (ctx: Ctx): number => ctx.key!.spent ?? 0;
const total = (ctx: Ctx): number => Math.round((ctx.key!.balance + spent(ctx)) * 1e6) / 1e6;

/** new-api / one-api: the key's total (remaining + used) in every limit field, as one-api's billing.go does. */
export function handleSubscription(ctx: Ctx): void {
  const amount = total(ctx);
  sendJson(ctx, 200, {
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: amount,
    hard_limit_usd: amount,
    system_hard_limit_usd: amount,
    access_until: 0,
  });
}

/** new-api / one-api: the used amount × 100 (OpenAI's cents convention). */
export function handleUsage(ctx: Ctx): void {
  sendJson(ctx, 200, { object: 'list', total_usage: Math.round(spent(ctx) * 100 * 1e6) / 1e6 });
}

/** OpenRouter GET /api/v1/key. */
export function handleKey(ctx: Ctx): void {
  sendJson(ctx, 200, {
    data: {
      label: ctx.key!.name,
      limit: total(ctx),
      usage: spent(ctx),
      limit_remaining: ctx.key!.balance,
      is_free_tier: false,
    },
  });
}

/** LiteLLM GET /key/info: {key, info:{spend, max_budget, ...}}. */
export function handleKeyInfo(ctx: Ctx): void {
  sendJson(ctx, 200, {
    key: `sk-...${ctx.key!.key.slice(-4)}`,
    info: { key_alias: ctx.key!.name, spend: spent(ctx), max_budget: total(ctx), models: [] },
  });
}
