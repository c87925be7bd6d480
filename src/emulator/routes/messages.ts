// POST /v1/messages: JSON or SSE replies in the upstream Messages format.

import { charge, logUsage, readJsonBody, resolveModel, uncachedInput } from '../access';
import { replyPrice } from '../billing';
import { interleavedToolEvents } from '../models/interleave';
import { breakpointCount, DEFAULT_PROMPT_CACHE, MAX_BREAKPOINTS, type CacheUsage } from '../promptCache';
import { sendError } from '../errors';
import { refusesImages } from '../models/vision';
import { header, sendJson, sendText, sleep, type Ctx } from '../http';
import { blockJson, planReply, signatureFor, type FinalBlock, type ReplyPlan } from '../reply';
import { pacing, SseWriter } from '../sse';
import { newId } from '../state';

export async function handleMessages(ctx: Ctx): Promise<void> {
  if (!checkVersion(ctx)) return;
  const body = await readJsonBody(ctx);
  if (!body || !validate(ctx, body)) return;
  const model = resolveModel(ctx, body.model, 'messages');
  if (!model) return;
  // new-api: a channel without a Claude conversion is refused before it is relayed (and before billing).
  const refusal = ctx.dialect?.refuseMessages?.(ctx, ctx.state.config.models[model.upstream] ?? {});
  if (refusal) return sendText(ctx, refusal.status, refusal.body, refusal.contentType, refusal.headers ?? {});
  if (refusesImages(ctx, model, body.messages)) return;
  const plan = planReply(body, model.visible, ctx.state.config.models[model.upstream]?.agent === true);
  // Prompt caching: only requests with cache_control breakpoints are split (per key and upstream model).
  const cacheConfig = { ...DEFAULT_PROMPT_CACHE, ...ctx.state.config.messages.promptCache };
  const cached = ctx.state.promptCache.account(ctx.key!.key, model.upstream, body, cacheConfig);
  // Charged at request time for the reply it will send, at the prices its model list publishes (billing.ts).
  const inputs = cached ?? uncachedInput(plan.inputTokens);
  const listPrices = ctx.state.config.models[model.upstream]?.listPrices;
  if (
    !charge(
      ctx,
      replyPrice(listPrices, { ...inputs, output_tokens: plan.outputTokens }, ctx.state.config.prices.message),
    )
  )
    return;
  // LiteLLM states each call's cost in a response header (litellm/proxy/common_request_processing.py).
  if (ctx.dialect?.account === 'litellm') ctx.res.setHeader('x-litellm-response-cost', String(ctx.entry.charged ?? 0));
  const id = newId('msg_emu_');
  if (body.stream === true) {
    ctx.entry.stream = true;
    await streamReply(ctx, id, model.visible, plan, cached);
    return;
  }
  sendJson(ctx, 200, {
    id,
    type: 'message',
    role: 'assistant',
    model: model.visible,
    content: plan.blocks.map(blockJson),
    stop_reason: plan.stopReason,
    stop_sequence: plan.stopSequence,
    usage: usage(ctx, plan, plan.outputTokens, cached),
  });
}

/** The usage object; the final one (message_delta, JSON body) is also written to the request log. */
function usage(
  ctx: Ctx | undefined,
  plan: ReplyPlan,
  output: number,
  cached: CacheUsage | undefined,
): Record<string, number> {
  const u = cached ?? uncachedInput(plan.inputTokens);
  if (ctx) logUsage(ctx, u, output);
  // OpenRouter adds the billed cost (in credits, i.e. USD) to the final usage object.
  const out: Record<string, number> = { ...u, output_tokens: output };
  if (ctx?.dialect?.account === 'openrouter') out.cost = ctx.entry.charged ?? 0;
  return out;
}

function checkVersion(ctx: Ctx): boolean {
  const { versionHeader, acceptedVersions } = ctx.state.config.messages;
  const value = header(ctx.req, versionHeader);
  if (!value) {
    sendError(ctx, 400, `${versionHeader}: header is required (a version date such as ${acceptedVersions[0]}).`);
    return false;
  }
  if (!acceptedVersions.includes(value)) {
    sendError(
      ctx,
      400,
      `${versionHeader}: '${value}' is not a supported version. Supported: ${acceptedVersions.join(', ')}.`,
    );
    return false;
  }
  return true;
}

function validate(ctx: Ctx, body: Record<string, unknown>): boolean {
  const fail = (m: string): boolean => {
    sendError(ctx, 400, m);
    return false;
  };
  if (typeof body.model !== 'string' || !body.model) return fail('model: Field required');
  ctx.entry.model = body.model;
  const max = body.max_tokens;
  if (typeof max === 'number') ctx.entry.maxTokens = max;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
    return fail('max_tokens: must be a positive integer');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return fail('messages: at least one message is required');
  for (const [i, m] of messages.entries()) {
    const role = (m as { role?: unknown })?.role;
    if (role !== 'user' && role !== 'assistant') return fail(`messages.${i}.role: must be 'user' or 'assistant'`);
    const content = (m as { content?: unknown }).content;
    if (typeof content !== 'string' && !Array.isArray(content))
      return fail(`messages.${i}.content: must be a string or an array of blocks`);
  }
  if ((messages[0] as { role: string }).role !== 'user')
    return fail('messages: the first message must use the user role');
  const marks = breakpointCount(body);
  // Anthropic's wording, which clients match to retry without cache_control.
  if (marks > MAX_BREAKPOINTS)
    return fail(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks}.`);
  return true;
}

/** Streams the plan as SSE, paced at tokensPerSecond; stops as soon as the client goes away. */
async function streamReply(
  ctx: Ctx,
  id: string,
  model: string,
  plan: ReplyPlan,
  cached: CacheUsage | undefined,
): Promise<void> {
  const sse = new SseWriter(ctx);
  const { perDelta, pause } = pacing(ctx);
  const habits = ctx.dialect?.sse ?? {};
  if (
    !sse.send('message_start', {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: habits.usageOnlyInDelta ? { input_tokens: 0, output_tokens: 0 } : usage(undefined, plan, 1, cached),
      },
    })
  )
    return;
  let emitted = 0;
  for (const [index, block] of plan.blocks.entries()) {
    if (plan.interleave && block.type === 'tool_use') {
      // @interleave: every tool block from here on, fragments mixed across blocks (interleave.ts).
      for (const ev of interleavedToolEvents(plan.blocks, index)) {
        if (pause > 0 && ev.type === 'content_block_delta') await sleep(pause / perDelta);
        if (!sse.send(ev.type, ev)) return;
        if (ev.type === 'content_block_delta') emitted++;
      }
      break;
    }
    if (!sse.send('content_block_start', { type: 'content_block_start', index, content_block: startBlock(block) }))
      return;
    if (index === 0 && !sse.send('ping', { type: 'ping' })) return;
    // Tool input goes one JSON piece per delta, so clients must concatenate partial_json.
    const step = block.type === 'tool_use' ? 1 : perDelta;
    // Some routers close a tool block before its last input fragment (see dialects/router.ts).
    const late =
      habits.lateToolFragment && block.type === 'tool_use' && block.pieces.length > 1 ? block.pieces.at(-1) : undefined;
    const pieces = late === undefined ? block.pieces : block.pieces.slice(0, -1);
    for (let i = 0; i < pieces.length; i += step) {
      if (pause > 0) await sleep((pause * step) / perDelta);
      const piece = pieces.slice(i, i + step).join('');
      if (!sse.send('content_block_delta', { type: 'content_block_delta', index, delta: delta(block, piece) })) return;
      emitted += Math.min(step, pieces.length - i);
    }
    if (
      block.type === 'thinking' &&
      !sse.send('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: signatureFor(block.pieces.join('')) },
      })
    )
      return;
    if (!sse.send('content_block_stop', { type: 'content_block_stop', index })) return;
    if (late !== undefined) {
      if (!sse.send('content_block_delta', { type: 'content_block_delta', index, delta: delta(block, late) })) return;
      emitted++;
    }
  }
  if (
    !sse.send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: plan.stopReason, stop_sequence: plan.stopSequence },
      usage: usage(ctx, plan, Math.max(emitted, plan.outputTokens), cached),
    })
  )
    return;
  if (!sse.send('message_stop', { type: 'message_stop' })) return;
  sse.end();
}

function startBlock(b: FinalBlock): Record<string, unknown> {
  if (b.type === 'thinking') return { type: 'thinking', thinking: '', signature: '' };
  if (b.type === 'tool_use') return { type: 'tool_use', id: b.id, name: b.name, input: {} };
  return { type: 'text', text: '' };
}

function delta(b: FinalBlock, piece: string): Record<string, unknown> {
  if (b.type === 'thinking') return { type: 'thinking_delta', thinking: piece };
  if (b.type === 'tool_use') return { type: 'input_json_delta', partial_json: piece };
  return { type: 'text_delta', text: piece };
}
