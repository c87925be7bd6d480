// The events of a stream kept for its async iterator: pushed as they are read, pulled one at a time by the
// caller, dropped altogether when only the final message is wanted.
import type { StreamEvent } from '../types';

interface Waiter {
  resolve(result: IteratorResult<StreamEvent>): void;
  reject(error: unknown): void;
}

export class EventQueue {
  private events: StreamEvent[] = [];
  private cursor = 0;
  private waiter: Waiter | undefined;
  /** False once only finalMessage() is wanted: events are not kept. */
  keep = true;

  constructor(
    /** Whether the stream settled, and its failure if it failed. */
    private readonly state: () => { settled: boolean; failure?: unknown },
  ) {}

  push(ev: StreamEvent): void {
    if (this.keep) this.events.push(ev);
  }

  /** Stops keeping events (and drops the kept ones). */
  drop(): void {
    this.keep = false;
    this.events = [];
  }

  /** Hands the next event (or the end) to a waiting caller. */
  wake(): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = undefined;
    this.pull(w);
  }

  pull(w: Waiter): void {
    if (this.cursor < this.events.length) {
      const value = this.events[this.cursor++];
      if (this.cursor > 1024 && this.cursor * 2 > this.events.length) {
        this.events = this.events.slice(this.cursor);
        this.cursor = 0;
      }
      w.resolve({ value, done: false });
      return;
    }
    const { settled, failure } = this.state();
    if (failure) w.reject(failure);
    else if (settled) w.resolve({ value: undefined, done: true });
    else this.waiter = w;
  }

  next(): Promise<IteratorResult<StreamEvent>> {
    return new Promise<IteratorResult<StreamEvent>>((resolve, reject) => this.pull({ resolve, reject }));
  }
}
