// Check Connection: runs the steps, logs each, shows the report as a rendered read-only markdown document and
// a summary notification whose buttons follow the advice for the first failure.
import * as vscode from 'vscode';
import { adviseOnError } from '../gateway';
import type { Services } from '../platform/services';
import { actionButtonIn } from '../platform/errorActions';
import { knownWithoutAsync } from '../platform/imageRoutes';
import { runConnectionCheck } from './checkConnection';
import { renderReport, stepLogLine, summarize, type ConnectionReport } from './report';
import type { StatusBar } from './statusBar';
import { requestHeaderNames } from '../shared/config';

export const REPORT_SCHEME = 'model-gateway-report';

export interface CheckArgs {
  /** true: send the 1-token billable request without asking; false: skip it without asking. */
  billable?: boolean;
  /** false: no document and no notification (tests, walkthrough automation). */
  show?: boolean;
}

/** Serves the last report as a read-only document. */
export class ReportDocuments implements vscode.TextDocumentContentProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  // The tab's title, in the user's language.
  readonly uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${vscode.l10n.t('Connection check')}.md` });
  private text = `# ${vscode.l10n.t('Model Gateway: connection check')}\n\n${vscode.l10n.t('Not run yet.')}\n`;

  update(text: string): void {
    this.text = text;
    this.emitter.fire(this.uri);
  }

  provideTextDocumentContent(): string {
    return this.text;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export async function checkConnection(
  services: Services,
  documents: ReportDocuments,
  status: StatusBar,
  args: CheckArgs = {},
): Promise<ConnectionReport> {
  const show = args.show !== false;
  services.log.info('Check connection: started.');
  const access = await services.gateway.clientWithKey();
  const activeKey = access?.key ?? (await services.keys.active());
  const secretNames = activeKey ? (await services.keys.secretHeaderList(activeKey.name)).map((h) => h.name) : [];
  const report = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Model Gateway: checking the connection…'),
      cancellable: true,
    },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return runConnectionCheck({
        config: services.config.current,
        key: access?.key ?? (await services.keys.active()),
        client: access?.client,
        proxyDescription: services.gateway.proxyDescription(vscode.l10n),
        requestHeaderNames: requestHeaderNames(services.config.current.requestHeaders, secretNames),
        // Read now: the report labels the figures as read from the gateway's route (never a cached one).
        balance: () => services.account.balance({ signal: abort.signal, fresh: true }),
        allowBillable: (model) => (args.billable !== undefined ? Promise.resolve(args.billable) : askBillable(model)),
        // The progress names the step that runs now (not the last one done: a dialog may be asking about it).
        onStep: (step) => services.log.info(stepLogLine(step)),
        onProgress: (title) => progress.report({ message: title }),
        signal: abort.signal,
        l10n: vscode.l10n,
        withoutAsyncImages: knownWithoutAsync(services.context.globalState, services.config.current.baseUrl),
      });
    },
  );
  status.setState(stateOf(report));
  if (report.ok) void services.catalog.refresh().catch(() => undefined);
  documents.update(renderReport(report, vscode.l10n));
  if (show) void present(services, documents, report);
  return { ...report, firstError: undefined };
}

function stateOf(report: ConnectionReport): Parameters<StatusBar['setState']>[0] {
  if (report.ok) return 'ok';
  const failed = report.steps.find((step) => step.status === 'fail');
  if (failed?.id === 'reachability') return 'unreachable';
  if (failed?.id === 'key') return 'key-rejected';
  if (failed?.id === 'baseUrl') return 'no-base-url';
  if (failed?.id === 'apiKey') return 'no-key';
  return 'error';
}

async function askBillable(model: string): Promise<boolean> {
  const send = vscode.l10n.t('Send 1-token Request');
  const choice = await vscode.window.showInformationMessage(
    vscode.l10n.t('Check the Messages route too?'),
    {
      modal: true,
      detail: vscode.l10n.t(
        'This sends POST /v1/messages to "{0}" with max_tokens 1. It is a real, billable request (a tiny one). It proves that your key group may call the route and that the version header is accepted.',
        model,
      ),
    },
    send,
  );
  return choice === send;
}

async function present(services: Services, documents: ReportDocuments, report: ConnectionReport): Promise<void> {
  const document = await vscode.workspace.openTextDocument(documents.uri);
  await vscode.languages.setTextDocumentLanguage(document, 'markdown');
  // Rendered by VS Code's Markdown preview (its strict security: no scripts); the source only where it is missing.
  try {
    await vscode.commands.executeCommand('markdown.showPreview', documents.uri);
  } catch {
    await vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
  }
  const summary = summarize(report, vscode.l10n);
  const buttons = report.firstError
    ? adviseOnError(report.firstError, {
        baseUrl: services.config.current.baseUrl,
        surface: 'connection',
        l10n: vscode.l10n,
      })
        .actions.filter((action) => action !== 'checkConnection')
        .map((action) => actionButtonIn(vscode.l10n, action))
        .filter((button) => button !== undefined)
    : [];
  const labels = buttons.map((button) => button!.label);
  const choice = report.ok
    ? await vscode.window.showInformationMessage(summary)
    : await vscode.window.showErrorMessage(summary, ...labels);
  const chosen = buttons.find((button) => button!.label === choice);
  if (chosen) await vscode.commands.executeCommand(chosen.command, ...chosen.args);
}
