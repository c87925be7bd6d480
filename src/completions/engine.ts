// The completion engine (pure: no `vscode`, timers and the request injected): what happens between a keystroke and
// a suggestion. Cheap by construction:
// - one request in flight: every new keystroke aborts the previous one (its socket closes at once);
// - typing through a shown suggestion consumes it without a request;
// - a small cache of recent fills by the text around the cursor;
// - an adaptive debounce: it follows the user's typing rhythm, so a burst of keys sends nothing and a pause sends one.

/** The cursor's surroundings a fill is asked for. */
export interface FillSite {
  /** Identifies the document (its URI): shown suggestions and cache entries never cross documents. */
  doc: string;
  prefix: string;
  suffix: string;
}

export type Outcome =
  | { kind: 'consumed'; text: string }
  | { kind: 'cached'; text: string }
  | { kind: 'fetched'; text: string; latencyMs: number }
  /** A newer keystroke (or VS Code) cancelled it: during the debounce (nothing sent) or in flight (socket closed). */
  | { kind: 'cancelled'; sent: boolean }
  | { kind: 'failed'; error: unknown };

export interface EngineClock {
  now(): number;
  /** Resolves after `ms`; rejects (or resolves, the engine checks the signal) when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export type Fetcher = (site: FillSite, signal: AbortSignal) => Promise<string>;

export const DEBOUNCE_MIN_MS = 120;
export const DEBOUNCE_MAX_MS = 400;
export const DEBOUNCE_DEFAULT_MS = 200;
const RHYTHM_SAMPLES = 8;
const CACHE_SIZE = 64;
// Keys further apart than this are a pause, not the typing rhythm.
const RHYTHM_GAP_MS = 1_000;

/**
 * The debounce for a typing rhythm: 1.6 × the median gap between recent keys, within [MIN, MAX]. A fast typist
 * (60 ms between keys) waits ~120 ms; a slow one (200 ms) ~320 ms: in both, a request goes out in a pause only.
 */
export function adaptiveDebounce(gaps: readonly number[]): number {
  if (gaps.length < 3) return DEBOUNCE_DEFAULT_MS;
  const sorted = [...gaps].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return Math.round(Math.min(DEBOUNCE_MAX_MS, Math.max(DEBOUNCE_MIN_MS, median * 1.6)));
}

/** The key of a cache entry: the end of the prefix and the start of the suffix (where a fill depends on). */
export function cacheKey(site: FillSite): string {
  return `${site.doc}\u0000${site.prefix.slice(-400)}\u0000${site.suffix.slice(0, 120)}`;
}

/** What is left of a shown suggestion after the user typed `typed` of it, or undefined when they typed otherwise. */
export function typedThrough(shown: FillSite & { text: string }, site: FillSite): string | undefined {
  if (site.doc !== shown.doc || !site.prefix.startsWith(shown.prefix)) return undefined;
  const typed = site.prefix.slice(shown.prefix.length);
  if (typed === '' || !shown.text.startsWith(typed) || typed.length >= shown.text.length) return undefined;
  // The code after the cursor must be what it was (VS Code inserts closing brackets: allow the suffix to be kept).
  if (site.suffix !== shown.suffix) return undefined;
  return shown.text.slice(typed.length);
}

export class CompletionEngine {
  private inFlight: AbortController | undefined;
  private lastKeyAt: number | undefined;
  private readonly gaps: number[] = [];
  private shown: (FillSite & { text: string }) | undefined;
  private readonly cache = new Map<string, string>();
  /** Counters for the usage panel's local figures and the benchmark. */
  readonly counts = { asked: 0, consumed: 0, cached: 0, sent: 0, cancelledInFlight: 0, cancelledWaiting: 0 };

  constructor(
    private readonly fetch: Fetcher,
    private readonly clock: EngineClock,
  ) {}

  /** The current debounce (ms). */
  get debounceMs(): number {
    return adaptiveDebounce(this.gaps);
  }

  /** A fill for the cursor's site; `outer` is VS Code's cancellation (the user typed on, or the editor moved). */
  async provide(site: FillSite, outer?: AbortSignal): Promise<Outcome> {
    this.counts.asked++;
    this.noteKey();
    // One request in flight: whatever the previous keystroke started is over.
    this.inFlight?.abort();
    this.inFlight = undefined;
    const left = this.shown && typedThrough(this.shown, site);
    if (left !== undefined) {
      this.counts.consumed++;
      return { kind: 'consumed', text: left };
    }
    const key = cacheKey(site);
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      this.counts.cached++;
      return { kind: 'cached', text: hit };
    }
    const controller = new AbortController();
    this.inFlight = controller;
    const onOuter = (): void => controller.abort();
    if (outer?.aborted) controller.abort();
    outer?.addEventListener('abort', onOuter, { once: true });
    try {
      await this.clock.sleep(this.debounceMs, controller.signal).catch(() => undefined);
      if (controller.signal.aborted) {
        this.counts.cancelledWaiting++;
        return { kind: 'cancelled', sent: false };
      }
      const started = this.clock.now();
      this.counts.sent++;
      try {
        const text = await this.fetch(site, controller.signal);
        if (controller.signal.aborted) {
          this.counts.cancelledInFlight++;
          return { kind: 'cancelled', sent: true };
        }
        this.remember(key, text);
        return { kind: 'fetched', text, latencyMs: this.clock.now() - started };
      } catch (error) {
        if (controller.signal.aborted) {
          this.counts.cancelledInFlight++;
          return { kind: 'cancelled', sent: true };
        }
        return { kind: 'failed', error };
      }
    } finally {
      outer?.removeEventListener('abort', onOuter);
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  /** The suggestion VS Code shows now (typing through it consumes it). */
  markShown(site: FillSite, text: string): void {
    this.shown = text ? { ...site, text } : undefined;
  }

  /** Forgets the shown suggestion (accepted, dismissed, or the document changed elsewhere). */
  clearShown(): void {
    this.shown = undefined;
  }

  /** Aborts what is in flight (the feature turned off, the window closing). */
  cancel(): void {
    this.inFlight?.abort();
    this.inFlight = undefined;
  }

  private noteKey(): void {
    const now = this.clock.now();
    if (this.lastKeyAt !== undefined) {
      const gap = now - this.lastKeyAt;
      if (gap > 0 && gap < RHYTHM_GAP_MS) {
        this.gaps.push(gap);
        if (this.gaps.length > RHYTHM_SAMPLES) this.gaps.shift();
      }
    }
    this.lastKeyAt = now;
  }

  private remember(key: string, text: string): void {
    this.cache.set(key, text);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
  }
}
