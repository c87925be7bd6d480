// Fault injection: per-key faults merged with the per-request `x-emulator-fault` header, applied before routing.

import { sendHtmlError, sendUpstreamError } from './errors';
import { header, sleep, type Ctx } from './http';
import type { Faults } from './types';

export const FAULT_HEADER = 'x-emulator-fault';

/** Key faults overlaid with the request's header faults; throws on a header that is not a JSON object. */
export function effectiveFaults(ctx: Ctx): Faults {
  const byKey = ctx.key ? ctx.state.faults.get(ctx.key.key) : undefined;
  const raw = header(ctx.req, FAULT_HEADER);
  let byRequest: Faults = {};
  if (raw) {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    byRequest = parsed as Faults;
  }
  return { ...byKey, ...byRequest };
}

/** Uses up one request of a counted per-key status fault; the fault ends when its count reaches 0. */
function consumeCount(ctx: Ctx): void {
  const stored = ctx.key ? ctx.state.faults.get(ctx.key.key) : undefined;
  if (!stored || stored.status === undefined || stored.count === undefined) return;
  if (header(ctx.req, FAULT_HEADER)?.includes('"status"')) return; // the header's status wins; the key's stays
  stored.count -= 1;
  if (stored.count <= 0) {
    delete stored.status;
    delete stored.count;
    delete stored.retryAfter;
  }
}

/**
 * Applies delay, hang and status faults. Returns false when the fault answered (or will never answer)
 * and the route must not run.
 */
export async function applyRequestFaults(ctx: Ctx): Promise<boolean> {
  const f = ctx.faults;
  if (f.delayMs && f.delayMs > 0) await sleep(f.delayMs);
  if (ctx.res.destroyed) return false;
  if (f.hang) {
    ctx.req.resume(); // read the body so the client finishes sending, then never answer
    return false;
  }
  const status = f.status ?? (f.htmlError ? 502 : undefined);
  if (status === undefined) return true;
  consumeCount(ctx);
  const headers: Record<string, string> = {};
  const retryAfter = f.retryAfter ?? (status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) {
    headers['retry-after'] = String(retryAfter);
    headers['retry-after-ms'] = String(Math.round(retryAfter * 1000));
  }
  ctx.req.resume();
  if (f.htmlError) sendHtmlError(ctx, status, headers);
  else sendUpstreamError(ctx, status, `Emulated fault: HTTP ${status}.`, `emulated_${status}`, headers);
  return false;
}
