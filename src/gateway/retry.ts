// Waiting rules of docs/gateway-protocol.md#rate-limits and #server-errors: Retry-After parsing, jittered backoff, abortable sleep, and the
// per-client queue that serialises requests while the gateway is rate limiting (429).
import { GatewayError } from './errors/errors';

type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Milliseconds the server asks to wait: retry-after-ms, else Retry-After (seconds or HTTP date). */
export function parseRetryAfter(headers: HeaderBag, now = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.round(Number(ms));
  const ra = header(headers, 'retry-after');
  if (ra === undefined || ra.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.round(Number(ra) * 1000);
  const date = Date.parse(ra);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/** Exponential backoff with "equal jitter": between half and all of base * 2^attempt, capped. */
export function backoffDelay(attempt: number, o: BackoffOptions): number {
  const full = Math.min(o.maxMs, o.baseMs * 2 ** attempt);
  return Math.round(full / 2 + (Math.random() * full) / 2);
}

function abortError(route: string): GatewayError {
  return new GatewayError({ kind: 'aborted', route, message: `${route} was cancelled.` });
}

import type { WaitListener, WaitNotice } from './types';
export type { WaitListener, WaitNotice };

/** The 429 a wait stands for, described like the error it would have been (same card, same advice). */
function rateLimitedWait(route: string, ms: number): GatewayError {
  return new GatewayError({
    kind: 'rate_limited',
    route,
    status: 429,
    retryAfterMs: ms,
    message: `${route}: rate limited; the gateway asked to wait ${Math.ceil(ms / 1000)} s. Sending again automatically.`,
  });
}

function notify(listener: WaitListener | undefined, notice: WaitNotice): void {
  try {
    listener?.(notice);
  } catch {
    // A failing listener must never break the request.
  }
}

/**
 * Sleeps `ms`, rejecting with an `aborted` GatewayError when the signal fires. With `onWait`, the wait is
 * announced (start and end), so no wait is ever silent.
 */
export function sleep(
  ms: number,
  signal: AbortSignal | undefined,
  route: string,
  onWait?: WaitListener,
  reason: WaitNotice['reason'] = 'backoff',
): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(route));
  if (ms <= 0) return Promise.resolve();
  if (onWait) {
    const until = Date.now() + ms;
    notify(onWait, {
      ms,
      until,
      route,
      reason,
      error: reason === 'rate_limited' ? rateLimitedWait(route, ms) : undefined,
    });
    const end = (): void => notify(onWait, { ms: 0, until: Date.now(), route, reason });
    return sleep(ms, signal, route).finally(end);
  }
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(route));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * While the gateway rate-limits, requests go one at a time, each waiting out the Retry-After.
 * When not limited, admit() is a no-op so the common path pays nothing.
 */
export class RateLimitQueue {
  private until = 0;
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  /** Records that the gateway asked to wait `ms` from now. */
  block(ms: number): void {
    this.until = Math.max(this.until, Date.now() + ms);
  }

  /** Milliseconds left before requests may go again. */
  remaining(): number {
    return Math.max(0, this.until - Date.now());
  }

  /** Waits for this request's turn; returns the release function to call once its answer is known. */
  async admit(
    signal: AbortSignal | undefined,
    route: string,
    maxWaitMs: number,
    onWait?: WaitListener,
  ): Promise<() => void> {
    if (this.remaining() === 0 && this.queued === 0) return noop;
    if (this.remaining() > maxWaitMs) throw this.tooLong(route);
    let release: () => void = noop;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    this.queued++;
    // One announcement for the whole wait (its turn in the queue, then the Retry-After), ended once.
    let announced = false;
    let announcedUntil = 0;
    const announce = (ms: number): void => {
      const until = Date.now() + ms;
      // Again only when the wait grew (another 429 meanwhile), not for the same wait seen a moment later.
      if (!onWait || ms <= 0 || (announced && until <= announcedUntil + 250)) return;
      announced = true;
      announcedUntil = until;
      notify(onWait, { ms, until, route, reason: 'rate_limited', error: rateLimitedWait(route, ms) });
    };
    try {
      announce(this.remaining());
      await raceAbort(previous, signal, route);
      announce(this.remaining());
      await sleep(this.remaining(), signal, route);
    } catch (error) {
      release();
      throw error;
    } finally {
      this.queued--;
      if (announced) notify(onWait!, { ms: 0, until: Date.now(), route, reason: 'rate_limited' });
    }
    return release;
  }

  private tooLong(route: string): GatewayError {
    const retryAfterMs = this.remaining();
    return new GatewayError({
      kind: 'rate_limited',
      route,
      status: 429,
      retryAfterMs,
      message: `${route}: rate limited; the gateway asked to wait ${Math.ceil(retryAfterMs / 1000)} s.`,
    });
  }
}

function noop(): void {
  /* nothing to release */
}

function raceAbort(p: Promise<void>, signal: AbortSignal | undefined, route: string): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(abortError(route));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(abortError(route));
    signal.addEventListener('abort', onAbort, { once: true });
    // Removed on both outcomes: callers reuse one long-lived signal for many requests.
    p.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * For billable POSTs whose outcome must never become unknown: a signal that follows `outer` only while the
 * request waits before being sent (nothing left this machine yet), so the user can cancel the wait; once
 * the request is sent, cancelling no longer aborts it.
 */
export function cancelOnlyWhileWaiting(
  outer: AbortSignal | undefined,
  onWait?: WaitListener,
): { signal: AbortSignal; onWait: WaitListener } {
  const controller = new AbortController();
  let waiting = false;
  outer?.addEventListener(
    'abort',
    () => {
      if (waiting) controller.abort();
    },
    { once: true },
  );
  return {
    signal: controller.signal,
    onWait: (notice) => {
      waiting = notice.ms > 0;
      if (waiting && outer?.aborted) controller.abort();
      onWait?.(notice);
    },
  };
}
