// The host side of the one webview channel (src/shared/protocol/channel.ts), used by the chat view and the image
// panel. It owns what both used to do by hand:
// - validation: every incoming message goes through the protocol's guard; a bad one is logged (reason, no content)
//   and dropped. Outgoing messages are checked too, so a host bug shows up in the log instead of a silent webview.
// - the ready handshake: nothing reaches a page before it said `ready`; then it gets the string table, the state
//   (`onReady`, e.g. a snapshot) and whatever waited in the queue.
// - whether a page is there: only VS Code knows. A hidden page (no retainContextWhenHidden) is usually gone, but not
//   always: VS Code reports a view hidden and keeps its page when the view is released by a layout change it did not
//   own (OverlayWebview.release checks the owner). Guessing from visibility left a live page that never got another
//   message (seen in the UI tests after a window reload). So the channel believes postMessage: a message that was
//   not delivered means the page is gone, and posting stops until the next page says `ready`; a message from a page
//   the channel thought gone proves it is there, and it is brought up to date (strings and state again).
// - subscriptions: `attach` takes the webview and everything that lives with it, and disposes all of it when the
//   view is disposed or another webview is attached; a provider cannot add listeners of its own on each resolve.
import type * as vscode from 'vscode';
import type { Logger } from '../gateway/types';
import { disposeAll } from '../shared/dispose';
import {
  RequestFailed,
  type Guard,
  type MessageOf,
  type RequestOf,
  type Shapes,
  type StringTable,
  type ToWebview,
} from '../shared/protocol/channel';

export interface WebviewChannelOptions<S extends Shapes> {
  guard: Guard<S>;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The localized string table, sent first after every `ready`. */
  strings: () => StringTable;
  /** The state a freshly loaded page needs (a snapshot), sent after the strings. */
  onReady?: () => Promise<void> | void;
  onNotification?: (message: MessageOf<S['toHost']>) => Promise<void> | void;
  /**
   * Answers a request with its result (the page checks it against the request's declaration); throw RequestFailed
   * with words for the user to refuse it.
   */
  onRequest?: (message: RequestOf<S>) => Promise<unknown>;
  /**
   * Which messages posted before the page is ready wait for it. Others are dropped: the state sent on `ready`
   * already contains them (a delta replayed after a snapshot would be applied twice). Default: none wait.
   */
  waitsForReady?: (message: MessageOf<S['toWebview']>) => boolean;
}

/** What the channel needs from a WebviewView or a WebviewPanel. */
export interface WebviewSurface {
  readonly webview: vscode.Webview;
  onDidDispose: vscode.Event<void>;
}

export class WebviewChannel<S extends Shapes> implements vscode.Disposable {
  private surface: WebviewSurface | undefined;
  private ready = false;
  /** Counts `ready`s: a delivery result that comes back after a newer page said ready is about the older page. */
  private generation = 0;
  /** Messages not posted since the page was last known to be there (they are in the state it gets on `ready`). */
  private dropped = 0;
  private queue: Array<MessageOf<S['toWebview']>> = [];
  private subscriptions: vscode.Disposable[] = [];

  constructor(private readonly options: WebviewChannelOptions<S>) {}

  private get name(): string {
    return this.options.guard.protocol.name;
  }

  /**
   * Connects a (new) webview. `lifetime` are subscriptions that live exactly as long as this webview. Whatever the
   * previous webview had is disposed first. Its visibility is not watched on purpose (see the top of this file).
   */
  attach(surface: WebviewSurface, lifetime: vscode.Disposable[] = []): void {
    this.detach();
    this.surface = surface;
    this.subscriptions = [
      ...lifetime,
      surface.webview.onDidReceiveMessage((value: unknown) => this.receive(value)),
      surface.onDidDispose(() => {
        if (this.surface === surface) this.detach();
      }),
    ];
  }

  /** How many subscriptions live with the current webview (tests: constant however often it is attached). */
  get subscriptionCount(): number {
    return this.subscriptions.length;
  }

  get isReady(): boolean {
    return this.ready;
  }

  get isAttached(): boolean {
    return this.surface !== undefined;
  }

  /** Posts now when the page is live; otherwise keeps it for `ready` (waitsForReady) or drops it. */
  post(message: MessageOf<S['toWebview']>): void {
    if (this.ready) return this.send(message);
    if (this.options.waitsForReady?.(message)) this.queue.push(message);
    else this.dropped++;
  }

  dispose(): void {
    this.detach();
  }

  private detach(): void {
    const subscriptions = this.subscriptions;
    this.subscriptions = [];
    this.surface = undefined;
    this.ready = false;
    disposeAll(subscriptions);
  }

  private send(message: ToWebview<S>): void {
    const checked = this.options.guard.toWebview(message);
    if (!checked.ok) {
      this.options.log.warn(`${this.name}: did not post a malformed message to the webview (${checked.reason})`);
      return;
    }
    const surface = this.surface;
    if (!surface) return;
    const generation = this.generation;
    surface.webview.postMessage(message).then(
      (delivered) => {
        if (delivered || this.surface !== surface || generation !== this.generation) return;
        // The page is gone (hidden without retainContextWhenHidden): the next one says `ready` and gets the state.
        if (this.ready) this.ready = false;
        if (message.type !== 'strings' && message.type !== 'reply' && this.options.waitsForReady?.(message as never)) {
          this.queue.push(message as MessageOf<S['toWebview']>);
        } else this.dropped++;
      },
      () => undefined,
    );
  }

  private receive(value: unknown): void {
    const checked = this.options.guard.toHost(value);
    if (!checked.ok) {
      this.options.log.warn(`${this.name}: ignored a malformed message from the webview (${checked.reason})`);
      return;
    }
    const message = checked.message;
    if (message.type === 'ready') return this.whenReady('page ready');
    // A page is speaking, so it is there; if the channel thought otherwise it may have missed messages.
    if (!this.ready) this.whenReady(`resynchronized a live page that was thought gone (by its '${message.type}')`);
    if ('requestId' in message) return void this.answer(message as RequestOf<S>);
    void Promise.resolve()
      .then(() => this.options.onNotification?.(message as MessageOf<S['toHost']>))
      .catch((e: unknown) => this.options.log.error(`${this.name}: '${message.type}' failed`, e));
  }

  private whenReady(why: string): void {
    const started = Date.now();
    const dropped = this.dropped;
    this.dropped = 0;
    this.becomeReady().then(
      () =>
        this.options.log.info(
          `${this.name}: ${why}; state sent in ${Date.now() - started} ms${dropped ? ` (${dropped} earlier messages left to it)` : ''}`,
        ),
      (e: unknown) => this.options.log.error(`${this.name}: ready failed`, e),
    );
  }

  private async becomeReady(): Promise<void> {
    this.ready = true;
    this.generation++;
    this.send({ type: 'strings', strings: this.options.strings() });
    await this.options.onReady?.();
    const waiting = this.queue;
    this.queue = [];
    for (const message of waiting) this.post(message);
  }

  private async answer(request: RequestOf<S>): Promise<void> {
    const { requestId } = request;
    try {
      const result = await this.options.onRequest?.(request);
      this.sendReply({ type: 'reply', requestId, result });
    } catch (error) {
      // A refusal is for the user; anything else is a bug: logged, and the page only learns that it failed.
      if (!(error instanceof RequestFailed)) this.options.log.error(`${this.name}: '${request.type}' failed`, error);
      this.sendReply({ type: 'reply', requestId, error: error instanceof RequestFailed ? error.message : '' });
    }
  }

  private sendReply(reply: ToWebview<S>): void {
    // Replies are for the page that asked: one that reloaded meanwhile has no one waiting for them.
    if (this.ready) this.send(reply);
  }
}
