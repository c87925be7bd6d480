// Gateway dialects: how a family of real gateways shapes its error bodies, request-id headers and SSE
// streams. The emulator's behaviour (routes, keys, billing, faults) stays the same; a dialect only
// changes what goes on the wire, so the client's suites can run against every shape users meet.
import type { IncomingMessage } from 'node:http';
import type { OtherModelKind, Protocol, RequestLogEntry, RouteName } from '../types';

/** What a dialect reads of the request it answers: a part of http.ts's Ctx, declared here so the two files do not import each other. */
export interface DialectCtx {
  req: IncomingMessage;
  requestId: string;
  entry: RequestLogEntry;
  style: 'messages' | 'openai';
}

export const DIALECT_NAMES = [
  'new-api',
  'one-api',
  'sub2api',
  'litellm',
  'router',
  'html-proxy',
  'openrouter',
  'portkey',
] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/** Selects the dialect of one request (overrides emulator.json's "dialect"); "default" = none. */
/** Which family's balance routes a gateway serves: new-api/one-api billing, OpenRouter's key route, LiteLLM's key info. */
export type AccountShape = 'new-api' | 'openrouter' | 'litellm';

export const DIALECT_HEADER = 'x-emulator-dialect';

/** An error the emulator is about to send, before any dialect shapes it. */
export interface DialectError {
  status: number;
  /** The emulator's own message (specific, English). */
  message: string;
  /** Machine code: a gateway code (INSUFFICIENT_BALANCE), an OpenAI-style code, or 'not_found' for an unknown route. */
  code?: string;
  /** 'gateway': raised by the gateway itself (auth, group, balance, validation, its own limiter);
   *  'upstream': the provider behind the gateway failed (status faults). */
  source: 'gateway' | 'upstream';
  /** 'flat': one of the gateway's own {code, message} errors (403 codes). */
  flat?: boolean;
  /** Extra headers (Retry-After, ...). */
  headers: Record<string, string>;
}

/** A reply a dialect wants written instead of the emulator's default body. */
export interface DialectReply {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
  /** Drop the emulator's request-id headers (a proxy page or a framework reply carries none). */
  noRequestId?: boolean;
}

/** SSE habits of a gateway. Unset fields keep the emulator's default (the upstream Messages format). */
export interface SseHabits {
  /** Events written as bare `data:` lines without their `event:` line. */
  bareEvents?: ReadonlySet<string> | 'all';
  /** Events this gateway never sends (they are skipped, and do not count towards the drop/error faults). */
  omitEvents?: ReadonlySet<string>;
  /** Raw frames written before message_start (e.g. pings while the gateway waits for a slot). */
  leadingFrames?: string[];
  /** A comment line (": PING") written after every `every` events. */
  commentPing?: { text: string; every: number };
  /** A mid-stream error frame in the gateway's own shape (replaces `event: error` + Messages body). */
  errorFrame?(type: string, message: string, requestId: string): string;
  /** message_start carries zero usage; the real counts only come in message_delta (input_tokens included). */
  usageOnlyInDelta?: boolean;
  /** The last input_json_delta of a tool_use block is sent after that block's content_block_stop. */
  lateToolFragment?: boolean;
  /** Chat-completions streams end with `data: [DONE]` even when cut (the drop fault): one-api's relay does. */
  doneAfterCut?: boolean;
}

/** One model of the key's group as a list shows it. */
export interface ListedModel {
  id: string;
  displayName: string;
  protocol: Protocol;
  kind?: OtherModelKind;
  /** The upstream's published prices (UpstreamModel.listPrices), for lists that carry OpenRouter's `pricing`. */
  listPrices?: { input: number; output: number; image?: number };
  /** Unix seconds. */
  created: number;
  /** UpstreamModel.vision, where the config says. */
  vision?: boolean;
  /** UpstreamModel.contextWindow, where the config says. */
  contextWindow?: number;
  /** UpstreamModel.thinks: the model reasons (lists that carry OpenRouter's `supported_parameters` name 'reasoning'). */
  thinks?: boolean;
}

export interface Dialect {
  name: DialectName;
  /** The GET /v1/models body this gateway answers (undefined: the emulator's own hybrid shape). */
  modelList?(ctx: DialectCtx, models: readonly ListedModel[]): unknown;
  /** GET /model/info (LiteLLM's per-model mode and limits); gateways without it answer 404. */
  modelInfo?(models: readonly ListedModel[]): unknown;
  /** The reply when the key's group has no route to the model (the emulator's own: 403 MODEL_NOT_AVAILABLE). */
  modelUnavailable?(ctx: DialectCtx, model: string, group: string): DialectReply;
  /** Routes this gateway has but answers 501 "not implemented" (after the key check). */
  notImplemented?: ReadonlySet<RouteName>;
  /** Request-id headers this gateway sends, replacing the emulator's `request-id` and `x-request-id`. Undefined: keep them. */
  requestIdHeaders?(requestId: string): Record<string, string>;
  /** The account routes it serves (src/emulator/routes/account.ts); undefined: none. */
  account?: AccountShape;
  /** The key is read from `Authorization: Bearer` only, on every route (one-api's middleware/auth.go). */
  bearerOnly?: boolean;
  /** Routes this gateway does not have at all: they answer like an unknown path. */
  missingRoutes?: ReadonlySet<string>;
  /** The gateway refuses POST /v1/messages for this upstream model before relaying it (its reply), else undefined. */
  refuseMessages?(ctx: DialectCtx, upstream: { messagesConversion?: boolean }): DialectReply | undefined;
  /** A request this gateway refuses before anything else (Portkey without its provider header), else undefined. */
  refuseRequest?(ctx: DialectCtx): DialectReply | undefined;
  /** The error reply in this gateway's shape, or undefined to keep the emulator's default body. */
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined;
  sse: SseHabits;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): DialectReply => ({
  status,
  body: JSON.stringify(body),
  contentType: 'application/json; charset=utf-8',
  headers,
});

/** Messages-style error type for a status, as the upstream API names them. */
export function messagesType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    500: 'api_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}
