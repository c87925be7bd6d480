// Keep-alive connections the gateway may already be closing (docs/gateway-client.md#stale-connections).
//
// A server closes an idle connection after its own timeout, often without saying which (uvicorn: 5 s and no
// Keep-Alive header). undici retires idle sockets on a timer, but a timer cannot fire while the event loop is
// busy: after a synchronous tool, a blocked extension host or a slow answer handler, the next request is
// written on a socket the server closes at the same moment, and a POST lost that way cannot be sent again
// (it may have been billed). So the idle time is checked with the wall clock when a request is dispatched:
// if a pooled connection of that origin may have been idle longer than the server keeps it, the origin's
// pool is retired (closed gracefully: running requests finish on it) and the request opens a fresh one.
import type { Dispatcher } from 'undici';
import { undici } from './undici';

/** How long a connection may sit idle when the server's answers give no `Keep-Alive: timeout=N` hint. */
export const IDLE_WITHOUT_HINT_MS = 2_000;
/** Taken off a server's hint (at most half of it): the answer's trip here and a timer that ran late. */
export const HINT_MARGIN_MS = 2_000;

/** Errors of requests that failed before undici handed any byte of them to a socket (see `neverWritten`). */
const unwritten = new WeakSet<object>();

/** True when the request that failed with `error` was never written: no byte of it reached the server. */
export function neverWritten(error: unknown): boolean {
  return typeof error === 'object' && error !== null && unwritten.has(error);
}

/** The longest safe idle time under a `Keep-Alive` header value (`timeout=5, max=100`), else `fallbackMs`. */
export function idleLimitOf(keepAlive: string | undefined, fallbackMs = IDLE_WITHOUT_HINT_MS): number {
  const seconds = /(?:^|[\s,])timeout\s*=\s*(\d+)/i.exec(keepAlive ?? '')?.[1];
  if (seconds === undefined) return fallbackMs;
  const hintMs = Number(seconds) * 1000;
  return hintMs - Math.min(HINT_MARGIN_MS, hintMs / 2);
}

interface OriginPool {
  inner: Dispatcher;
  /** Safe idle time for this origin (from its last Keep-Alive hint). */
  limitMs: number;
  /** When each connection that may be idle now became idle (a response ended on it). */
  idleSince: number[];
}

/** Makes the dispatcher one origin's requests go through (a new one after each retirement). */
export type InnerFactory = () => Dispatcher;

/**
 * A dispatcher that never writes a request on a pooled connection idle for longer than its server keeps it.
 * `make` builds the pool for one origin (an Agent, a proxy agent); it is given the idle default as undici's
 * own `keepAliveTimeout` by `agentOptions()`.
 */
export function createFreshConnectionDispatcher(make: InnerFactory): Dispatcher {
  const { Dispatcher: Base } = undici();
  class FreshConnections extends Base {
    private readonly origins = new Map<string, OriginPool>();

    override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const key = String(opts.origin ?? '');
      const pool = this.poolFor(key);
      // The youngest idle connection is counted as the one this request takes: the oldest idle time stays
      // counted, so a connection the pool leaves idle is never forgotten (at worst one fresh connection too many).
      pool.idleSince.pop();
      return pool.inner.dispatch(opts, observe(handler, pool));
    }

    /** The origin's pool, replaced first when one of its connections may have been idle too long. */
    private poolFor(key: string): OriginPool {
      const pool = this.origins.get(key);
      const now = Date.now();
      if (pool && !pool.idleSince.some((since) => now - since > pool.limitMs)) return pool;
      if (pool) void pool.inner.close().catch(() => undefined);
      const fresh: OriginPool = { inner: make(), limitMs: pool?.limitMs ?? IDLE_WITHOUT_HINT_MS, idleSince: [] };
      this.origins.set(key, fresh);
      return fresh;
    }

    override async close(): Promise<void> {
      const pools = [...this.origins.values()];
      this.origins.clear();
      await Promise.all(pools.map((p) => p.inner.close()));
    }

    override async destroy(): Promise<void> {
      const pools = [...this.origins.values()];
      this.origins.clear();
      await Promise.all(pools.map((p) => p.inner.destroy()));
    }
  }
  return new FreshConnections() as unknown as Dispatcher;
}

/** undici Agent options that match this module's idle default (undici's own timer, while the loop runs). */
export function agentOptions(): { keepAliveTimeout: number; keepAliveTimeoutThreshold: number } {
  return { keepAliveTimeout: IDLE_WITHOUT_HINT_MS, keepAliveTimeoutThreshold: HINT_MARGIN_MS };
}

let direct: Dispatcher | undefined;

/** The dispatcher of a plain direct connection (no proxy, certificates verified), shared by every client. */
export function directDispatcher(): Dispatcher {
  return (direct ??= createFreshConnectionDispatcher(() => new (undici().Agent)(agentOptions())));
}

type Method = (...args: unknown[]) => unknown;

/**
 * The handler with its lifecycle observed: whether the request was handed to a socket (undici calls
 * onConnect / onRequestStart just before writing it), the server's Keep-Alive hint, and when the response
 * ended (its connection is idle from then on). Both handler styles of undici 7 are observed.
 */
function observe(handler: Dispatcher.DispatchHandler, pool: OriginPool): Dispatcher.DispatchHandler {
  let written = false;
  const onHint = (value: unknown): void => {
    pool.limitMs = idleLimitOf(typeof value === 'string' ? value : undefined);
  };
  const onFailure = (error: unknown): void => {
    if (!written && typeof error === 'object' && error !== null) unwritten.add(error);
  };
  const before = new Map<string | symbol, (args: unknown[]) => void>([
    ['onConnect', () => (written = true)],
    ['onRequestStart', () => (written = true)],
    ['onHeaders', (args) => onHint(keepAliveOfRaw(args[1]))],
    ['onResponseStart', (args) => onHint((args[2] as Record<string, unknown> | undefined)?.['keep-alive'])],
    ['onComplete', () => pool.idleSince.push(Date.now())],
    ['onResponseEnd', () => pool.idleSince.push(Date.now())],
    ['onError', (args) => onFailure(args[0])],
    ['onResponseError', (args) => onFailure(args[1])],
  ]);
  return new Proxy(handler, {
    get(target, prop): unknown {
      // The handler itself as receiver: undici's handlers keep private fields.
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const hook = before.get(prop);
      return (...args: unknown[]): unknown => {
        hook?.(args);
        return (value as Method).apply(target, args);
      };
    },
  });
}

/** The Keep-Alive value among raw headers ([name, value, ...] as Buffers or strings). */
function keepAliveOfRaw(raw: unknown): string | undefined {
  if (!Array.isArray(raw)) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (String(raw[i]).toLowerCase() === 'keep-alive') return String(raw[i + 1]);
  }
  return undefined;
}
