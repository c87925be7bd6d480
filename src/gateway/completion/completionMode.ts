// How a model is asked for a code completion ("mode"), chosen per model like the chat dialects (dialect.ts):
// the user's setting, else a hint from the model's name, else what a refusal taught, else the default. Pure.
// Facts (docs/gateway-protocol.md#code-completion): OpenAI-style fill-in-the-middle is POST /v1/completions with
// `prompt` + `suffix` (DeepSeek beta, vLLM/SGLang coder models, SiliconFlow; relayed by one-api and new-api);
// Codestral is served on Mistral's POST /v1/fim/completions; any chat model can fill a marked hole (slower, costlier).

export type CompletionMode = 'fim' | 'mistral-fim' | 'chat';
export const COMPLETION_MODES: readonly CompletionMode[] = ['fim', 'mistral-fim', 'chat'];

export type CompletionModeReason = 'setting' | 'model-name' | 'learned' | 'default';

export interface CompletionModeKnowledge {
  /** modelGateway.completions.mode for this model (or for every model). */
  override?: CompletionMode;
  /** What a refusal of /v1/completions taught (kept per key fingerprint + base URL + model by the host). */
  learned?: CompletionMode;
}

export interface CompletionModeDecision {
  mode: CompletionMode;
  reason: CompletionModeReason;
}

// Model families trained with fill-in-the-middle tokens (their vendors' model cards): Qwen2.5/3-Coder, StarCoder,
// DeepSeek-Coder (and DeepSeek's chat models on its /beta FIM route), CodeLlama, CodeGemma, Codestral.
const MISTRAL_FIM_NAME = /codestral/i;
// A DeepSeek reasoner (deepseek-reasoner, -r1, gateways' renamings) is not one: DeepSeek's FIM serves its chat model.
const FIM_NAME =
  /coder|starcoder|deepseek(?![\w.-]*(reasoner|-r1\b))|codellama|code-llama|codegemma|santacoder|granite-.*code/i;

/** True when the model's name says it was trained for fill-in-the-middle (the offer recommends these first). */
export function isFimModelName(model: string): boolean {
  return MISTRAL_FIM_NAME.test(model) || FIM_NAME.test(model);
}

/** The mode a model's name suggests, or undefined when the name says nothing. */
export function modeOfModelName(model: string): CompletionMode | undefined {
  if (MISTRAL_FIM_NAME.test(model)) return 'mistral-fim';
  if (FIM_NAME.test(model)) return 'fim';
  return undefined;
}

/** The mode for a model: the setting, else what was learned, else its name, else the chat fill (works anywhere). */
export function chooseCompletionMode(model: string, k: CompletionModeKnowledge): CompletionModeDecision {
  if (k.override) return { mode: k.override, reason: 'setting' };
  if (k.learned) return { mode: k.learned, reason: 'learned' };
  const byName = modeOfModelName(model);
  if (byName) return { mode: byName, reason: 'model-name' };
  return { mode: 'chat', reason: 'default' };
}

/** Reads a setting value ('fim' | 'mistral-fim' | 'chat', any case); undefined otherwise. */
export function parseCompletionMode(value: unknown): CompletionMode | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return (COMPLETION_MODES as readonly string[]).includes(v) ? (v as CompletionMode) : undefined;
}

/**
 * The setting `modelGateway.completions.mode`: one mode for every model ("fim"), or per model
 * ({"codestral-latest": "mistral-fim", "*": "chat"}). Undefined when it names nothing usable for `model`.
 */
export function modeFromSetting(value: unknown, model: string): CompletionMode | undefined {
  if (typeof value === 'string') return parseCompletionMode(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const table = value as Record<string, unknown>;
  return parseCompletionMode(table[model]) ?? parseCompletionMode(table['*']);
}

/** The facts of a failed request this module reads (a GatewayError has them all). */
export interface FillRefusalFacts {
  status?: number;
  serverMessage?: string;
  serverCode?: string;
  outcomeUnknown?: boolean;
}

// The route is there but this model does not fill a middle, said before any processing: OpenAI's 404 "This is a chat
// model and not supported in the v1/completions endpoint. Did you mean to use v1/chat/completions?", the emulator's
// 400 "model 'x' does not support fill-in-the-middle", vLLM's 400 for a model without FIM tokens ("suffix is not
// currently supported"). The model can still chat: the chat fill is the way.
const FILL_REFUSED =
  /fill-in-the-middle|\bFIM\b|suffix (is )?not (currently )?supported|chat model and not supported in the v1\/completions|not supported in the v1\/(fim\/)?completions/i;

/**
 * True when a fill-in-the-middle route was refused as a route before any processing (a gateway without it:
 * sub2api's "404 page not found", a 405, a 501), so the chat fill may be sent once instead and remembered.
 * Also a 400/404 saying this model does not fill a middle there (FILL_REFUSED). A 404 about the model
 * (model_not_found) is not: the chat fill would fail too.
 */
export function isFillRouteRefusal(e: FillRefusalFacts): boolean {
  if (e.outcomeUnknown) return false;
  if ((e.status === 400 || e.status === 404) && FILL_REFUSED.test(e.serverMessage ?? '')) return true;
  if (e.status !== 404 && e.status !== 405 && e.status !== 501) return false;
  const words = `${e.serverCode ?? ''} ${e.serverMessage ?? ''}`;
  if (/model_not_found|\bmodel\b|模型/i.test(words.replace(/\/v1\/\S*/g, ''))) return false;
  return true;
}
