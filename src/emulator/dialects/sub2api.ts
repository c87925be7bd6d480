// sub2api (Wei-Shaw/sub2api), a gateway that shares Claude subscriptions, as its sources shape replies
// (facts read from its Go sources; the code here is ours):
// - Key middleware errors are flat: {"code":"INVALID_API_KEY","message":"Invalid API key"}
//   (API_KEY_REQUIRED, API_KEY_DISABLED 401; INSUFFICIENT_BALANCE, ACCESS_DENIED 403; USAGE_LIMIT_EXCEEDED 429).
// - Handler errors are Messages-shaped without request_id: {"type":"error","error":{"type","message"}}.
// - Upstream failures are remapped (mapUpstreamError): 401/403 → 502 upstream_error, 429 → 429
//   rate_limit_error, 529 → 503 overloaded_error, 500/502/503/504 → 502 upstream_error, with fixed texts.
// - Streams: while waiting for a concurrency slot it writes `data: {"type": "ping"}` without an `event:`
//   line, before message_start; an error after the stream started is a bare `data:` line too.
// - An unknown path gets gin's default 404: text/plain "404 page not found".
// - GET /v1/models: by the key group's platform, not by headers: {object:"list",data:[{id,type:"model",
//   display_name,created_at}]} (no kind hints).
// - No account of the group serves the model: 503 api_error "No available accounts: no available accounts
//   supporting model: X" (service/gateway_service.go selectAccount*).
//   An OpenAI-platform group's model on /v1/messages (versions without the converter) gets the same 503.
// - No /v1/completions (fill-in-the-middle) route: gin's 404.
// - 429 rate_limit_error without Retry-After. Images: only the sync routes (OpenAI-platform groups); the
//   spec's /async routes and tasks do not exist.
import { SPEC_ASYNC_IMAGE_ROUTES } from './newApi';
import { json, messagesType, type Dialect, type DialectError, type DialectReply } from './types';

const FLAT_401: Record<string, string> = { missing_api_key: 'API_KEY_REQUIRED' };

function upstream(status: number): { status: number; type: string; message: string } {
  if (status === 401)
    return {
      status: 502,
      type: 'upstream_error',
      message: 'Upstream authentication failed, please contact administrator',
    };
  if (status === 403)
    return { status: 502, type: 'upstream_error', message: 'Upstream access forbidden, please contact administrator' };
  if (status === 429)
    return { status: 429, type: 'rate_limit_error', message: 'Upstream rate limit exceeded, please retry later' };
  if (status === 529)
    return { status: 503, type: 'overloaded_error', message: 'Upstream service overloaded, please retry later' };
  if ([500, 502, 503, 504].includes(status))
    return { status: 502, type: 'upstream_error', message: 'Upstream service temporarily unavailable' };
  return { status: 502, type: 'upstream_error', message: 'Upstream request failed' };
}

export const sub2api: Dialect = {
  name: 'sub2api',
  error(_ctx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found')
      return { status: 404, body: '404 page not found', contentType: 'text/plain' };
    if (e.source === 'upstream') {
      const u = upstream(e.status);
      return json(u.status, { type: 'error', error: { type: u.type, message: u.message } }, e.headers);
    }
    if (e.flat || e.status === 401) {
      const code = e.code ? (FLAT_401[e.code] ?? e.code) : 'INVALID_API_KEY';
      return json(e.status, { code, message: e.message }, e.headers);
    }
    const headers =
      e.status === 429
        ? Object.fromEntries(Object.entries(e.headers).filter(([n]) => n.toLowerCase() !== 'retry-after'))
        : e.headers;
    return json(e.status, { type: 'error', error: { type: messagesType(e.status), message: e.message } }, headers);
  },
  // A channel without a Claude conversion is an OpenAI-platform account: the Messages handler (older versions, without
  // the converter) finds no account of the group for it and answers its selection error before relaying anything.
  refuseMessages(ctx, upstream) {
    if (upstream.messagesConversion !== false) return undefined;
    return json(503, {
      type: 'error',
      error: {
        type: 'api_error',
        message: `No available accounts: no available accounts supporting model: ${ctx.entry.model ?? ''}`,
      },
    });
  },
  // A Claude/OpenAI subscription relay: no legacy /v1/completions and no FIM route (gin's 404).
  missingRoutes: new Set<string>([...SPEC_ASYNC_IMAGE_ROUTES, 'completions', 'fim.completions']),
  modelList: (_ctx, models) => ({
    object: 'list',
    data: models.map((m) => ({
      id: m.id,
      type: 'model',
      display_name: m.displayName,
      created_at: new Date(m.created * 1000).toISOString(),
    })),
  }),
  modelUnavailable: (_ctx, model) =>
    json(503, {
      type: 'error',
      error: { type: 'api_error', message: `No available accounts: no available accounts supporting model: ${model}` },
    }),
  sse: {
    leadingFrames: ['data: {"type": "ping"}\n\n'],
    bareEvents: new Set(['ping']),
    errorFrame: (type, message) => `data: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`,
  },
};
