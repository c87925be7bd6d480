// The one channel between the extension host and a webview (see docs/architecture.md#webview-messages).
// Each webview declares its messages once, as a Protocol: notifications host → webview, notifications
// webview → host, and requests (webview → host) with a typed reply. The same field tables give the TypeScript
// types and the runtime guard, and both sides validate everything they receive: an unknown type, a missing,
// extra or ill-typed field rejects the whole message (the caller logs the reason, never the content).
// Pure: no `vscode`, no DOM.
//
// Wire format (what postMessage carries):
//   notification  { type, ...fields }
//   request       { type, requestId, ...params }                 webview → host
//   reply         { type: 'reply', requestId, result } | { type: 'reply', requestId, error }   host → webview
//   ready         { type: 'ready' }            the page is live; the host answers with `strings`, then its state
//   strings       { type: 'strings', strings } the localized string table (first message after every ready)

// ---- checks: typed predicates that say where a value went wrong ----

/** Where a check failed: a dotted path and what was wrong (field names are ours; values are never recorded). */
export class Trail {
  private readonly path: string[] = [];
  problem: string | undefined;
  enter(key: string): void {
    this.path.push(key);
  }
  leave(): void {
    this.path.pop();
  }
  fail(problem: string): false {
    this.problem ??= this.path.length ? `${this.path.join('.')}: ${problem}` : problem;
    return false;
  }
}

/** A runtime check that is also a type guard for T. */
export type Check<T> = (value: unknown, trail?: Trail) => value is T;

/** The checks of an object's fields: one per field, optional ones included (use `opt`). */
export type Fields<T> = { [K in keyof T]-?: Check<T[K]> };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

export const str =
  (max: number, min = 0): Check<string> =>
  (v): v is string =>
    typeof v === 'string' && v.length >= min && v.length <= max;
export const matches =
  (pattern: RegExp): Check<string> =>
  (v): v is string =>
    typeof v === 'string' && pattern.test(v);
/** Ids the webview names (messages, conversations, tool calls, changes): short, no path characters. */
export const id: Check<string> = matches(/^[A-Za-z0-9_.:-]{1,128}$/);
export const int =
  (min: number, max: number): Check<number> =>
  (v): v is number =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
export const num: Check<number> = (v): v is number => typeof v === 'number' && Number.isFinite(v);
export const bool: Check<boolean> = (v): v is boolean => typeof v === 'boolean';
export const oneOf =
  <T extends string | number | boolean>(values: readonly T[]): Check<T> =>
  (v): v is T =>
    values.includes(v as T);
export const opt =
  <T>(check: Check<T>): Check<T | undefined> =>
  (v, trail): v is T | undefined =>
    v === undefined || check(v, trail);
export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v, trail): v is T | null =>
    v === null || check(v, trail);
/** Matches when any of the checks does (a union of object shapes). */
export const anyOf =
  <T>(...checks: Array<Check<T>>): Check<T> =>
  (v): v is T =>
    checks.some((c) => c(v));

export const arr =
  <T>(check: Check<T>, max: number): Check<T[]> =>
  (v, trail): v is T[] => {
    if (!Array.isArray(v)) return trail?.fail('not a list') ?? false;
    if (v.length > max) return trail?.fail('too many items') ?? false;
    return v.every((item, index) => within(trail, String(index), () => check(item, trail)));
  };

/** A plain object with exactly these fields: each one checked, nothing else allowed. */
export const obj =
  <T>(fields: Fields<T>): Check<T> =>
  (v, trail): v is T =>
    fieldsMatch(v, fields as Record<string, Check<unknown>>, [], trail);

/**
 * The lenient reading of the same fields, for data stored by an older or damaged version (the chat history): the
 * known fields that pass their check are kept, the others (and unknown ones) dropped; undefined when one of
 * `required` is missing or fails. What it returns passes `obj(fields)`.
 */
export const lenient =
  <T>(fields: Fields<T>, required: ReadonlyArray<keyof T & string>) =>
  (v: unknown): T | undefined => {
    if (!isRecord(v)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(fields as Record<string, Check<unknown>>)) {
      if (has(v, key) && v[key] !== undefined && check(v[key])) out[key] = v[key];
      else if (required.includes(key as keyof T & string)) return undefined;
    }
    return out as T;
  };

/** A string-keyed table (the string table): bounded size, keys and values checked. */
export const table =
  <V>(key: Check<string>, value: Check<V>, max: number): Check<Record<string, V>> =>
  (v, trail): v is Record<string, V> => {
    if (!isRecord(v)) return trail?.fail('not an object') ?? false;
    const entries = Object.entries(v);
    if (entries.length > max) return trail?.fail('too many entries') ?? false;
    return entries.every(
      ([k, item]) => (key(k) || (trail?.fail('bad key') ?? false)) && within(trail, k, () => value(item, trail)),
    );
  };

function within(trail: Trail | undefined, key: string, run: () => boolean): boolean {
  trail?.enter(key);
  const ok = run();
  if (!ok) trail?.fail('invalid');
  trail?.leave();
  return ok;
}

function fieldsMatch(
  v: unknown,
  fields: Record<string, Check<unknown>>,
  allowed: readonly string[],
  trail?: Trail,
): boolean {
  if (!isRecord(v)) return trail?.fail('not an object') ?? false;
  for (const key of Object.keys(v)) {
    // The name of an unexpected field is the sender's text: say that there was one, not what it was called.
    if (!has(fields, key) && !allowed.includes(key)) return trail?.fail('unexpected field') ?? false;
  }
  return Object.entries(fields).every(([key, check]) =>
    within(trail, key, () => check(v[key], trail) || (trail?.fail(has(v, key) ? 'invalid' : 'missing') ?? false)),
  );
}

// ---- protocols ----

/** A request: its params (fields of the message) and the result its reply carries. */
export interface RequestSpec<P, R> {
  params: Fields<P>;
  result: Check<R>;
  /** How long the webview waits for the reply; absent: as long as it takes (a modal dialog, an image task). */
  timeoutMs?: number;
}

/** What a webview's messages are, as maps from message type to its fields (declare them with `type`, not `interface`). */
export interface Shapes {
  toWebview: Record<string, object>;
  toHost: Record<string, object>;
  requests: Record<string, { params: object; result: unknown }>;
}

export interface Protocol<S extends Shapes> {
  /** For logs: 'chat', 'images'. */
  readonly name: string;
  readonly toWebview: { [K in keyof S['toWebview']]: Fields<S['toWebview'][K]> };
  readonly toHost: { [K in keyof S['toHost']]: Fields<S['toHost'][K]> };
  readonly requests: {
    [K in keyof S['requests']]: RequestSpec<S['requests'][K]['params'], S['requests'][K]['result']>;
  };
}

/** The message union of a type → fields map. */
export type MessageOf<M> = { [K in keyof M & string]: { type: K } & M[K] }[keyof M & string];
export type RequestOf<S extends Shapes> = {
  [K in keyof S['requests'] & string]: { type: K; requestId: string } & S['requests'][K]['params'];
}[keyof S['requests'] & string];
export type RequestType<S extends Shapes> = keyof S['requests'] & string;
export type ParamsOf<S extends Shapes, K extends RequestType<S>> = S['requests'][K]['params'];
export type ResultOf<S extends Shapes, K extends RequestType<S>> = S['requests'][K]['result'];

export type StringTable = Record<string, string>;
export interface ReadyMessage {
  type: 'ready';
}
export interface StringsMessage {
  type: 'strings';
  strings: StringTable;
}
export type ReplyMessage =
  { type: 'reply'; requestId: string; result?: unknown } | { type: 'reply'; requestId: string; error: string };

/** Everything the host may receive from a webview of this protocol. */
export type ToHost<S extends Shapes> = ReadyMessage | MessageOf<S['toHost']> | RequestOf<S>;
/** Everything a webview of this protocol may receive. */
export type ToWebview<S extends Shapes> = StringsMessage | ReplyMessage | MessageOf<S['toWebview']>;

export type Verdict<T> = { ok: true; message: T } | { ok: false; reason: string };

/** Bounds of the channel's own messages. */
export const CHANNEL_LIMITS = { strings: 2_000, stringKey: 200, stringValue: 4_000, error: 2_000 } as const;

const CHANNEL_TYPES = ['ready', 'strings', 'reply'];
const stringTable = table(str(CHANNEL_LIMITS.stringKey, 1), str(CHANNEL_LIMITS.stringValue), CHANNEL_LIMITS.strings);

function judge<T>(
  v: unknown,
  fields: Record<string, Check<unknown>>,
  allowed: readonly string[],
  type: string,
): Verdict<T> {
  const trail = new Trail();
  return fieldsMatch(v, fields, ['type', ...allowed], trail)
    ? { ok: true, message: v as T }
    : { ok: false, reason: `'${type}': ${trail.problem ?? 'invalid'}` };
}

function lookup<V>(map: Record<string, V>, type: unknown): V | undefined {
  return typeof type === 'string' && has(map, type) ? map[type] : undefined;
}

/** The guards of one protocol: the host runs `toHost` on everything it receives, the webview `toWebview` and `result`. */
export interface Guard<S extends Shapes> {
  readonly protocol: Protocol<S>;
  toHost(value: unknown): Verdict<ToHost<S>>;
  toWebview(value: unknown): Verdict<ToWebview<S>>;
  /** Checks a reply's result against its request's declared result. */
  result<K extends RequestType<S>>(type: K, value: unknown): Verdict<ResultOf<S, K>>;
}

export function guard<S extends Shapes>(protocol: Protocol<S>): Guard<S> {
  const toWebview = protocol.toWebview as Record<string, Record<string, Check<unknown>>>;
  const toHost = protocol.toHost as Record<string, Record<string, Check<unknown>>>;
  const requests = protocol.requests as Record<string, RequestSpec<object, unknown>>;
  // A type may be declared once: as a notification or as a request of one direction, and never as a channel message.
  for (const name of Object.keys(toHost).concat(Object.keys(requests), Object.keys(toWebview))) {
    if (CHANNEL_TYPES.includes(name)) throw new Error(`${protocol.name}: '${name}' is a channel message`);
  }
  for (const name of Object.keys(toHost))
    if (has(requests, name)) throw new Error(`${protocol.name}: '${name}' declared twice`);

  return {
    protocol,
    toHost(value) {
      const type = isRecord(value) ? value.type : undefined;
      if (type === 'ready') return judge(value, {}, [], 'ready');
      const fields = lookup(toHost, type);
      if (fields) return judge(value, fields, [], type as string);
      const request = lookup(requests, type);
      if (request)
        return judge(
          value,
          { ...(request.params as Record<string, Check<unknown>>), requestId: id },
          [],
          type as string,
        );
      return { ok: false, reason: 'unknown message type' };
    },
    toWebview(value) {
      const type = isRecord(value) ? value.type : undefined;
      if (type === 'strings') return judge(value, { strings: stringTable }, [], 'strings');
      if (type === 'reply' && isRecord(value)) {
        return has(value, 'error')
          ? judge(value, { requestId: id, error: str(CHANNEL_LIMITS.error) }, [], 'reply')
          : // The result's own shape is checked by `result` once the request it answers is known.
            judge(value, { requestId: id, result: (_v): _v is unknown => true }, [], 'reply');
      }
      const fields = lookup(toWebview, type);
      if (fields) return judge(value, fields, [], type as string);
      return { ok: false, reason: 'unknown message type' };
    },
    result(type, value) {
      const spec = lookup(requests, type);
      const trail = new Trail();
      return spec && spec.result(value, trail)
        ? { ok: true, message: value as ResultOf<S, typeof type> }
        : { ok: false, reason: `reply to '${type}': ${trail.problem ?? 'invalid result'}` };
    },
  };
}

/** A request the host refused or could not do: its message is shown to the user (already localized). */
export class RequestFailed extends Error {}

/** A result-less request's reply (an acknowledgement). */
export const none: Check<undefined> = (v): v is undefined => v === undefined;
