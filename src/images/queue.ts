// One image request in flight at a time (spec, 429: queue work, do not resend a batch concurrently).
// After a 429 with Retry-After, the next queued request waits that long before it goes out (the images' profile of
// gateway/rateLimitPolicy.ts). Pure (no vscode).
import { retryAfterOf } from '../gateway/rateLimitPolicy';

export class RequestQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private notBefore = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly sleep = defaultSleep,
  ) {}

  /** Runs `work` after every earlier request finished (and after any Retry-After pause). */
  run<T>(work: () => Promise<T>): Promise<T> {
    const start = async (): Promise<T> => {
      const wait = this.notBefore - this.now();
      if (wait > 0) await this.sleep(wait);
      try {
        return await work();
      } catch (error) {
        this.noteRetryAfter(error);
        throw error;
      }
    };
    const result = this.tail.then(start, start);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** How long the next request would wait, in ms (for messages). */
  pendingPauseMs(): number {
    return Math.max(0, this.notBefore - this.now());
  }

  private noteRetryAfter(error: unknown): void {
    const wait = retryAfterOf(error);
    if (wait !== undefined) this.notBefore = Math.max(this.notBefore, this.now() + wait);
  }
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
