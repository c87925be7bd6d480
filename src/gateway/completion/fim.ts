// Code completion on the wire (docs/gateway-protocol.md#code-completion): fill-in-the-middle on POST /v1/completions
// (`prompt` + `suffix`, OpenAI-style: DeepSeek /beta, vLLM, SGLang, SiliconFlow, relayed by one-api and new-api),
// Mistral's POST /v1/fim/completions (Codestral), or the chat fill over the model's chat dialect (chatFill.ts).
// Completions run while the user types, so unlike chat: no retries, no waiting out a 429 (the request fails at once
// and the caller skips the completion), a short timeout, and the caller's abort closes the socket at once.
// Nothing is ever replayed: the only second request is the chat fill after a provable refusal of the route.
import { reportUsage, type ClientContext } from '../context';
import { RATE_LIMIT_PROFILES } from '../rateLimitPolicy';
import { isObj } from '../json';
import { usageOf } from '../dialects/openAiFamily';
import { CHAT_FILL_SYSTEM, chatFillPrompt, extractFill } from './chatFill';
import { isFillRouteRefusal, type CompletionMode } from './completionMode';
import { decideDialect, planFor, ROUTES as DIALECT_ROUTES } from '../dialects/dialectPlan';
import { GatewayError } from '../errors/errors';
import { protocolError, readJson, send, type CallSpec } from '../http';
import { createMessage } from '../createMessage';
import type { CodeCompletion, CodeCompletionRequest, RequestOptions } from '../types';

const ROUTES: Record<Exclude<CompletionMode, 'chat'>, { route: string; path: string }> = {
  fim: { route: 'POST /v1/completions', path: '/v1/completions' },
  'mistral-fim': { route: 'POST /v1/fim/completions', path: '/v1/fim/completions' },
};

/** The context a completion runs with: the client's, without retries or 429 waits, its own timeout, its own usage kind. */
function completionContext(ctx: ClientContext, timeoutMs: number): ClientContext {
  return {
    ...ctx,
    // Never waited out while typing (the completions' 429 profile: no wait, not even in the client's 429 queue).
    maxRetries: RATE_LIMIT_PROFILES.completions.maxWaits,
    maxRetryWaitMs: 0,
    timeoutMs: Math.min(ctx.timeoutMs, timeoutMs),
    onUsage: ctx.onUsage ? (record) => ctx.onUsage?.({ ...record, kind: 'completion' }) : undefined,
  };
}

/** The JSON body of a fill-in-the-middle request (both routes take the same fields). */
export function fimBody(r: CodeCompletionRequest): Record<string, unknown> {
  const prompt = r.context ? `${r.context}\n${r.prefix}` : r.prefix;
  const body: Record<string, unknown> = {
    model: r.model,
    prompt,
    suffix: r.suffix,
    max_tokens: r.maxTokens,
    temperature: r.temperature ?? 0,
    stream: false,
  };
  const stop = stopsOf(r);
  if (stop.length) body.stop = stop;
  return body;
}

/** Stop sequences: the caller's, plus the end of the line for a single-line fill. */
function stopsOf(r: CodeCompletionRequest): string[] {
  const stops = [...(r.stop ?? [])];
  if (r.singleLine && !stops.includes('\n')) stops.unshift('\n');
  // OpenAI's /v1/completions takes at most 4 stop sequences.
  return stops.slice(0, 4);
}

/**
 * Template tokens of the fill-in-the-middle formats their vendors document (Qwen2.5-Coder's model card and
 * tokenizer: <|fim_prefix|> <|fim_suffix|> <|fim_middle|> <|fim_pad|> <|file_sep|> <|repo_name|> <|endoftext|>;
 * StarCoder: <fim_prefix> <fim_suffix> <fim_middle> <file_sep> <|endoftext|>; DeepSeek-Coder: <｜fim▁begin｜>
 * <｜fim▁hole｜> <｜fim▁end｜> <｜end▁of▁sentence｜>; Codestral: [SUFFIX] [PREFIX] [MIDDLE] </s>). The server applies the
 * template when `suffix` is given; a server or relay that lets one leak into the text means the model went on past the
 * fill, so the fill ends there.
 */
export const FIM_TEMPLATE_TOKENS: readonly string[] = [
  '<|fim_prefix|>',
  '<|fim_suffix|>',
  '<|fim_middle|>',
  '<|fim_pad|>',
  '<|file_sep|>',
  '<|repo_name|>',
  '<|endoftext|>',
  '<fim_prefix>',
  '<fim_suffix>',
  '<fim_middle>',
  '<file_sep>',
  '<｜fim▁begin｜>',
  '<｜fim▁hole｜>',
  '<｜fim▁end｜>',
  '<｜end▁of▁sentence｜>',
  '[SUFFIX]',
  '[PREFIX]',
  '[MIDDLE]',
  '</s>',
];

/** The fill up to the first leaked template token (see FIM_TEMPLATE_TOKENS). */
export function cutAtTemplateToken(text: string): string {
  let end = text.length;
  for (const t of FIM_TEMPLATE_TOKENS) {
    const at = text.indexOf(t);
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}

/** The fill's text from a /v1/completions (`choices[0].text`) or Mistral FIM (`choices[0].message.content`) answer. */
export function fillTextOf(body: unknown): string | undefined {
  if (!isObj(body) || !Array.isArray(body.choices)) return undefined;
  const choice = body.choices[0] as unknown;
  if (!isObj(choice)) return '';
  if (typeof choice.text === 'string') return choice.text;
  const msg = isObj(choice.message) ? choice.message : undefined;
  return typeof msg?.content === 'string' ? msg.content : '';
}

/** Asks for one completion; throws a GatewayError (kind `aborted` when the caller's signal fired). */
export async function completeCode(
  parent: ClientContext,
  request: CodeCompletionRequest,
  options?: RequestOptions,
): Promise<CodeCompletion> {
  const ctx = completionContext(parent, request.timeoutMs ?? 15_000);
  if (request.mode === 'chat') return chatFill(ctx, request, options);
  try {
    return await fimCompletion(ctx, request, request.mode, options);
  } catch (error) {
    if (!(request.allowChatFallback && error instanceof GatewayError && isFillRouteRefusal(error))) throw error;
    ctx.logger?.info(
      ctx.redact(
        `Model ${request.model}: the gateway refused ${error.route} (HTTP ${error.status ?? '?'}) before processing it; completions use the chat fill instead.`,
      ),
    );
    try {
      // Before the chat fill goes out: a keystroke may abort it, and the refusal must not be met again.
      request.onFellBack?.({ status: error.status });
    } catch {
      // A failing listener must not break the completion.
    }
    const filled = await chatFill(ctx, request, options);
    return { ...filled, fellBack: { status: error.status } };
  }
}

async function fimCompletion(
  ctx: ClientContext,
  request: CodeCompletionRequest,
  mode: Exclude<CompletionMode, 'chat'>,
  options?: RequestOptions,
): Promise<CodeCompletion> {
  const { route, path } = ROUTES[mode];
  const body = JSON.stringify(fimBody(request));
  const spec: CallSpec = {
    method: 'POST',
    route,
    url: ctx.baseUrl + path,
    auth: 'bearer',
    body,
    model: request.model,
    signal: options?.signal,
  };
  const ex = await send(ctx, spec);
  const answer = await readJson(ctx, spec, ex);
  const raw = fillTextOf(answer);
  if (raw === undefined) throw protocolError(ctx, spec, ex, 'the reply is not a completion (no choices)');
  const usage = (isObj(answer) ? usageOf(answer.usage) : undefined) ?? { input_tokens: 0, output_tokens: 0 };
  const model = isObj(answer) && typeof answer.model === 'string' && answer.model ? answer.model : request.model;
  reportUsage(ctx, { route, model, usage });
  let text = cutAtTemplateToken(raw);
  if (request.singleLine) text = text.split('\n', 1)[0];
  return { text, mode, route, model, usage, bytesSent: Buffer.byteLength(body) };
}

async function chatFill(
  ctx: ClientContext,
  request: CodeCompletionRequest,
  options?: RequestOptions,
): Promise<CodeCompletion> {
  const prompt = chatFillPrompt(request);
  const messagesRequest = {
    model: request.model,
    system: CHAT_FILL_SYSTEM,
    // A chat model writes more words than a coder model for the same fill: twice the budget, still small.
    max_tokens: request.maxTokens * 2,
    temperature: 0,
    messages: [{ role: 'user' as const, content: prompt }],
  };
  // The client's chat dialect for this model (Messages or chat-completions), its fallback and what it learned.
  const message = await createMessage(ctx, messagesRequest, { signal: options?.signal }, planFor(ctx, request.model));
  const answer = message.content
    .filter((b): b is { type: 'text'; text: string } => b.type === 'text')
    .map((b) => b.text)
    .join('');
  // After a fallback of the chat dialect the decision already says the dialect that answered (learned).
  const route = DIALECT_ROUTES[decideDialect(ctx, request.model).dialect];
  return {
    text: extractFill(answer, request.prefix, request.suffix, request.singleLine),
    mode: 'chat',
    route,
    model: message.model || request.model,
    usage: message.usage,
    bytesSent: Buffer.byteLength(JSON.stringify(messagesRequest)),
  };
}
