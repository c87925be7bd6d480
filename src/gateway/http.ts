// One HTTP exchange with the gateway: headers per route, timeouts, retries (docs/gateway-protocol.md#headers, #server-errors), error
// bodies, logging and support records. Routes build on send() and the body readers below.
import type { Dispatcher, FormData } from 'undici';
import { undici } from './undici';
import { directDispatcher, neverWritten } from './freshConnections';
import type { ClientContext } from './context';
import { GatewayError, type GatewayErrorInit } from './errors/errors';
import { kindForStatus, parseErrorBody } from './errors/errorBody';
import { backoffDelay, parseRetryAfter, sleep, type WaitListener } from './retry';
import { rateLimitWait } from './rateLimitPolicy';
import type { SupportRecord } from './types';

/** Which auth headers a route takes: Messages (x-api-key + version), images (Bearer), models (both). */
export type AuthStyle = 'messages' | 'bearer' | 'both';

export interface CallSpec {
  method: 'GET' | 'POST';
  /** 'METHOD /v1/path', used in errors, logs and support records. */
  route: string;
  url: string;
  auth: AuthStyle;
  body?: string | FormData;
  model?: string;
  signal?: AbortSignal;
  accept?: string;
  /** Told about waits (429 queue, retry backoff): see RequestOptions.onWait. */
  onWait?: WaitListener;
}

export type Headers = Record<string, string | string[] | undefined>;
export type Body = Dispatcher.ResponseData['body'];

/** A successful (status < 300) exchange whose body is not read yet. */
export interface Exchange {
  status: number;
  headers: Headers;
  body: Body;
  requestId?: string;
  /** Logs the exchange and emits its support record; only the first call counts. */
  finish(error?: GatewayError): void;
}

export const ERROR_BODY_CAP = 64 * 1024;
export const JSON_BODY_CAP = 128 * 1024 * 1024;
// x-litellm-call-id: LiteLLM's id of each call (its logs are keyed by it).
const REQUEST_ID_HEADERS = [
  'request-id',
  'x-request-id',
  'x-client-request-id',
  'x-oneapi-request-id',
  'x-litellm-call-id',
];
// Errors raised before a byte of the request left this machine: the gateway cannot have processed it.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_INVALID_ARG',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** First request-id header present. */
export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = headers[name];
    const s = Array.isArray(v) ? v[0] : v;
    if (s) return s;
  }
  return undefined;
}

function buildHeaders(ctx: ClientContext, spec: CallSpec): Record<string, string> {
  // The user's headers first: the client's own below are set after them, so none can be replaced
  // (createContext refuses such names up front; this order is the second guard).
  const h: Record<string, string> = { ...ctx.requestHeaders };
  if (spec.auth !== 'bearer') h['x-api-key'] = ctx.apiKey;
  if (spec.auth !== 'messages') h['authorization'] = `Bearer ${ctx.apiKey}`;
  if (spec.auth !== 'bearer') h[ctx.versionHeader.toLowerCase()] = ctx.version;
  if (typeof spec.body === 'string') h['content-type'] = 'application/json';
  h['accept'] = spec.accept ?? 'application/json';
  if (ctx.userAgent) h['user-agent'] = ctx.userAgent;
  return h;
}

/** Sends one request, applying the retry rules; resolves with a 2xx exchange, else throws a GatewayError. */
export async function send(ctx: ClientContext, spec: CallSpec): Promise<Exchange> {
  // A setting the context could not use (base URL, request headers) fails every call before anything is sent.
  const unusable =
    ctx.baseUrlProblem !== undefined
      ? { serverCode: 'INVALID_BASE_URL', message: ctx.baseUrlProblem }
      : ctx.requestHeadersProblem !== undefined
        ? { serverCode: 'INVALID_REQUEST_HEADERS', message: ctx.requestHeadersProblem }
        : undefined;
  if (unusable) throw new GatewayError({ kind: 'bad_request', route: spec.route, ...unusable, model: spec.model });
  let resentUnwritten = false;
  for (let attempt = 0; ; attempt++) {
    const release = await ctx.queue.admit(spec.signal, spec.route, ctx.maxRetryWaitMs, spec.onWait);
    const started = Date.now();
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(spec.url, {
        method: spec.method,
        headers: buildHeaders(ctx, spec),
        body: spec.body,
        signal: spec.signal,
        dispatcher: ctx.dispatcher ?? directDispatcher(),
        headersTimeout: ctx.timeoutMs,
        bodyTimeout: ctx.timeoutMs,
      });
    } catch (cause) {
      release();
      const error = transportError(ctx, spec, cause);
      report(ctx, spec, started, undefined, undefined, error);
      if (spec.method === 'GET' && (error.kind === 'network' || error.kind === 'timeout') && attempt < ctx.maxRetries) {
        await sleep(backoffDelay(attempt, ctx.backoff), spec.signal, spec.route, spec.onWait);
        continue;
      }
      // A POST no byte of which was written (the connection failed before it) cannot have been processed:
      // it is sent once more, on a new connection, whatever maxRetries says (docs/gateway-client.md#stale-connections).
      if (spec.method === 'POST' && error.kind === 'network' && neverWritten(cause) && !resentUnwritten) {
        resentUnwritten = true;
        attempt--;
        continue;
      }
      throw error;
    }
    release();
    // A gateway or proxy may echo the key in its request id: it is shown as redacted, never dropped.
    const rawId = requestIdOf(res.headers);
    const requestId = rawId === undefined ? undefined : ctx.redact(rawId);
    if (res.statusCode >= 200 && res.statusCode < 300) return exchangeOf(ctx, spec, res, requestId, started);
    const retryAfterMs = parseRetryAfter(res.headers);
    const error = await httpError(ctx, spec, res, requestId, retryAfterMs);
    report(ctx, spec, started, res.statusCode, error.requestId, error);
    // A 429's wait applies to every request of this client, retried or not.
    if (res.statusCode === 429 && retryAfterMs !== undefined) ctx.queue.block(retryAfterMs);
    const wait = nextWait(ctx, spec, error, attempt, retryAfterMs);
    if (wait === undefined) throw error;
    if (res.statusCode === 429) ctx.queue.block(wait);
    else await sleep(wait, spec.signal, spec.route, spec.onWait);
  }
}

/** How long to wait before retrying an HTTP error, or undefined when it must not be retried. */
function nextWait(
  ctx: ClientContext,
  spec: CallSpec,
  error: GatewayError,
  attempt: number,
  retryAfterMs?: number,
): number | undefined {
  const status = error.status ?? 0;
  // The client's 429 profile (rateLimitPolicy.ts), bounded by this client's options; no Retry-After: the backoff.
  if (status === 429)
    return rateLimitWait(error, attempt + 1, {
      maxWaits: ctx.maxRetries,
      defaultWaitMs: backoffDelay(attempt, ctx.backoff),
      maxWaitMs: ctx.maxRetryWaitMs,
    });
  if (attempt >= ctx.maxRetries) return undefined;
  if (status >= 500 && spec.method === 'GET')
    return Math.min(retryAfterMs ?? backoffDelay(attempt, ctx.backoff), ctx.maxRetryWaitMs);
  return undefined;
}

function exchangeOf(
  ctx: ClientContext,
  spec: CallSpec,
  res: Dispatcher.ResponseData,
  requestId: string | undefined,
  started: number,
): Exchange {
  let finished = false;
  return {
    status: res.statusCode,
    headers: res.headers,
    body: res.body,
    requestId,
    finish(error?: GatewayError): void {
      if (finished) return;
      finished = true;
      report(ctx, spec, started, res.statusCode, requestId, error);
    },
  };
}

/** Logs one finished exchange and emits its support record (the five fields only). */
export function report(
  ctx: ClientContext,
  spec: CallSpec,
  started: number,
  status: number | undefined,
  requestId: string | undefined,
  error?: GatewayError,
): void {
  const ms = Date.now() - started;
  const line = `${spec.route} → ${status ?? error?.kind ?? '?'} in ${ms} ms${requestId ? ` (request id ${requestId})` : ''}`;
  try {
    if (error) ctx.logger?.warn(ctx.redact(`${line}: ${error.kind}: ${error.message}`));
    else ctx.logger?.info(ctx.redact(line));
    const record: SupportRecord = { timestamp: new Date(started).toISOString(), route: spec.route };
    if (spec.model !== undefined) record.model = spec.model;
    if (status !== undefined) record.status = status;
    if (requestId !== undefined) record.requestId = ctx.redact(requestId);
    ctx.onSupportRecord?.(record);
  } catch {
    // A failing logger must never break a request.
  }
}

/** Builds the GatewayError of a non-2xx answer (reads at most ERROR_BODY_CAP of its body). */
async function httpError(
  ctx: ClientContext,
  spec: CallSpec,
  res: Dispatcher.ResponseData,
  requestId: string | undefined,
  retryAfterMs: number | undefined,
): Promise<GatewayError> {
  const text = await readCapped(res.body, ERROR_BODY_CAP, 'truncate').catch(() => '');
  const contentType = String(res.headers['content-type'] ?? '');
  const parsed = parseErrorBody(text, contentType, String(res.headers.server ?? ''));
  const status = res.statusCode;
  const serverMessage = parsed.message === undefined ? undefined : ctx.redact(parsed.message);
  const serverCode = parsed.code === undefined ? undefined : ctx.redact(parsed.code);
  const kind = status >= 300 && status < 400 ? 'protocol' : kindForStatus(status);
  const what = serverCode ? ` ${serverCode}` : '';
  const detail = serverMessage
    ? `: ${serverMessage}`
    : status >= 300 && status < 400
      ? ': unexpected redirect (check the base URL, e.g. http:// vs https://)'
      : '';
  return new GatewayError({
    kind,
    route: spec.route,
    status,
    requestId: requestId ?? (parsed.requestId === undefined ? undefined : ctx.redact(parsed.requestId)),
    retryAfterMs,
    model: spec.model,
    serverMessage,
    serverCode,
    upstream: parsed.upstream,
    outcomeUnknown: spec.method === 'POST' && (status === 502 || status === 504 || status === 524),
    message: ctx.redact(`${spec.route} failed: HTTP ${status}${what}${detail}`),
  });
}

/** Turns an undici/socket error into a GatewayError (aborted, timeout or network). */
export function transportError(
  ctx: ClientContext,
  spec: CallSpec,
  cause: unknown,
  extra?: Partial<GatewayErrorInit>,
): GatewayError {
  const base = { route: spec.route, model: spec.model, cause: undefined, ...extra };
  if (spec.signal?.aborted)
    return new GatewayError({ ...base, kind: 'aborted', message: `${spec.route} was cancelled.` });
  const code = errorCode(cause);
  const text = ctx.redact(cause instanceof Error ? cause.message : String(cause));
  const sent = !NOT_SENT_CODES.has(code ?? '') && !neverWritten(cause);
  const outcomeUnknown = spec.method === 'POST' && sent;
  if (TIMEOUT_CODES.has(code ?? '')) {
    return new GatewayError({
      ...base,
      kind: 'timeout',
      outcomeUnknown,
      message: `${spec.route}: no answer within ${Math.round(ctx.timeoutMs / 1000)} s (${code}).`,
    });
  }
  if (code === 'UND_ERR_INVALID_ARG')
    return new GatewayError({ ...base, kind: 'bad_request', message: `${spec.route}: invalid request: ${text}` });
  return new GatewayError({
    ...base,
    kind: 'network',
    outcomeUnknown,
    message: `${spec.route}: connection failed${code ? ` (${code})` : ''}: ${text}`,
  });
}

function errorCode(e: unknown): string | undefined {
  const rec = e as { code?: unknown; cause?: { code?: unknown }; errors?: Array<{ code?: unknown }> } | null;
  const code = rec?.code ?? rec?.cause?.code ?? rec?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Drops a body and its socket; a late 'error' from the destroyed body is expected and ignored. */
export function discardBody(body: Body): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Reads a body as UTF-8 text, at most `cap` bytes: beyond it, truncates (and drops the socket) or throws. */
export async function readCapped(body: Body, cap: number, onCap: 'truncate' | 'throw'): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= cap) {
      discardBody(body);
      if (onCap === 'throw') throw new RangeError(`body larger than ${cap} bytes`);
      break;
    }
  }
  const all = Buffer.concat(chunks, size);
  return (size > cap ? all.subarray(0, cap) : all).toString('utf8');
}

/** Reads a 2xx JSON body; a body that is not JSON, or too large, is a `protocol` error. */
export async function readJson(ctx: ClientContext, spec: CallSpec, ex: Exchange): Promise<unknown> {
  let text: string;
  try {
    text = await readCapped(ex.body, JSON_BODY_CAP, 'throw');
  } catch (cause) {
    const error =
      cause instanceof RangeError
        ? protocolError(ctx, spec, ex, `the answer is larger than ${JSON_BODY_CAP / 1024 / 1024} MB`)
        : transportError(ctx, spec, cause, { status: ex.status, requestId: ex.requestId });
    ex.finish(error);
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    ex.finish();
    return value;
  } catch {
    const error = protocolError(
      ctx,
      spec,
      ex,
      text.trim() === '' ? 'the answer is empty' : 'the answer is not valid JSON',
    );
    ex.finish(error);
    throw error;
  }
}

/** A `protocol` error: the gateway answered 2xx with something this client cannot read. */
export function protocolError(
  ctx: ClientContext,
  spec: CallSpec,
  ex: { status?: number; requestId?: string },
  why: string,
): GatewayError {
  return protocolFault(ctx, spec, ex, `unexpected answer: ${why}.`);
}

/** A `protocol` error of this call, its message (`what`, after the route) redacted; `more` adds a partial message and the like. */
export function protocolFault(
  ctx: ClientContext,
  spec: CallSpec,
  ex: { status?: number; requestId?: string },
  what: string,
  more: Pick<GatewayErrorInit, 'partial' | 'toolInputProblems'> = {},
): GatewayError {
  return new GatewayError({
    kind: 'protocol',
    route: spec.route,
    status: ex.status,
    requestId: ex.requestId,
    model: spec.model,
    ...more,
    message: ctx.redact(`${spec.route}: ${what}`),
  });
}

/** Absolute URL of a /v1 route under the base URL. */
export function routeUrl(ctx: ClientContext, path: string): string {
  return ctx.baseUrl + path;
}
