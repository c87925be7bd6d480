// Coalescing of model-list fetches (pure, no vscode; unit-tested). Every fetch has a cause the user can
// name; the gate makes sure that no setting value (cacheMinutes 0), event order or error can turn those
// causes into a request loop:
// - one request per context at a time: a second caller gets the running promise;
// - automatic fetches (startup, a key or base-URL change, a reader that found the cache stale) are skipped
//   while the last attempt of that context started less than `minIntervalMs` ago; the caller then uses
//   the cached list, or gets the last attempt's error again. A user action (Refresh Models) is not skipped.

export interface GateOptions {
  minIntervalMs: number;
  now?: () => number;
}

export type GateDecision<T> =
  | { kind: 'started' | 'joined'; promise: Promise<T> }
  /** Automatic fetch refused: the last attempt is too recent. `error` is that attempt's failure, if it failed. */
  | { kind: 'skipped'; error?: unknown };

interface ContextState<T> {
  startedAt?: number;
  running?: Promise<T>;
  error?: unknown;
}

export class FetchGate<T> {
  private readonly states = new Map<string, ContextState<T>>();
  private readonly now: () => number;

  constructor(private readonly options: GateOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Runs `fetch` for `context` unless it runs already (joined) or, when automatic, ran too recently (skipped). */
  run(context: string, fetch: () => Promise<T>, automatic: boolean): GateDecision<T> {
    const state = this.state(context);
    if (state.running) return { kind: 'joined', promise: state.running };
    const now = this.now();
    // A clock that went backwards counts as recent: never a reason to fetch more.
    if (automatic && state.startedAt !== undefined && now - state.startedAt < this.options.minIntervalMs) {
      return { kind: 'skipped', error: state.error };
    }
    state.startedAt = now;
    const promise = (async () => fetch())()
      .then(
        (value) => {
          state.error = undefined;
          return value;
        },
        (error: unknown) => {
          state.error = error;
          throw error;
        },
      )
      .finally(() => {
        if (state.running === promise) state.running = undefined;
      });
    state.running = promise;
    return { kind: 'started', promise };
  }

  /** Milliseconds until an automatic fetch of `context` is allowed again (0: now). */
  waitBeforeAutomatic(context: string): number {
    const state = this.states.get(context);
    if (state?.running) return this.options.minIntervalMs;
    if (state?.startedAt === undefined) return 0;
    return Math.max(0, this.options.minIntervalMs - (this.now() - state.startedAt));
  }

  private state(context: string): ContextState<T> {
    let state = this.states.get(context);
    if (!state) {
      state = {};
      this.states.set(context, state);
      // Bounded: one entry per (key, base URL) seen in this session; drop the oldest beyond a few dozen.
      if (this.states.size > 50) this.states.delete(this.states.keys().next().value as string);
    }
    return state;
  }
}
