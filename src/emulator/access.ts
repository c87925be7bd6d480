// Checks shared by the API routes: JSON bodies, model visibility and protocol support, balance.

import { inputCostTokens, replyPrice } from './billing';
import { sendError, sendFlat } from './errors';
import { BodyTooLarge, header, readBody, sendText, type Ctx } from './http';
import type { CacheUsage } from './promptCache';
import type { Protocol } from './types';

/** Reads and parses a JSON object body; answers 413 / 400 itself and returns undefined then. */
export async function readJsonBody(ctx: Ctx): Promise<Record<string, unknown> | undefined> {
  const type = header(ctx.req, 'content-type');
  // Tolerant of a missing content type (many proxies drop it), strict about a wrong one.
  if (type && !/^application\/(?:[\w.+-]*\+)?json\b/i.test(type)) {
    ctx.req.resume();
    sendError(
      ctx,
      400,
      `content-type: expected application/json, got '${type.split(';')[0]}'.`,
      'invalid_content_type',
    );
    return undefined;
  }
  const raw = await readRaw(ctx);
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    sendError(ctx, 400, `Malformed JSON in request body: ${(err as Error).message}`, 'invalid_json');
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    sendError(ctx, 400, 'Request body must be a JSON object.', 'invalid_request');
    return undefined;
  }
  return parsed as Record<string, unknown>;
}

/** Reads the raw body within the configured limit; answers 413 itself. */
export async function readRaw(ctx: Ctx): Promise<Buffer | undefined> {
  try {
    return await readBody(ctx.req, ctx.state.config.maxBodyBytes);
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      const mb = (ctx.state.config.maxBodyBytes / 1024 / 1024).toFixed(0);
      sendError(ctx, 413, `Request body too large: the limit is ${mb} MB.`, 'request_too_large');
    } else if (!ctx.res.headersSent) {
      sendError(ctx, 400, 'Could not read the request body.', 'invalid_request');
    }
    return undefined;
  }
}

export interface ResolvedModel {
  visible: string;
  upstream: string;
}

/**
 * Maps a visible model id through the key's group: 403 when the group does not list it,
 * 400 when the model exists but speaks the other protocol (chat model on an image route and vice versa).
 */
export function resolveModel(ctx: Ctx, model: unknown, protocol: Protocol): ResolvedModel | undefined {
  if (typeof model !== 'string' || !model) {
    sendError(ctx, 400, 'model: Field required (a model id from GET /v1/models).', 'missing_model');
    return undefined;
  }
  ctx.entry.model = model;
  const group = ctx.state.config.groups[ctx.key!.group];
  const upstream = ctx.faults.modelUnavailable ? undefined : group.models[model];
  if (!upstream) {
    const reply = ctx.dialect?.modelUnavailable?.(ctx, model, ctx.key!.group);
    if (reply) {
      sendText(ctx, reply.status, reply.body, reply.contentType, reply.headers ?? {});
      return undefined;
    }
    sendFlat(
      ctx,
      403,
      'MODEL_NOT_AVAILABLE',
      `model not available for this group: '${model}' is not in key group '${ctx.key!.group}'. Use a model id from GET /v1/models.`,
    );
    return undefined;
  }
  ctx.entry.upstreamModel = upstream;
  const kind = ctx.state.config.models[upstream]?.protocol;
  const other = ctx.state.config.models[upstream]?.kind;
  if (other === 'responses' && ctx.route === 'chat.completions') {
    // OpenAI's words for a Responses-only model (codex, o3-pro) on chat-completions; gateways forward them.
    sendError(
      ctx,
      404,
      'This model is only supported in v1/responses and not in v1/chat/completions.',
      'model_not_found',
    );
    return undefined;
  }
  if (other && !(other === 'responses' && ctx.route === 'responses')) {
    sendError(
      ctx,
      400,
      `model '${model}' is a ${other} model: it is not served on ${ctx.entry.path}.`,
      'model_not_supported',
    );
    return undefined;
  }
  if (kind !== protocol) {
    const what = kind === 'images' ? 'an image model' : 'a chat (Messages) model';
    const route = protocol === 'images' ? 'the image routes' : 'POST /v1/messages';
    sendError(ctx, 400, `model '${model}' is ${what} and does not support ${route}.`, 'model_not_supported');
    return undefined;
  }
  return { visible: model, upstream };
}

/** What a planned reply without prompt caching costs (chat-completions, Responses): billing.ts#replyPrice. */
export function planPrice(ctx: Ctx, upstream: string, plan: { inputTokens: number; outputTokens: number }): number {
  const usage = { ...uncachedInput(plan.inputTokens), output_tokens: plan.outputTokens };
  return replyPrice(ctx.state.config.models[upstream]?.listPrices, usage, ctx.state.config.prices.message);
}

/** A reply's input without prompt caching (chat-completions, Responses, fills), in the Messages usage's names. */
export function uncachedInput(inputTokens: number): CacheUsage {
  return { input_tokens: inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

/** Writes a reply's token usage to the request log; the input's cache writes and reads weigh as billing.ts prices them. */
export function logUsage(ctx: Ctx, input: CacheUsage, output: number): void {
  ctx.entry.usage = {
    input: input.input_tokens,
    cacheWrite: input.cache_creation_input_tokens,
    cacheRead: input.cache_read_input_tokens,
    output,
    inputCostTokens: inputCostTokens(input),
  };
}

/** Charges the key at request time; answers 403 INSUFFICIENT_BALANCE when the balance does not cover it. */
export function charge(ctx: Ctx, amount: number): boolean {
  const key = ctx.key!;
  const price = Math.round(amount * 1e6) / 1e6;
  if (key.balance < price) {
    sendFlat(
      ctx,
      403,
      'INSUFFICIENT_BALANCE',
      `Insufficient balance: this request costs ${price.toFixed(4)}, the key's balance is ${key.balance.toFixed(4)}. Top up in the console.`,
    );
    return false;
  }
  key.balance = Math.round((key.balance - price) * 1e6) / 1e6;
  key.spent = Math.round(((key.spent ?? 0) + price) * 1e6) / 1e6;
  ctx.entry.charged = price;
  return true;
}
