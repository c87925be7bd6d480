// POST /v1/completions with `suffix` (OpenAI-style fill-in-the-middle, as vLLM, SGLang, DeepSeek's /beta and
// SiliconFlow serve it for coder models) and POST /v1/fim/completions (Mistral's Codestral route). Served by the
// scripted coder model (../coder.ts) for models marked `fim`; other models are refused with a 400 (the route
// exists, the model does not do fill-in-the-middle). A configurable latency (completions.latencyMs) comes before
// the answer, so a client that closes its socket meanwhile is logged as aborted.
import { charge, logUsage, readJsonBody, resolveModel, uncachedInput } from '../access';
import { replyPrice } from '../billing';
import { coderFill } from '../models/coder';
import { sendError } from '../errors';
import { sendJson, sleep, type Ctx } from '../http';
import { countTokens } from '../models/text';
import { newId } from '../state';

export async function handleCompletions(ctx: Ctx, mistral: boolean): Promise<void> {
  const body = await readJsonBody(ctx);
  if (!body) return;
  if (typeof body.prompt !== 'string') {
    sendError(ctx, 400, 'prompt: a string is required.', 'invalid_request');
    return;
  }
  const model = resolveModel(ctx, body.model, 'messages');
  if (!model) return;
  if (ctx.state.config.models[model.upstream]?.fim !== true) {
    sendError(ctx, 400, `model '${model.visible}' does not support fill-in-the-middle.`, 'model_not_supported');
    return;
  }
  const suffix = typeof body.suffix === 'string' ? body.suffix : '';
  const stops = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop.map(String) : [];
  const maxTokens = typeof body.max_tokens === 'number' && body.max_tokens > 0 ? body.max_tokens : 16;
  const fill = coderFill(body.prompt, suffix, maxTokens, stops);
  const promptTokens = countTokens(body.prompt) + countTokens(suffix);
  // The fill's tokens at the listed prices (billing.ts#replyPrice); an unpriced model: a tenth of a message.
  const price = replyPrice(
    ctx.state.config.models[model.upstream]?.listPrices,
    { ...uncachedInput(promptTokens), output_tokens: fill.outputTokens },
    ctx.state.config.prices.message / 10,
  );
  if (!charge(ctx, price)) return;
  const latency = ctx.state.config.completions?.latencyMs ?? 0;
  if (latency > 0) await sleep(latency);
  if (ctx.res.destroyed) return;
  logUsage(ctx, uncachedInput(promptTokens), fill.outputTokens);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: fill.outputTokens,
    total_tokens: promptTokens + fill.outputTokens,
  };
  const created = Math.floor(Date.now() / 1000);
  if (mistral) {
    // Mistral's FIM answer is shaped like a chat completion.
    sendJson(ctx, 200, {
      id: newId('fim-emu'),
      object: 'chat.completion',
      created,
      model: model.visible,
      choices: [{ index: 0, message: { role: 'assistant', content: fill.text }, finish_reason: fill.finish }],
      usage,
    });
    return;
  }
  sendJson(ctx, 200, {
    id: newId('cmpl-emu'),
    object: 'text_completion',
    created,
    model: model.visible,
    choices: [{ index: 0, text: fill.text, logprobs: null, finish_reason: fill.finish }],
    usage,
  });
}
