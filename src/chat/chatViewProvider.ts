// The chat webview view: renders the page, validates every incoming message, and posts host messages
// only once the page said 'ready' (it then gets the full snapshot, so hiding the view loses nothing).
import * as vscode from 'vscode';
import { renderWebviewHtml, webviewOptions } from '../platform/webviewHtml';
import { isWebviewToHostMessage, type HostToWebviewMessage, type WebviewToHostMessage } from '../shared/protocol/chat';
import { Views } from '../shared/commands';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  /** Listeners of the current view only: replaced on every resolve (VS Code resolves again after a move or reload). */
  private viewListeners: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (message: WebviewToHostMessage) => void,
    private readonly onInvalid: (value: unknown) => void,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    view.webview.options = webviewOptions(this.extensionUri);
    view.webview.html = renderWebviewHtml(view.webview, this.extensionUri, { script: 'chat', styles: ['common.css', 'chat.css'], title: 'Model Gateway Chat' });
    this.disposeViewListeners();
    this.viewListeners = [
      view.webview.onDidReceiveMessage((value: unknown) => {
        if (!isWebviewToHostMessage(value)) return this.onInvalid(value);
        if (value.type === 'ready') this.ready = true;
        this.onMessage(value);
      }),
      // A hidden view loses its page (no retainContextWhenHidden): post nothing until it says 'ready' again.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.ready = false;
      }),
      view.onDidDispose(() => {
        if (this.view !== view) return;
        this.view = undefined;
        this.ready = false;
        this.disposeViewListeners();
      }),
    ];
  }

  /** How many listeners are attached (tests: stays constant however often the view is resolved). */
  get listenerCount(): number {
    return this.viewListeners.length;
  }

  private disposeViewListeners(): void {
    for (const d of this.viewListeners) d.dispose();
    this.viewListeners = [];
  }

  /** Posts when the page is live; otherwise drops (the next 'ready' gets a snapshot). */
  post(message: HostToWebviewMessage): void {
    if (this.view && this.ready) void this.view.webview.postMessage(message);
  }

  get isReady(): boolean {
    return this.ready;
  }

  /** Opens and focuses the chat view. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${Views.chat}.focus`);
  }

  dispose(): void {
    this.disposeViewListeners();
  }
}
