// The webview side of the one channel (src/shared/protocol/channel.ts): the only caller of acquireVsCodeApi.
// It says `ready`, takes the string table, then builds the page (`connect`); validates every host message with the
// protocol's guard (a bad one is dropped with a console warning, without its content); sends notifications; and sends
// requests whose replies resolve a promise (rejected with the host's refusal, or after the request's timeout).
import type {
  Guard,
  MessageOf,
  ParamsOf,
  ReplyMessage,
  RequestType,
  ResultOf,
  Shapes,
  StringsMessage,
  StringTable,
} from '../../shared/protocol/channel';
import { setStrings } from './strings';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;
/** acquireVsCodeApi may be called once per page. */
function vscodeApi(): VsCodeApi {
  return (api ??= acquireVsCodeApi());
}

/** The page's own state (drafts, the form), kept by VS Code across hide and reload. */
export function getState(): unknown {
  return vscodeApi().getState();
}

export function setState(state: unknown): void {
  vscodeApi().setState(state);
}

/** A request the host refused (its words, already localized; may be empty), or one that got no reply in time. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
  }
}

interface Pending {
  type: string;
  resolve(value: unknown): void;
  reject(error: RequestError): void;
  timer?: ReturnType<typeof setTimeout>;
}

export type HostMessage<S extends Shapes> = MessageOf<S['toWebview']>;

export class Channel<S extends Shapes> {
  private counter = 0;
  private readonly pending = new Map<string, Pending>();
  private handler: ((message: HostMessage<S>) => void) | undefined;
  /** Host messages that came before the strings (none should): delivered once the page is built. */
  private early: Array<HostMessage<S>> = [];

  constructor(private readonly guard: Guard<S>) {}

  /**
   * Listens, says `ready`, and once the string table arrives calls `build`, which makes the page and returns the
   * handler of host messages.
   */
  connect(build: (strings: StringTable) => (message: HostMessage<S>) => void): void {
    window.addEventListener('message', (event: MessageEvent) => this.receive(event.data, build));
    this.resync();
  }

  /**
   * Says `ready`: the host answers with the strings and the whole state. A new page says it once; a page that found
   * itself out of step says it again (the page is built once; the state replaces what it shows).
   */
  resync(): void {
    vscodeApi().postMessage({ type: 'ready' });
  }

  notify<K extends keyof S['toHost'] & string>(type: K, fields: S['toHost'][K]): void {
    vscodeApi().postMessage({ ...fields, type });
  }

  request<K extends RequestType<S>>(type: K, params: ParamsOf<S, K>): Promise<ResultOf<S, K>> {
    const requestId = `r${Date.now().toString(36)}-${(this.counter++).toString(36)}`;
    const timeoutMs = (this.guard.protocol.requests as Record<string, { timeoutMs?: number }>)[type]?.timeoutMs;
    return new Promise<ResultOf<S, K>>((resolve, reject) => {
      const entry: Pending = { type, resolve: resolve as (value: unknown) => void, reject };
      if (timeoutMs) {
        entry.timer = setTimeout(() => {
          this.pending.delete(requestId);
          reject(new RequestError('', true));
        }, timeoutMs);
      }
      this.pending.set(requestId, entry);
      vscodeApi().postMessage({ ...params, type, requestId });
    });
  }

  /** Requests still waiting for their reply (tests). */
  get waiting(): number {
    return this.pending.size;
  }

  private receive(data: unknown, build: (strings: StringTable) => (message: HostMessage<S>) => void): void {
    const checked = this.guard.toWebview(data);
    if (!checked.ok) {
      console.warn(`${this.guard.protocol.name}: ignored a malformed message from the host (${checked.reason})`);
      return;
    }
    const message = checked.message as { type: string };
    if (message.type === 'strings') {
      const { strings } = message as StringsMessage;
      setStrings(strings);
      if (!this.handler) {
        this.handler = build(strings);
        const early = this.early;
        this.early = [];
        for (const m of early) this.apply(m);
      }
      return;
    }
    if (message.type === 'reply') return this.settle(message as ReplyMessage);
    const notification = message as HostMessage<S>;
    if (this.handler) this.apply(notification);
    else this.early.push(notification);
  }

  /** One host message; a page bug is reported on the console (type and error, no content) and the next one still applies. */
  private apply(message: HostMessage<S>): void {
    try {
      this.handler?.(message);
    } catch (error) {
      console.error(`${this.guard.protocol.name}: could not apply '${message.type}' (${String(error).slice(0, 200)})`);
    }
  }

  private settle(reply: ReplyMessage): void {
    const entry = this.pending.get(reply.requestId);
    // A reply nobody waits for (timed out, or meant for the page before a reload) is dropped.
    if (!entry) return;
    this.pending.delete(reply.requestId);
    clearTimeout(entry.timer);
    if ('error' in reply && typeof reply.error === 'string') return entry.reject(new RequestError(reply.error));
    const result = this.guard.result(entry.type as RequestType<S>, (reply as { result?: unknown }).result);
    if (result.ok) return entry.resolve(result.message);
    console.warn(`${this.guard.protocol.name}: ignored a malformed reply (${result.reason})`);
    entry.reject(new RequestError(''));
  }
}
