// The one 429 policy (docs/gateway-protocol.md#rate-limits): for each caller, how often a request the gateway refused
// with 429 waits and goes out again, how long it waits when no Retry-After came, the longest wait it sits through, and
// how the wait is shown. Callers ask here; none reads a Retry-After itself. A 429 is a refusal before any processing
// (nothing was billed), so the same request may go again after the wait; a stream cut after it started is not a 429
// here and is never sent again (it may have been billed). Pure.
import { isGatewayError, type GatewayError } from './errors/errors';

export interface RateLimitProfile {
  /** How many times one request waits out a 429 and goes out again (0: the 429 is the caller's answer at once). */
  readonly maxWaits: number;
  /** The wait when the 429 named no Retry-After (absent: the client's jittered backoff, retry.ts#backoffDelay). */
  readonly defaultWaitMs?: number;
  /**
   * The longest wait: a longer Retry-After ends the request with the 429 (its card names the time). For a caller
   * that never waits (maxWaits 0), how long at most it keeps away after one.
   */
  readonly maxWaitMs: number;
}

export type RateLimitCaller = 'client' | 'chat' | 'agent' | 'images' | 'completions';

/** Shown by every caller: the wait's countdown or time, never a silent sleep. */
const CLIENT: RateLimitProfile = { maxWaits: 2, maxWaitMs: 60_000 };

export const RATE_LIMIT_PROFILES: Readonly<Record<RateLimitCaller, RateLimitProfile>> = {
  // Any request of a client with its own resends on (model list, VS Code's chat, checks): http.ts waits and sends
  // again, told through RequestOptions.onWait (lm: a progress line); while a Retry-After runs, the client's later
  // requests queue behind it (retry.ts RateLimitQueue).
  client: CLIENT,
  // An Ask answer (the chat's client has its own resends off): it waits in the request slot with its countdown card
  // (chat/requestSlot.ts), then goes out again; after that, or past the longest wait, its card offers Retry.
  chat: { maxWaits: 2, defaultWaitMs: 10_000, maxWaitMs: 300_000 },
  // An agent step (ours and @gateway's, sub-agents too): waits inside the loop (agent/loop.ts), each wait a
  // `rate_limited` event the chat and VS Code show; past the cap the turn ends `rate_limited`.
  agent: { maxWaits: 5, defaultWaitMs: 10_000, maxWaitMs: 300_000 },
  // An image request: the client's own waits (progress and status bar, images/runner.ts), and one image request at a
  // time, the next one held back for the Retry-After (images/queue.ts).
  images: CLIENT,
  // A completion while typing: never waited out. The completion is skipped and the next ones keep away for the
  // Retry-After (at most 10 minutes), said on the status bar (completions/register.ts).
  completions: { maxWaits: 0, defaultWaitMs: 30_000, maxWaitMs: 600_000 },
};

/** A 429 (or the client's own "wait too long") that came before any content: nothing was processed or billed. */
export function isRateLimited(error: unknown): error is GatewayError {
  return (
    isGatewayError(error) && error.kind === 'rate_limited' && !error.partial && !error.cut && !error.outcomeUnknown
  );
}

/** The Retry-After of a 429 (ms), when the gateway named one. */
export function retryAfterOf(error: unknown): number | undefined {
  return isRateLimited(error) && typeof error.retryAfterMs === 'number' && error.retryAfterMs >= 0
    ? error.retryAfterMs
    : undefined;
}

/**
 * How long to wait before sending a request refused with `error` again, the `attempt`-th time (1 for the first), or
 * undefined: not a 429 before any content, the profile's waits are used up, or the gateway asks for longer than it
 * sits through.
 */
export function rateLimitWait(error: unknown, attempt: number, profile: RateLimitProfile): number | undefined {
  if (!isRateLimited(error) || attempt > profile.maxWaits) return undefined;
  const wait = retryAfterOf(error) ?? profile.defaultWaitMs;
  return wait === undefined || wait > profile.maxWaitMs ? undefined : wait;
}

/** For a caller that never waits (completions): how long to keep away after a 429, or undefined for another error. */
export function holdOffAfter(error: unknown, profile: RateLimitProfile): number | undefined {
  if (!isRateLimited(error)) return undefined;
  return Math.min(retryAfterOf(error) ?? profile.defaultWaitMs ?? 0, profile.maxWaitMs);
}

/** Sleeps `ms` unless `signal` fires first; false when it fired (nothing is thrown: Stop is an outcome). */
export function waitOut(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
