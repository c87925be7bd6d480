// new-api (QuantumNous/new-api) and its parent one-api (songquanpeng/one-api), as their sources shape
// replies (facts read from their Go sources; the code here is ours):
// - Every error message gets " (request id: <id>)" appended (common.MessageWithRequestId), and the id
//   is sent in the `X-Oneapi-Request-Id` header (common.RequestIdKey).
// - Middleware errors (key, group, rate limit) are OpenAI-shaped on every route:
//   {"error":{"message","type":"new_api_error","code"}} (one-api: type "one_api_error", no code).
// - new-api's relay errors on the Claude route are Messages-shaped without a request_id field:
//   {"type":"error","error":{"type","message"}}; the type is "new_api_error" for its own errors and the
//   upstream's code (or "upstream_error") for forwarded ones.
// - An unknown /v1 path: 404 {"error":{"message":"Invalid URL (GET /v1/x)","type":"invalid_request_error","param":"","code":""}}.
// - Streams: `event:` lines, plus `: PING` comment lines as keep-alives (helper.PingData).
import { json, messagesType, type Dialect, type DialectCtx, type DialectError, type DialectReply } from './types';

const withId = (message: string, id: string): string => `${message} (request id: ${id})`;

function invalidUrl(ctx: DialectCtx): DialectReply {
  return json(404, {
    error: {
      message: `Invalid URL (${ctx.entry.method} ${ctx.entry.path})`,
      type: 'invalid_request_error',
      param: '',
      code: '',
    },
  });
}

export const newApi: Dialect = {
  name: 'new-api',
  account: 'new-api',
  requestIdHeaders: (id) => ({ 'x-oneapi-request-id': id }),
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found') return invalidUrl(ctx);
    const message = withId(e.message, ctx.requestId);
    // Key, group and limiter checks run in middleware, before the relay picks the Claude format.
    const middleware = e.source === 'gateway' && (e.status === 401 || e.status === 429 || e.flat === true);
    if (middleware || ctx.style !== 'messages') {
      return json(e.status, { error: { message, type: 'new_api_error', param: '', code: e.code ?? '' } }, e.headers);
    }
    const type =
      e.source === 'upstream'
        ? e.code && !e.code.startsWith('emulated_')
          ? e.code
          : messagesType(e.status)
        : 'new_api_error';
    return json(e.status, { type: 'error', error: { type, message } }, e.headers);
  },
  sse: { commentPing: { text: ': PING', every: 4 }, leadingFrames: [': PING\n\n'] },
};

export const oneApi: Dialect = {
  name: 'one-api',
  account: 'new-api',
  requestIdHeaders: (id) => ({ 'x-oneapi-request-id': id }),
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found') return invalidUrl(ctx);
    // abortWithMessage: message + request id, type only (no code field).
    return json(e.status, { error: { message: withId(e.message, ctx.requestId), type: 'one_api_error' } }, e.headers);
  },
  sse: {},
};
