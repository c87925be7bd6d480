// Error replies in the shapes real gateways send (see docs/gateway-protocol.md#error-bodies).

import { messagesType, type DialectError } from './dialects/types';
import { sendJson, sendText, type Ctx } from './http';

/**
 * Messages-style error type for a status, as the upstream API names them: the dialects' table (messagesType), and
 * the two 5xx the emulator's own answers name apart (503 overloaded, 504 timeout).
 */
export function messagesErrorType(status: number): string {
  if (status === 503) return 'overloaded_error';
  if (status === 504) return 'timeout_error';
  return messagesType(status);
}

function openAiType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * Sends an error in the route's style: Messages style on /v1/messages, OpenAI style on image routes.
 * `code` goes into the OpenAI body (Messages style has no code).
 */
export function sendError(
  ctx: Ctx,
  status: number,
  message: string,
  code?: string,
  headers: Record<string, string> = {},
): void {
  if (viaDialect(ctx, { status, message, code, headers, source: 'gateway' })) return;
  if (ctx.style === 'messages') {
    sendJson(
      ctx,
      status,
      { type: 'error', error: { type: messagesErrorType(status), message }, request_id: ctx.requestId },
      headers,
    );
  } else {
    sendJson(
      ctx,
      status,
      { error: { message, type: openAiType(status), param: null, code: code ?? null }, request_id: ctx.requestId },
      headers,
    );
  }
}

/** Flat gateway style, used for the gateway's own 403 codes: {code, message}. */
export function sendFlat(ctx: Ctx, status: number, code: string, message: string): void {
  if (viaDialect(ctx, { status, message, code, headers: {}, source: 'gateway', flat: true })) return;
  sendJson(ctx, status, { code, message, request_id: ctx.requestId });
}

/** An HTML error page as a proxy or CDN sends it. */
export function sendHtmlError(ctx: Ctx, status: number, headers: Record<string, string> = {}): void {
  const html = `<!DOCTYPE html>\n<html><head><title>${status} Bad Gateway</title></head>\n<body><center><h1>${status} Bad Gateway</h1></center>\n<hr><center>emulated-proxy</center>\n<!-- request ${ctx.requestId} -->\n</body></html>\n`;
  sendText(ctx, status, html, 'text/html; charset=utf-8', headers);
}

/** 429 with both Retry-After (seconds) and retry-after-ms. */
export function sendRateLimited(ctx: Ctx, waitMs: number, message: string): void {
  const headers = {
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    'retry-after-ms': String(Math.ceil(waitMs)),
  };
  sendError(ctx, 429, message, 'rate_limit_exceeded', headers);
}

/** An error of the provider behind the gateway (status faults): dialects forward or remap it their way. */
export function sendUpstreamError(
  ctx: Ctx,
  status: number,
  message: string,
  code: string,
  headers: Record<string, string> = {},
): void {
  if (viaDialect(ctx, { status, message, code, headers, source: 'upstream' })) return;
  sendError(ctx, status, message, code, headers);
}

/** Writes the dialect's shape of an error, if the request has a dialect that reshapes it. */
function viaDialect(ctx: Ctx, e: DialectError): boolean {
  const reply = ctx.dialect?.error(ctx, e);
  if (!reply) return false;
  if (reply.noRequestId && !ctx.res.headersSent) {
    // A proxy's page or a framework's own reply carries no gateway request id.
    for (const name of [
      'request-id',
      'x-request-id',
      ...Object.keys(ctx.dialect?.requestIdHeaders?.(ctx.requestId) ?? {}),
    ])
      ctx.res.removeHeader(name);
  }
  sendText(ctx, reply.status, reply.body, reply.contentType, reply.headers ?? {});
  return true;
}
