// Which wire protocol ("dialect") a model is called with: Messages (POST /v1/messages) or chat-completions
// (POST /v1/chat/completions). Pure: the host supplies what it knows, this module decides
// (docs/gateway-protocol.md#dialects). The spec makes a model's protocol support one of the three things that
// decide whether a key may call it; real gateways differ (REAL-GATEWAYS.md): one-api has no Messages route,
// new-api refuses some channels' Messages conversion, new-api's list names each model's endpoint types.

export type Dialect = 'messages' | 'chat-completions';
export const DIALECTS: readonly Dialect[] = ['messages', 'chat-completions'];

/** Why a model got its dialect, in the order the rules are tried. */
export type DialectReason = 'setting' | 'model-list' | 'learned' | 'default';

export interface DialectKnowledge {
  /** The user's override (modelGateway.models.dialects), when it names this model. */
  override?: Dialect;
  /** The model list's endpoint types for this model (new-api's supported_endpoint_types), as sent. */
  endpointTypes?: readonly string[];
  /** What an earlier refusal of /v1/messages taught (persisted per key fingerprint + base URL + model). */
  learned?: Dialect;
}

export type DialectDecision =
  | { dialect: Dialect; reason: DialectReason }
  /** The list says the model speaks only the Responses API: neither dialect of ours can call it. */
  | { dialect: 'responses-only'; reason: 'model-list' };

/** The dialect for a model: the user's setting, else the model list, else what the gateway taught, else Messages. */
export function chooseDialect(k: DialectKnowledge): DialectDecision {
  if (k.override) return { dialect: k.override, reason: 'setting' };
  const fromList = dialectOfEndpointTypes(k.endpointTypes);
  if (fromList) return { dialect: fromList, reason: 'model-list' };
  if (k.learned) return { dialect: k.learned, reason: 'learned' };
  return { dialect: 'messages', reason: 'default' };
}

/**
 * new-api's endpoint types (constant/endpoint_type.go): `anthropic` → Messages; `openai` without `anthropic` →
 * chat-completions; only `openai-response…` → Responses-only. Nothing usable (no list, an empty list, only
 * image or embedding types) → undefined: the list does not decide.
 */
export function dialectOfEndpointTypes(types: readonly string[] | undefined): Dialect | 'responses-only' | undefined {
  if (!types || types.length === 0) return undefined;
  const set = new Set(types.map((t) => String(t).trim().toLowerCase()));
  if (set.has('anthropic')) return 'messages';
  if (set.has('openai')) return 'chat-completions';
  if ([...set].some((t) => t.startsWith('openai-response'))) return 'responses-only';
  return undefined;
}

/** Reads a setting value ('messages' | 'chat-completions', any case, spaces trimmed); undefined otherwise. */
export function parseDialect(value: unknown): Dialect | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return (DIALECTS as readonly string[]).includes(v) ? (v as Dialect) : undefined;
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
    return code === 'new_api_error' && /convert|format|endpoint|channel type|relay mode|not/i.test(message);
  }
  return false;
}
