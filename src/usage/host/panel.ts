// The usage panel ("Model Gateway: Show Usage"): the ledger of the active key drawn as a page with no script at all
// (CSP default-src 'none', styles from media/ only). Export and Clear are commands in the panel's title bar.
import * as vscode from 'vscode';
import type { Services } from '../../platform/services';
import { contentSecurityPolicy, createNonce } from '../../platform/webviewHtml';
import { Views } from '../../shared/commands';
import { COMPLETION_STATS_KEY, completionTotals, statsOf } from '../../shared/completionStats';
import { subagentSection, subagentTotals } from '../subagentSection';
import { summarize } from '../../shared/usageLedger';
import { completionSection, usagePageBody, type CompletionSectionStrings, type UsagePageStrings } from '../chart';

export class UsagePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: Services) {
    this.subscription = services.account.onDidChange(() => void this.render());
  }

  async open(): Promise<void> {
    if (this.panel) {
      this.panel.reveal();
    } else {
      const media = vscode.Uri.joinPath(this.services.context.extensionUri, 'media');
      this.panel = vscode.window.createWebviewPanel(
        Views.usagePanel,
        vscode.l10n.t('Model Gateway Usage'),
        vscode.ViewColumn.Active,
        {
          enableScripts: false,
          enableCommandUris: false,
          localResourceRoots: [media],
        },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    await this.render();
  }

  private async render(): Promise<void> {
    const panel = this.panel;
    if (!panel) return;
    const key = await this.services.keys.active();
    const ledger = await this.services.account.ledger();
    const summary = summarize(ledger, key?.fingerprint ?? '', Date.now());
    const css = panel.webview.asWebviewUri(
      vscode.Uri.joinPath(this.services.context.extensionUri, 'media', 'usage.css'),
    );
    const csp = contentSecurityPolicy(panel.webview.cspSource, createNonce());
    const strings = pageStrings(key ? `${key.name} (${key.fingerprint})` : vscode.l10n.t('(none)'));
    const completions = completionSection(
      completionTotals(ledger, key?.fingerprint ?? ''),
      statsOf(this.services.context.globalState.get(COMPLETION_STATS_KEY)),
      completionStrings(),
      strings,
    );
    const subagents = subagentSection(
      subagentTotals(ledger, key?.fingerprint ?? ''),
      {
        heading: vscode.l10n.t('Sub-agents'),
        requests: vscode.l10n.t('Requests · tokens · cost (30 days, also in the table above)'),
      },
      strings,
    );
    const body = usagePageBody(summary, strings) + completions + subagents;
    panel.webview.html = `<!DOCTYPE html><html lang="${vscode.env.language}"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><link rel="stylesheet" href="${css.toString()}"><title>${vscode.l10n.t('Model Gateway Usage')}</title></head><body>${body}</body></html>`;
  }

  dispose(): void {
    this.subscription.dispose();
    this.panel?.dispose();
  }
}

function pageStrings(keyLabel: string): UsagePageStrings {
  return {
    heading: vscode.l10n.t('Model Gateway Usage'),
    keyLine: vscode.l10n.t('Key: {0}. Counted on this machine from the answers the gateway sent.', keyLabel),
    empty: vscode.l10n.t('No usage recorded for this key in the last 30 days.'),
    model: vscode.l10n.t('Model'),
    requests: vscode.l10n.t('Requests'),
    tokens: vscode.l10n.t('Tokens'),
    images: vscode.l10n.t('Images'),
    cost: vscode.l10n.t('Cost'),
    total: vscode.l10n.t('Total'),
    estimate: vscode.l10n.t('estimate'),
    marks: vscode.l10n.t('({0})'),
    markSeparator: vscode.l10n.t(', '),
    partial: vscode.l10n.t('some requests unpriced'),
    chartTitle: vscode.l10n.t('Tokens per day, last 30 days'),
    sources: vscode.l10n.t(
      'Cost: "billed" is what the gateway reported for each response (LiteLLM\'s cost header, OpenRouter\'s usage cost); "gateway price" is computed from prices the gateway publishes; "your prices" from the modelGateway.prices setting. Both of the latter are estimates. Without a price only tokens are shown.',
    ),
    actions: vscode.l10n.t("Export as CSV or clear the ledger with the buttons in this panel's title bar."),
  };
}

function completionStrings(): CompletionSectionStrings {
  return {
    heading: vscode.l10n.t('Code completion'),
    requests: vscode.l10n.t('Requests · tokens · cost (30 days, also in the table above)'),
    shown: vscode.l10n.t('Suggestions shown'),
    accepted: vscode.l10n.t('Suggestions accepted'),
    rate: vscode.l10n.t('Acceptance rate'),
    latency: vscode.l10n.t('Latency p50 / p95'),
    local: vscode.l10n.t('Shown, accepted and latency are counted on this machine only and never sent anywhere.'),
  };
}
