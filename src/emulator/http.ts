// Small HTTP helpers shared by all routes: the per-request context, JSON replies, body reading with a limit.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dialect } from './dialects/types';
import type { EmulatorState } from './state';
import type { Faults, KeyConfig, RequestLogEntry, RouteName } from './types';

/** Which error body shape a route answers with. */
export type ErrorStyle = 'messages' | 'openai';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  url: URL;
  route: RouteName;
  entry: RequestLogEntry;
  state: EmulatorState;
  style: ErrorStyle;
  faults: Faults;
  key?: KeyConfig;
  /** Site root as the client reached it, for URLs in bodies. */
  origin: string;
  /** The emulator itself cut the connection (a fault), so the close is not a client abort. */
  serverDropped?: boolean;
  /** The gateway dialect whose wire shapes this request gets (undefined: the emulator's own). */
  dialect?: Dialect;
}

/** Writes a body, in `chunkBytes` pieces when that fault is set (splits UTF-8 characters across packets). */
export function writeOut(ctx: Ctx, data: string | Buffer, end = false): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const size = ctx.faults.chunkBytes;
  if (!size || size <= 0) {
    if (end) ctx.res.end(buf);
    else ctx.res.write(buf);
    return;
  }
  for (let i = 0; i < buf.length; i += size) ctx.res.write(buf.subarray(i, i + size));
  if (end) ctx.res.end();
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent || ctx.res.destroyed) return;
  const text = JSON.stringify(body);
  ctx.entry.status = status;
  ctx.res.writeHead(status, { 'content-type': 'application/json', ...headers });
  writeOut(ctx, text, true);
}

export function sendText(
  ctx: Ctx,
  status: number,
  text: string,
  contentType: string,
  headers: Record<string, string> = {},
): void {
  if (ctx.res.headersSent || ctx.res.destroyed) return;
  ctx.entry.status = status;
  ctx.res.writeHead(status, { 'content-type': contentType, ...headers });
  writeOut(ctx, text, true);
}

export class BodyTooLarge extends Error {}

/**
 * Reads the body up to `limit` bytes. Over the limit it stops keeping data (the rest is read and
 * discarded, never buffered) and throws BodyTooLarge, so a 100 MB upload costs no memory.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > limit) {
      req.resume();
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (size <= limit) resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

/** Case-insensitive single header value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
