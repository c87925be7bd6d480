// One 'abort' listener on a Stop signal, however many waits hang on it. The calls of one message that run in parallel
// (start_subagent: up to 12 in a turn) each waited on the turn's signal twice (their own signal's link, and the race
// that lets a call ignoring its signal not hold the turn); at the 11th listener Node prints a
// MaxListenersExceededWarning, a leak alarm for listeners that are all removed when their call ends. A fan-out keeps
// the real count at one instead of raising the limit for every signal.

interface FanOut {
  fire(): void;
  waiters: Set<() => void>;
}

const fanOuts = new WeakMap<AbortSignal, FanOut>();

/**
 * Calls `f` once when `signal` aborts (not at all when it already has: callers check `aborted` first); returns what
 * removes it. The signal's own listener goes when its last waiter does.
 */
export function onStop(signal: AbortSignal, f: () => void): () => void {
  let fan = fanOuts.get(signal);
  if (!fan) {
    const waiters = new Set<() => void>();
    const fire = (): void => {
      fanOuts.delete(signal);
      for (const g of [...waiters]) g();
    };
    fan = { fire, waiters };
    fanOuts.set(signal, fan);
    signal.addEventListener('abort', fire, { once: true });
  }
  const own = fan;
  const once = (): void => {
    own.waiters.delete(once);
    f();
  };
  own.waiters.add(once);
  return () => {
    own.waiters.delete(once);
    if (own.waiters.size === 0 && fanOuts.get(signal) === own) {
      fanOuts.delete(signal);
      signal.removeEventListener('abort', own.fire);
    }
  };
}
