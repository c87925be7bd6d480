// The chat webview view: renders the page and connects it to the one webview channel (src/platform/webviewChannel.ts),
// which validates every message, holds posts until the page said 'ready' (it then gets the strings and a full
// snapshot, so hiding the view loses nothing) and owns every subscription of the current view.
import * as vscode from 'vscode';
import type { Logger } from '../../gateway/types';
import { WebviewChannel } from '../../platform/webviewChannel';
import { renderWebviewHtml, webviewOptions } from '../../platform/webviewHtml';
import {
  chatGuard,
  type ChatShapes,
  type HostToWebviewMessage,
  type WebviewToHostMessage,
} from '../../shared/protocol/chat';
import { Views } from '../../shared/commands';
import { webviewStringTable } from '../../shared/webviewStrings';

/** Answers one validated request: its result (search), or a RequestFailed with the refusal to show. */
export type ChatRequestHandler = (message: WebviewToHostMessage) => Promise<unknown>;

/** Posted before the page is ready, these wait for it; everything else is in the snapshot it gets then. */
const WAIT_FOR_READY = new Set<HostToWebviewMessage['type']>(['focusInput', 'showConversations', 'attachImage']);

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private readonly channel: WebviewChannel<ChatShapes>;

  constructor(
    private readonly extensionUri: vscode.Uri,
    onRequest: ChatRequestHandler,
    /** Resolves when the state can be read (the history is loaded). */
    stateReady: () => Promise<void>,
    /** The page's whole state, read when it is posted. */
    snapshot: () => HostToWebviewMessage,
    log: Pick<Logger, 'info' | 'warn' | 'error'>,
  ) {
    this.channel = new WebviewChannel<ChatShapes>({
      guard: chatGuard,
      log,
      strings: () => webviewStringTable(vscode.l10n),
      // Read and posted in one step after the wait: a snapshot read before an await and posted after it could land
      // after a newer one (New Chat waiting for the same history load), and the page would show a conversation that
      // is no longer the active one, ignoring every message of the active one (seen in the UI tests on a slow load).
      onReady: async () => {
        await stateReady();
        this.channel.post(snapshot());
      },
      onRequest,
      waitsForReady: (message) => WAIT_FOR_READY.has(message.type),
    });
  }

  private view: vscode.WebviewView | undefined;

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri, {
      script: 'chat',
      styles: ['common.css', 'chat.css'],
      title: 'Model Gateway Chat',
    });
    this.channel.attach(view);
  }

  /** How many subscriptions the current view has (tests: stays constant however often the view is resolved). */
  get listenerCount(): number {
    return this.channel.subscriptionCount;
  }

  /** Posts when the page is live; otherwise drops it (the next 'ready' gets a snapshot) or, for focus, keeps it. */
  post(message: HostToWebviewMessage): void {
    this.channel.post(message);
  }

  /** The view is shown (not collapsed, its container open). */
  get visible(): boolean {
    return this.view?.visible === true;
  }

  get isReady(): boolean {
    return this.channel.isReady;
  }

  /** Opens and focuses the chat view. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${Views.chat}.focus`);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
