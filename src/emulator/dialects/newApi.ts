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
// - GET /v1/models switches its shape on the headers (router/relay-router.go, controller/model.go): with
//   both x-api-key and anthropic-version the Anthropic shape {data:[{id,created_at,display_name,type}],
//   first_id,has_more,last_id} without hints; otherwise {success,object:"list",data:[{id,object,created,
//   owned_by,supported_endpoint_types}]}, the endpoint types by channel type (common/endpoint_type.go).
//   one-api: {object:"list",data:[{id,object,created,owned_by,permission,root,parent}]}.
// - A model no channel of the key's group serves: 503 code model_not_found "当前分组 … 无可用渠道" on every
//   route (middleware/distributor.go); one-api the same words, type one_api_error.
// - 429 from their limiters: no Retry-After (new-api: OpenAI body; one-api: an empty body).
// - Images: only the sync routes of the OpenAI API; the spec's /async routes and /v1/images/tasks are not in
//   the mainline sources (404). one-api's POST /v1/images/edits is RelayNotImplemented: 501 api_not_implemented.
import type { RouteName } from '../types';
import {
  json,
  messagesType,
  type Dialect,
  type DialectCtx,
  type DialectError,
  type DialectReply,
  type ListedModel,
} from './types';

/** The spec's async image routes, absent from the mainline sources of new-api, one-api, sub2api and LiteLLM. */
export const SPEC_ASYNC_IMAGE_ROUTES: ReadonlySet<RouteName> = new Set([
  'images.generations.async',
  'images.edits.async',
  'images.tasks',
]);

const OPENAI_CHANNEL = ['openai', 'openai-response', 'openai-response-compact'];

/** new-api's endpoint types for a model, as its channel type gives them (common/endpoint_type.go). */
export function newApiEndpointTypes(model: ListedModel): string[] {
  if (model.kind === 'video') return ['openai-video'];
  if (model.kind === 'rerank') return ['jina-rerank'];
  if (model.kind === 'responses') return ['openai-response', 'openai-response-compact'];
  if (model.kind) return [...OPENAI_CHANNEL];
  if (model.protocol === 'images') return ['image-generation', ...OPENAI_CHANNEL];
  return ['anthropic', 'openai'];
}

/** An entry of the OpenAI-shaped model list both gateways answer (controller/model.go), before their own fields. */
function openAiEntry(m: ListedModel): { id: string; object: 'model'; created: number; owned_by: string } {
  return { id: m.id, object: 'model', created: m.created, owned_by: 'custom' };
}

function headerOf(ctx: DialectCtx, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return (Array.isArray(v) ? v[0] : v) || undefined;
}

function noChannel(ctx: DialectCtx, model: string, group: string, type: string, code?: string): DialectReply {
  const message = withId(`当前分组 ${group} 下对于模型 ${model} 无可用渠道`, ctx.requestId);
  return json(503, { error: { message, type, ...(code !== undefined ? { param: '', code } : {}) } });
}

/** Their limiters send no Retry-After. */
function withoutRetryAfter(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'retry-after'));
}

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

/** What new-api kept of one-api, its parent: the account routes (new-api's shape) and the request-id header. */
const ONE_API_FAMILY: Pick<Dialect, 'account' | 'requestIdHeaders'> = {
  account: 'new-api',
  requestIdHeaders: (id) => ({ 'x-oneapi-request-id': id }),
};

export const newApi: Dialect = {
  name: 'new-api',
  ...ONE_API_FAMILY,
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found') return invalidUrl(ctx);
    const message = withId(e.message, ctx.requestId);
    const headers = e.status === 429 && e.source === 'gateway' ? withoutRetryAfter(e.headers) : e.headers;
    // Key, group and limiter checks run in middleware, before the relay picks the Claude format.
    const middleware = e.source === 'gateway' && (e.status === 401 || e.status === 429 || e.flat === true);
    if (middleware || ctx.style !== 'messages') {
      return json(e.status, { error: { message, type: 'new_api_error', param: '', code: e.code ?? '' } }, headers);
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
  missingRoutes: SPEC_ASYNC_IMAGE_ROUTES,
  modelList(ctx, models) {
    if (headerOf(ctx, 'x-api-key') && headerOf(ctx, 'anthropic-version')) {
      const data = models.map((m) => ({
        id: m.id,
        created_at: new Date(m.created * 1000).toISOString(),
        display_name: m.displayName,
        type: 'model',
      }));
      return { data, first_id: data[0]?.id ?? '', has_more: false, last_id: data[data.length - 1]?.id ?? '' };
    }
    return {
      success: true,
      object: 'list',
      data: models.map((m) => ({ ...openAiEntry(m), supported_endpoint_types: newApiEndpointTypes(m) })),
    };
  },
  modelUnavailable: (ctx, model, group) => noChannel(ctx, model, group, 'new_api_error', 'model_not_found'),
};

export const oneApi: Dialect = {
  name: 'one-api',
  ...ONE_API_FAMILY,
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found') return invalidUrl(ctx);
    if (e.status === 501)
      return json(501, {
        error: { message: 'API not implemented', type: 'one_api_error', code: 'api_not_implemented' },
      });
    // Its limiter answers 429 with an empty body and no Retry-After.
    if (e.status === 429 && e.source === 'gateway')
      return { status: 429, body: '', contentType: 'text/plain; charset=utf-8', headers: withoutRetryAfter(e.headers) };
    // abortWithMessage: message + request id, type only (no code field).
    return json(e.status, { error: { message: withId(e.message, ctx.requestId), type: 'one_api_error' } }, e.headers);
  },
  sse: { doneAfterCut: true },
  // It relays /v1/completions (its relay modes: chat, completions, embeddings, ...) but has no Mistral FIM route.
  missingRoutes: new Set<string>([...SPEC_ASYNC_IMAGE_ROUTES, 'messages', 'fim.completions']),
  bearerOnly: true,
  notImplemented: new Set<RouteName>(['images.edits']),
  modelList: (_ctx, models) => ({
    object: 'list',
    data: models.map((m) => ({ ...openAiEntry(m), permission: [], root: m.id, parent: null })),
  }),
  modelUnavailable: (ctx, model, group) => noChannel(ctx, model, group, 'one_api_error'),
};
