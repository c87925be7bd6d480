// A value built on first use. A failed build is not cached: the next call tries again.

export interface Lazy<T> {
  (): T;
  /** Whether the value was built (tests and the activation log). */
  readonly loaded: boolean;
}

export function lazy<T>(create: () => T): Lazy<T> {
  let value: { v: T } | undefined;
  const get = (() => (value ??= { v: create() }).v) as Lazy<T>;
  Object.defineProperty(get, 'loaded', { get: () => value !== undefined });
  return get;
}
