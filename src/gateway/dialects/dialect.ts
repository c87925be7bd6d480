// Which wire protocol ("dialect") a model is called with: Messages (POST /v1/messages), chat-completions
// (POST /v1/chat/completions) or Responses (POST /v1/responses). Pure: the host supplies what it knows, this
// module decides (docs/gateway-protocol.md#dialects). The spec makes a model's protocol support one of the three
// things that decide whether a key may call it; real gateways differ (REAL-GATEWAYS.md): one-api has no Messages
// route, new-api refuses some channels' Messages conversion, new-api's list names each model's endpoint types,
// codex models answer only on /v1/responses.

import { DIALECTS, endpointTypeNames, isDialect, type Dialect } from '../../shared/dialects';

// The names and routes are the table's (shared/dialects.ts); this module decides which one a model gets.
export { DIALECTS, type Dialect };

/** Why a model got its dialect, in the order the rules are tried. */
export type DialectReason = 'setting' | 'model-list' | 'learned' | 'default';

export interface DialectKnowledge {
  /** The user's override (modelGateway.models.dialects), when it names this model. */
  override?: Dialect;
  /** The model list's endpoint types for this model (new-api's supported_endpoint_types), as sent. */
  endpointTypes?: readonly string[];
  /** What an earlier refusal taught (persisted per key fingerprint + base URL + model). */
  learned?: Dialect;
  /** The gateway's model list answered and names this model: a 404/405 of a chat route is about the route. */
  listed?: boolean;
  /** Every chat model the key's list names is of one family (familyOfModelIds): what its key group serves. */
  groupFamily?: GroupFamily;
}

/** The family of a key group's models (sub2api serves one platform per group: Anthropic, OpenAI, …). */
export type GroupFamily = 'openai' | 'anthropic';

const OPENAI_IDS = /^(gpt-|chatgpt|o[1-9](-|$)|codex|text-davinci|davinci|babbage)/i;
const ANTHROPIC_IDS = /^claude/i;

/** The family every id belongs to (a vendor prefix such as `openai/` is ignored), or undefined for a mixed list. */
export function familyOfModelIds(ids: readonly string[]): GroupFamily | undefined {
  const bare = ids.map((id) => id.slice(id.lastIndexOf('/') + 1));
  if (bare.length === 0) return undefined;
  if (bare.every((id) => OPENAI_IDS.test(id))) return 'openai';
  if (bare.every((id) => ANTHROPIC_IDS.test(id))) return 'anthropic';
  return undefined;
}

export interface DialectDecision {
  dialect: Dialect;
  reason: DialectReason;
}

/**
 * The dialect for a model: the user's setting, else the model list, else what the gateway taught, else Messages.
 * A list's claim is evidence, not proof: what a refusal taught wins over it when the list itself names that
 * dialect too (new-api lists `["anthropic","openai"]` for a channel that then refuses the Messages conversion).
 */
export function chooseDialect(k: DialectKnowledge): DialectDecision {
  if (k.override) return { dialect: k.override, reason: 'setting' };
  const listed = dialectsOfEndpointTypes(k.endpointTypes);
  if (k.learned && listed.includes(k.learned)) return { dialect: k.learned, reason: 'learned' };
  if (listed.length) return { dialect: listed[0], reason: 'model-list' };
  if (k.learned) return { dialect: k.learned, reason: 'learned' };
  return { dialect: 'messages', reason: 'default' };
}

/**
 * The dialects a request may move on to when its dialect's route is refused before any processing, in order.
 * The setting is the user's word: nothing else is tried. The list: the other dialects it names. Otherwise the
 * dialects after the chosen one (Messages → chat-completions → Responses).
 */
export function fallbacksOf(k: DialectKnowledge, decision: DialectDecision): Dialect[] {
  if (decision.reason === 'setting') return [];
  const listed = dialectsOfEndpointTypes(k.endpointTypes);
  const order = listed.length ? listed : DIALECTS;
  const at = order.indexOf(decision.dialect);
  return order.slice(at + 1);
}

/**
 * new-api's endpoint types (constant/endpoint_type.go) as dialects, in the table's order (most native first):
 * `anthropic` → Messages, `openai` → chat-completions, `openai-response…` → Responses (shared/dialects.ts; LiteLLM's
 * /model/info mode `responses` arrives here as `openai-response`, see catalog/classify.ts). Nothing usable (no list,
 * an empty list, only image or embedding types) → []: the list does not decide.
 */
export function dialectsOfEndpointTypes(types: readonly string[] | undefined): Dialect[] {
  if (!types || types.length === 0) return [];
  const set = [...new Set(types.map((t) => String(t).trim().toLowerCase()))];
  return DIALECTS.filter((d) => set.some((t) => endpointTypeNames(d, t)));
}

/** The list's first dialect for a model (see dialectsOfEndpointTypes), or undefined when the list does not decide. */
export function dialectOfEndpointTypes(types: readonly string[] | undefined): Dialect | undefined {
  return dialectsOfEndpointTypes(types)[0];
}

/** Reads a setting value (a dialect's name, any case, spaces trimmed); undefined otherwise. */
export function parseDialect(value: unknown): Dialect | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return isDialect(v) ? v : undefined;
}

/** The facts of a failed request this module reads (a GatewayError has them all). */
export interface RefusalFacts {
  status?: number;
  serverCode?: string;
  serverMessage?: string;
  /** Set when a 200 stream was cut: the gateway had started answering. */
  cut?: unknown;
  outcomeUnknown?: boolean;
}

// Words gateways use when the Messages route or its conversion does not exist for a model. Matched only on
// errors that came back before any stream byte, so nothing was generated (nor billed).
const REFUSAL_WORDS =
  /invalid url|not supported|unsupported|not implemented|no route|route not found|cannot post|not allowed|endpoint/i;
// A 404 body that is about the model (not the route) is not a route refusal: the other dialect would fail too.
const MODEL_WORDS = /model_not_found|not_found_error|\bmodel\b|模型/i;

/**
 * True when a failed POST /v1/messages is a refusal of the route itself that happened before any processing,
 * so the same request may be sent once on chat-completions:
 * - 404 / 405 / 501 with no body, a bare reason phrase, or a body about the URL or endpoint (one-api:
 *   "Invalid URL (POST /v1/messages)"), but not one about the model;
 * - new-api's own 500 `new_api_error` (its conversion refusal: relay/claude_handler.go), or any 5xx whose
 *   message says the endpoint is not supported / not implemented.
 * Anything else (a 5xx without such words, a timeout, a cut stream, an error after headers) is never re-sent.
 */
export function isMessagesRouteRefusal(e: RefusalFacts): boolean {
  return isRouteRefusal(e);
}

/** The same rules for any chat route (a route, not a model, was refused; nothing was processed). */
export function isRouteRefusal(e: RefusalFacts): boolean {
  if (e.status === undefined || e.cut || e.outcomeUnknown) return false;
  const message = e.serverMessage ?? '';
  const code = e.serverCode ?? '';
  if (e.status === 404 || e.status === 405 || e.status === 501) {
    if (message === '') return !MODEL_WORDS.test(code);
    if (MODEL_WORDS.test(code) && !/invalid url/i.test(message)) return false;
    if (/invalid url/i.test(message)) return true;
    return REFUSAL_WORDS.test(message) && !MODEL_WORDS.test(message.replace(/\/v1\/\S*/g, ''));
  }
  if (e.status >= 500 && e.status < 600) {
    if (/not (supported|implemented)|unsupported|not support/i.test(message)) return true;
    // sub2api (newer): 503 endpoint_not_supported "No accounts in this group support the requested endpoint".
    if (ENDPOINT_UNSUPPORTED.test(message) || ENDPOINT_UNSUPPORTED.test(code)) return true;
    return code === 'new_api_error' && /convert|format|endpoint|channel type|relay mode|not/i.test(message);
  }
  return false;
}

const ENDPOINT_UNSUPPORTED = /endpoint_not_supported|support the requested endpoint/i;
// sub2api's account selection (service/gateway_service.go): "No available accounts: no available [OpenAI |Gemini ]
// accounts supporting model: X" — no account was picked, so nothing was processed or billed.
const NO_ACCOUNT = /no available (?:(openai|anthropic|claude|gemini) )?accounts supporting model/i;

/**
 * sub2api found no account of the key's group for the model on this route (503, before any processing): the family
 * the error names ("no available OpenAI accounts"), else `{}`; undefined when it is not that error.
 */
export function noAccountFor(e: RefusalFacts): { family?: GroupFamily } | undefined {
  if (e.status === undefined || e.cut || e.outcomeUnknown || e.status < 500 || e.status >= 600) return undefined;
  const m = NO_ACCOUNT.exec(e.serverMessage ?? '');
  if (!m) return undefined;
  const named = m[1]?.toLowerCase();
  return named === 'openai'
    ? { family: 'openai' }
    : named === 'anthropic' || named === 'claude'
      ? { family: 'anthropic' }
      : {};
}

// Words that send a model to Responses: OpenAI's and new-api's 404 "This model is only supported in v1/responses and
// not in v1/chat/completions." (also on /v1/messages), the emulator's 400 "model 'x' is a responses model: it is not
// served on /v1/messages"; gateways forward them.
const RESPONSES_WORDS =
  /v1\/responses|responses api|responses(-only)? model|only supported in .*responses|use the responses/i;
// A route that does not serve this model, said before any processing: it names the route (or "endpoint") and says the
// model is not served there. OpenAI's 404 for codex models on chat-completions "This is not a chat model and thus not
// supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?", copilot-api's "model X is not
// accessible via the /chat/completions endpoint" (unsupported_api_for_model). The word "model" does not veto these:
// the model exists, this route is the wrong one.
const ROUTE_NAMED =
  /\/?v1\/(chat\/completions|messages|responses|completions)\b|\/chat\/completions\b|\/messages\b|\bendpoint\b/i;
const NOT_SERVED_HERE =
  /not a chat model|\b(not|only) (supported|served|accessible|available) (in|on|via|through|by|over)\b|unsupported_api_for_model/i;

/** True when the request's route was refused for this model before any processing (a 400/404/405 that names the route). */
export function refusesModelOnRoute(e: RefusalFacts): boolean {
  if (e.status === undefined || e.cut || e.outcomeUnknown) return false;
  if (e.status !== 400 && e.status !== 404 && e.status !== 405) return false;
  const message = e.serverMessage ?? '';
  return ROUTE_NAMED.test(message) && (NOT_SERVED_HERE.test(message) || NOT_SERVED_HERE.test(e.serverCode ?? ''));
}

/** True when a refusal (a 4xx before any processing) points the model at Responses, whatever route refused it. */
export function pointsToResponses(e: RefusalFacts): boolean {
  if (e.status === undefined || e.cut || e.outcomeUnknown || e.status < 400 || e.status >= 500) return false;
  return RESPONSES_WORDS.test(e.serverMessage ?? '');
}

/** A chat route refused before any processing, by any of the rules above (advice names the setting for it). */
export function isChatRouteRefusal(e: RefusalFacts): boolean {
  return isRouteRefusal(e) || refusesModelOnRoute(e) || pointsToResponses(e);
}

/**
 * True when a failed request on `from` proves the route refused it before any processing, so the same request
 * may go once to `to`. An answer that points at Responses ("only supported in v1/responses", "is a responses
 * model") allows Responses only, from any dialect. An answer that says this route does not serve the model allows
 * the next dialect. To Responses from chat-completions also a 404/405 of the route while the model list works
 * (`listed`). Otherwise the route-refusal rules above.
 */
export function refusalAllows(from: Dialect, to: Dialect, e: RefusalFacts, listed: boolean): boolean {
  if (from === to || e.status === undefined || e.cut || e.outcomeUnknown) return false;
  if (pointsToResponses(e)) return to === 'responses';
  if (refusesModelOnRoute(e)) return true;
  if (to === 'responses' && from === 'chat-completions')
    return listed && (e.status === 404 || e.status === 405) && isRouteRefusal(e);
  return isRouteRefusal(e);
}

/**
 * The dialect a refused request moves to, or undefined: Responses when the answer points there (once, from any
 * dialect, unless the user's setting chose the dialect), else the plan's next one when the refusal allows it.
 */
export function nextDialect(
  from: Dialect,
  remaining: readonly Dialect[],
  e: RefusalFacts,
  plan: { listed: boolean; pinned?: boolean; tried: readonly Dialect[]; groupFamily?: GroupFamily },
): Dialect | undefined {
  if (plan.pinned) return undefined;
  if (pointsToResponses(e)) return plan.tried.includes('responses') ? undefined : 'responses';
  // sub2api has no account for the model on Messages, and the error or the key's list proves the group is an OpenAI
  // one: nothing was processed, so the request goes once to the OpenAI dialects. Without that proof it is not re-sent
  // (a 5xx is never re-sent blindly); advice names the setting.
  const noAccount = noAccountFor(e);
  if (noAccount) {
    const family = noAccount.family ?? (plan.listed ? plan.groupFamily : undefined);
    if (from !== 'messages' || family !== 'openai') return undefined;
    return remaining.find((d) => d !== 'messages' && !plan.tried.includes(d));
  }
  const to = remaining.find((d) => !plan.tried.includes(d));
  return to !== undefined && refusalAllows(from, to, e, plan.listed) ? to : undefined;
}
