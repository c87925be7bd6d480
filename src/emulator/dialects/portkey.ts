// Portkey's open-source gateway (@portkey-ai/gateway 1.15.2, run for real in test/realgw): a router that needs
// a header of the user's on every /v1 request. Facts read from its build and seen from it:
// - Without `x-portkey-provider` or `x-portkey-config` every /v1 route answers 400
//   {"status":"failure","message":"Either x-portkey-config or x-portkey-provider header is required"},
//   before the key is looked at (Portkey has no keys of its own: the provider checks the Bearer key).
// - The provider's own answers (lists, errors, streams) pass through; no request-id header of its own
//   (x-portkey-trace-id is empty unless the client sends one), no async image routes, no balance routes.
// - Errors keep the provider's status, headers and body; an unreachable provider is a 500
//   {"html-message":"Message: fetch failed Cause: …"} (seen in test/realgw, not emulated).
import { json, type Dialect, type DialectCtx, type DialectReply } from './types';

export const PORTKEY_HEADERS = ['x-portkey-provider', 'x-portkey-config'] as const;

export const portkey: Dialect = {
  name: 'portkey',
  requestIdHeaders: () => ({ 'x-portkey-trace-id': '' }),
  missingRoutes: new Set(['images.generations.async', 'images.edits.async', 'images.tasks']),
  refuseRequest(ctx: DialectCtx): DialectReply | undefined {
    if (PORTKEY_HEADERS.some((name) => (ctx.req.headers[name] ?? '') !== '')) return undefined;
    return json(400, {
      status: 'failure',
      message: 'Either x-portkey-config or x-portkey-provider header is required',
    });
  },
  error: () => undefined,
  sse: {},
};
