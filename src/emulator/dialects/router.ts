// A Messages router with no model list: the fastify server behind claude-code-router
// (@musistudio/llms, run for real in test/realgw). Facts seen from it:
// - Routes it does not have (GET /v1/models, image routes, any unknown path) get fastify's 404:
//   {"message":"Route GET:/v1/models not found","error":"Not Found","statusCode":404}.
// - Its error handler sends {"error":{"message":<message + stack trace>,"type":"api_error","code"}}; a
//   provider's error is forwarded as "Error from provider(<provider>,<model>: <status>): <provider body>"
//   with the same status, the stack appended to the message.
// - A stream the provider cut surfaces as fastify's own 500: {"statusCode":500,"error":"Internal Server Error","message":"terminated"}.
// - No request-id header at all, and no `ping` events.
// - Streams: message_start usage is all zeros, the counts come only in message_delta (input_tokens
//   included, plus cache_read_input_tokens: 0); a tool call's input_json_delta can arrive after that
//   block's content_block_stop (it closes a block as soon as the next starts, while fragments still come).
// - An error inside a stream is written as {"type":"error","message":{"type","message"}}: the reason sits in
//   an object under `message` (docs/gateway-protocol.md#real-gateways, @musistudio/llms); Retry-After is dropped.
import { json, type Dialect, type DialectCtx, type DialectError, type DialectReply } from './types';

const STACK =
  '\n    at nt (/app/node_modules/@musistudio/llms/dist/cjs/server.cjs:67:20940)\n    at w0 (/app/node_modules/@musistudio/llms/dist/cjs/server.cjs:67:23904)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)';

function routeNotFound(ctx: DialectCtx): DialectReply {
  return json(
    404,
    { message: `Route ${ctx.entry.method}:${ctx.entry.path} not found`, error: 'Not Found', statusCode: 404 },
    undefined,
  );
}

export const router: Dialect = {
  name: 'router',
  requestIdHeaders: () => ({}),
  missingRoutes: new Set([
    'models',
    'images.generations',
    'images.edits',
    'images.generations.async',
    'images.edits.async',
    'images.tasks',
  ]),
  error(ctx: DialectCtx, e: DialectError): DialectReply | undefined {
    if (e.status === 404 && e.code === 'not_found') return routeNotFound(ctx);
    if (e.source === 'upstream') {
      if (e.status === 500)
        return json(500, { statusCode: 500, error: 'Internal Server Error', message: 'terminated' }, e.headers);
      const model = ctx.entry.model ?? 'model';
      const provider = JSON.stringify({
        error: { message: e.message, type: 'upstream_error', param: null, code: e.code ?? null },
      });
      const message = `Error from provider(emu,${model}: ${e.status}): ${provider}`;
      return json(
        e.status,
        {
          error: { message: `${message}Error: ${message}${STACK}`, type: 'api_error', code: 'provider_response_error' },
        },
        e.headers,
      );
    }
    return json(
      e.status,
      {
        error: {
          message: `${e.message}Error: ${e.message}${STACK}`,
          type: 'api_error',
          code: e.code ?? 'internal_error',
        },
      },
      e.headers,
    );
  },
  sse: {
    usageOnlyInDelta: true,
    lateToolFragment: true,
    omitEvents: new Set(['ping']),
    errorFrame: (type, message) =>
      `event: error\ndata: ${JSON.stringify({ type: 'error', message: { type, message } })}\n\n`,
  },
};
