// The inline completion provider: VS Code asks on every keystroke; the engine (engine.ts) decides whether a request
// goes out. This file only reads the editor (prefix, suffix, facts for the gates) and turns fills into items.
import * as vscode from 'vscode';
import { CompletionEngine, type FillSite, type Outcome } from '../engine';
import { refusalOf, type DocumentFacts, type GateRefusal, type GateSettings } from '../gates';
import { clipAround, cursorShape } from '../promptContext';

/** Read at most this much around the cursor: the prompt budget is far smaller, a huge file is never read whole. */
const READ_AROUND_CHARS = 16_000;
export const ACCEPTED_COMMAND = 'modelGateway.completions.accepted';

export interface ProviderHost {
  gates(): GateSettings;
  /** The fill for a site (the request, the mode, the context snippets): rejects like the gateway client. */
  fetch(
    site: FillSite & { singleLine: boolean; maxTokens: number; doc: string },
    document: vscode.TextDocument,
    signal: AbortSignal,
  ): Promise<string>;
  onOutcome(outcome: Outcome, shown: boolean): void;
  onRefused(refusal: GateRefusal): void;
}

/** Facts about a document the gates read (relPath: workspace-relative, or the whole path outside the workspace). */
export function factsOf(document: vscode.TextDocument): DocumentFacts {
  const inside = vscode.workspace.getWorkspaceFolder(document.uri);
  const relPath = inside ? vscode.workspace.asRelativePath(document.uri, false).replace(/\\/g, '/') : document.uri.path;
  return {
    scheme: document.uri.scheme,
    languageId: document.languageId,
    relPath,
    sizeChars: document.offsetAt(document.lineAt(document.lineCount - 1).range.end),
  };
}

export class GatewayInlineProvider implements vscode.InlineCompletionItemProvider {
  readonly engine: CompletionEngine;
  private pending: { doc: string; singleLine: boolean; maxTokens: number } | undefined;

  constructor(
    private readonly host: ProviderHost,
    engine?: CompletionEngine,
  ) {
    this.engine =
      engine ??
      new CompletionEngine(
        (site, signal) => this.host.fetch({ ...site, ...this.pending! }, this.documentOf(site.doc)!, signal),
        { now: () => performance.now(), sleep: abortableSleep },
      );
  }

  private documentOf(doc: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === doc);
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    _context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[] | undefined> {
    const refusal = refusalOf(factsOf(document), this.host.gates(), Date.now());
    if (refusal) {
      this.host.onRefused(refusal);
      return undefined;
    }
    const offset = document.offsetAt(position);
    const start = document.positionAt(Math.max(0, offset - READ_AROUND_CHARS));
    const end = document.positionAt(offset + READ_AROUND_CHARS);
    const rawPrefix = document.getText(new vscode.Range(start, position));
    const rawSuffix = document.getText(new vscode.Range(position, end));
    const shape = cursorShape(rawPrefix, rawSuffix);
    if (shape.skip) return undefined;
    const { prefix, suffix } = clipAround(rawPrefix, rawSuffix);
    const site: FillSite = { doc: document.uri.toString(), prefix, suffix };
    this.pending = { doc: site.doc, singleLine: shape.singleLine, maxTokens: shape.maxTokens };
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    let outcome: Outcome;
    try {
      outcome = await this.engine.provide(site, controller.signal);
    } finally {
      sub.dispose();
    }
    const text = 'text' in outcome ? outcome.text : '';
    const shown = text.trim() !== '' && !token.isCancellationRequested;
    this.host.onOutcome(outcome, shown);
    if (!shown) return undefined;
    this.engine.markShown(site, text);
    const item = new vscode.InlineCompletionItem(text, new vscode.Range(position, position), {
      title: 'accepted',
      command: ACCEPTED_COMMAND,
    });
    return [item];
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
