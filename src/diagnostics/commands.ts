// Check Connection, Copy Support Info, Show Log, Refresh Models, Open Settings and Quick Actions: the diagnostics
// command table with its named handlers, and the report documents. In the commands bundle (src/diagnostics/chunk.ts,
// dist/features/commands.js), loaded on the first key or diagnostics command.
import * as vscode from 'vscode';
import type { CommandTable, TestHooks } from '../platform/commands';
import type { CatalogSnapshot, Services } from '../platform/services';
import { formatSupportInfo } from '../platform/supportLog';
import { Commands } from '../shared/commands';
import { requestHeaderNames } from '../shared/config';
import { groupByKind, otherKindsSummary } from '../catalog/classify';
import { checkConnection, REPORT_SCHEME, ReportDocuments, type CheckArgs } from './checkCommand';
import { quickActions } from './quickActions';
import { forgetLearnedDialects } from '../platform/dialectSource';
import type { StatusBar } from './statusBar';

export interface DiagnosticsCommands extends vscode.Disposable {
  readonly commands: CommandTable<'diagnostics'>;
  /** Check Connection without asking (billable) or showing (show), Refresh Models quietly, Copy Support Info of n requests. */
  readonly testHooks: TestHooks;
}

/** `status`: the status bar item (activation creates it), which Check Connection updates. */
export function createDiagnosticsCommands(services: Services, status: StatusBar): DiagnosticsCommands {
  const documents = new ReportDocuments();
  const commands: CommandTable<'diagnostics'> = {
    [Commands.checkConnection]: () => checkConnection(services, documents, status),
    [Commands.copySupportInfo]: () => copySupportInfo(services),
    [Commands.showLog]: () => services.log.show(),
    [Commands.refreshModels]: () => refreshModels(services),
    // The setting to show: other flows (errors, notices) open one setting.
    [Commands.openSettings]: openSettings,
    [Commands.quickActions]: () => quickActions(services),
    [Commands.forgetLearnedDialects]: async () => {
      await forgetLearnedDialects(services.context.globalState);
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Model Gateway: learned dialects forgotten. Each model is tried over POST /v1/messages again (modelGateway.models.dialects still applies).',
        ),
      );
    },
  };
  const testHooks: TestHooks = {
    checkConnection: (args: CheckArgs) => checkConnection(services, documents, status, args),
    refreshModels: (args: RefreshArgs) => refreshModels(services, args),
    copySupportInfo: (limit: number) => copySupportInfo(services, limit),
    // What opening Quick Actions does for the balance (a read when due), without the menu.
    readBalance: () => services.account.balance(),
    forgetLearnedDialects: () => forgetLearnedDialects(services.context.globalState),
  };
  // Report documents exist only after a check ran, so their provider is registered with the first check's code.
  const disposables = vscode.Disposable.from(
    documents,
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, documents),
  );
  return { commands, testHooks, dispose: () => disposables.dispose() };
}

/** Copies the last requests' five support fields; resolves with the copied text. */
export async function copySupportInfo(services: Services, limit = 20): Promise<string> {
  const records = services.support.recent(limit);
  const key = await services.keys.active();
  const secretNames = key ? (await services.keys.secretHeaderList(key.name)).map((h) => h.name) : [];
  const names = requestHeaderNames(services.config.current.requestHeaders, secretNames);
  const text = formatSupportInfo(records, services.secrets.redact, names);
  if (!(await withinMs(Promise.resolve(vscode.env.clipboard.writeText(text)), 5_000))) {
    // In a browser-hosted VS Code the clipboard can wait for page focus or permission: offer the text instead.
    services.log.warn('Copy Support Info: the clipboard did not answer; offering the text in an editor.');
    const open = vscode.l10n.t('Open as Document');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t('Model Gateway: the clipboard is not available. Open the support info as a document to copy it?'),
        open,
      )
      .then(async (choice) => {
        if (choice) await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: text }));
      });
    return text;
  }
  void vscode.window.showInformationMessage(
    records.length === 1
      ? vscode.l10n.t(
          'Model Gateway: copied 1 request (timestamp, route, model, HTTP status, request id). No key, prompt or answer is included.',
        )
      : vscode.l10n.t(
          'Model Gateway: copied {0} requests (timestamp, route, model, HTTP status, request id). No key, prompt or answer is included.',
          records.length,
        ),
  );
  return text;
}

/** True when the promise settles successfully within ms. */
async function withinMs(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface RefreshArgs {
  /** No notification; errors reject instead of being shown (tests, other commands). */
  quiet?: boolean;
  /** Use the cached list while it is fresh (ModelCatalog.get) instead of always fetching. */
  ifStale?: boolean;
}

/** Fetches the model list now; resolves with the snapshot (undefined when no key or base URL). */
export async function refreshModels(services: Services, args: RefreshArgs = {}): Promise<CatalogSnapshot | undefined> {
  const quiet = args.quiet === true;
  if (!(quiet ? await services.gateway.client() : await services.gateway.clientOrExplain())) {
    services.log.info(
      `Refresh Models: nothing to fetch (missing: ${(await services.gateway.missing()) ?? 'the stored secret'}).`,
    );
    return undefined;
  }
  try {
    const snapshot = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Model Gateway: fetching models') },
      () => (args.ifStale ? services.catalog.get() : services.catalog.refresh()),
    );
    if (snapshot && !quiet) {
      const split = groupByKind(snapshot.models);
      const args = [snapshot.models.length, snapshot.keyFingerprint, split.chat.length, split.image.length] as const;
      const others = split.other.length
        ? ' ' + vscode.l10n.t('Not offered in chat or images: {0}.', otherKindsSummary(split.other, vscode.l10n))
        : '';
      void vscode.window.showInformationMessage(
        (snapshot.listUnavailable
          ? vscode.l10n.t(
              'Model Gateway: this gateway does not list models (GET /v1/models: 404); using the declared ones (modelGateway.models.declared): {0} models for key {1}: {2} chat, {3} image.',
              ...args,
            )
          : vscode.l10n.t('Model Gateway: {0} models for key {1}: {2} chat, {3} image.', ...args)) + others,
      );
    }
    return snapshot;
  } catch (error) {
    if (quiet) throw error;
    void services.errors.show(error, 'models');
    return undefined;
  }
}

async function openSettings(setting?: string): Promise<void> {
  const query = setting ? `modelGateway.${setting.replace(/^modelGateway\./, '')}` : '@ext:model-gateway.model-gateway';
  await vscode.commands.executeCommand('workbench.action.openSettings', query);
}
