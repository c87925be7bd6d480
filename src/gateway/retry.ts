// Waiting rules of docs/gateway-protocol.md#rate-limits and #server-errors: Retry-After parsing, jittered backoff, abortable sleep, and the
// per-client queue that serialises requests while the gateway is rate limiting (429).
import { GatewayError } from './errors';

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

/** Sleeps `ms`, rejecting with an `aborted` GatewayError when the signal fires. */
export function sleep(ms: number, signal: AbortSignal | undefined, route: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(route));
  if (ms <= 0) return Promise.resolve();
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
  async admit(signal: AbortSignal | undefined, route: string, maxWaitMs: number): Promise<() => void> {
    if (this.remaining() === 0 && this.queued === 0) return noop;
    if (this.remaining() > maxWaitMs) throw this.tooLong(route);
    let release: () => void = noop;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    this.queued++;
    try {
      await raceAbort(previous, signal, route);
      await sleep(this.remaining(), signal, route);
    } catch (error) {
      release();
      throw error;
    } finally {
      this.queued--;
    }
    return release;
  }

  private tooLong(route: string): GatewayError {
    const retryAfterMs = this.remaining();
    return new GatewayError({
      kind: 'rate_limited', route, status: 429, retryAfterMs,
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
    p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, (error: unknown) => {
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
  });
}
