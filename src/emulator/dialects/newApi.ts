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
// - new-api refuses a Claude Messages call whose channel has no conversion before relaying it, with its own
//   500 in the Messages shape: {"type":"error","error":{"type":"new_api_error","message":"… (request id: …)"}}
//   (relay/claude_handler.go, types/error.go, controller/relay.go). Here: models with messagesConversion: false.
// one-api (router/relay.go, router/web.go, middleware/auth.go, relay/adaptor/openai/main.go):
// - No /v1/messages route at all: 404 {"error":{"message":"Invalid URL (POST /v1/messages)","type":
//   "invalid_request_error"}}, answered by the router before any auth; chat goes over /v1/chat/completions.
// - The key is read from Authorization only; the model list is OpenAI-shaped with permission/root/parent.
// - 429 from its limiter: an empty body, no Retry-After. Streams end with `data: [DONE]` even after a failed
//   upstream read (so a cut stream looks whole but has no finish_reason); usage is forced upstream.
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
  refuseMessages(ctx: DialectCtx, upstream: { messagesConversion?: boolean }): DialectReply | undefined {
    if (upstream.messagesConversion !== false) return undefined;
    const message = withId('not implemented: this channel does not support the Claude Messages format', ctx.requestId);
    return json(500, { type: 'error', error: { type: 'new_api_error', message } });
  },
  sse: { commentPing: { text: ': PING', every: 4 }, leadingFrames: [': PING\n\n'] },
};

export const oneApi: Dialect = {
  name: 'one-api',
  requestIdHeaders: (id) => ({ 'x-oneapi-request-id': id }),
  missingRoutes: new Set(['messages']),
  bearerOnly: true,
  modelList: (models, created) => ({
    object: 'list',
    data: models.map((m) => ({
      id: m.id,
      object: 'model',
      created,
      owned_by: 'custom',
      permission: [{ id: `modelperm-${m.id}`, object: 'model_permission', created, allow_sampling: true }],
      root: m.id,
      parent: null,
    })),
  }),
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found') return invalidUrl(ctx);
    // Its limiter aborts with the status alone.
    if (e.status === 429) return { status: 429, body: '', contentType: 'text/plain; charset=utf-8' };
    // abortWithMessage: message + request id, type only (no code field).
    return json(e.status, { error: { message: withId(e.message, ctx.requestId), type: 'one_api_error' } }, e.headers);
  },
  sse: { doneAfterCut: true },
};
