// Coalesces stream deltas on the host so the webview gets one message per ~frame, not one per token.
export interface PendingDelta {
  text: string;
  thinking: string;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const nodeTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => performance.now(),
};

/**
 * Collects text and thinking deltas; sends at most once per `intervalMs`, and on demand. The first
 * delta after a quiet interval goes out at once (the first token must not wait for a timer).
 */
export class DeltaBatcher {
  private pending: PendingDelta = { text: '', thinking: '' };
  private timer: unknown;
  private lastEmit = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly emit: (delta: PendingDelta) => void,
    private readonly intervalMs = 24,
    private readonly timers: Timers = nodeTimers,
  ) {}

  push(kind: 'text' | 'thinking', chunk: string): void {
    if (!chunk) return;
    this.pending[kind] += chunk;
    if (this.timer !== undefined) return;
    const wait = this.lastEmit + this.intervalMs - this.timers.now();
    if (wait <= 0) this.flush();
    else this.timer = this.timers.setTimeout(() => this.flush(), wait);
  }

  /** Sends whatever is pending now (before a finish message, so order is kept). */
  flush(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const { text, thinking } = this.pending;
    if (!text && !thinking) return;
    this.pending = { text: '', thinking: '' };
    this.lastEmit = this.timers.now();
    this.emit({ text, thinking });
  }

  dispose(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = { text: '', thinking: '' };
  }
}
