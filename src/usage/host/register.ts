// The usage commands: Show Usage (the panel), Export Usage as CSV (a save dialog), Clear Usage (after a confirmation).
import * as vscode from 'vscode';
import type { CommandTable } from '../../platform/commands';
import type { Services } from '../../platform/services';
import { Commands } from '../../shared/commands';
import { ledgerCsv } from '../../shared/usageLedger';
import { UsagePanel } from './panel';

export function registerUsage(services: Services): { commands: CommandTable<'usage'>; panel: UsagePanel } {
  const panel = new UsagePanel(services);
  const commands: CommandTable<'usage'> = {
    [Commands.showUsage]: () => panel.open(),
    [Commands.exportUsage]: async () => {
      const key = await services.keys.active();
      const entries = (await services.account.ledger()).filter((e) => !key || e.key === key.fingerprint);
      const target = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Usage as CSV'),
        filters: { CSV: ['csv'] },
        defaultUri: vscode.Uri.file(`model-gateway-usage-${new Date().toISOString().slice(0, 10)}.csv`),
      });
      if (!target) return;
      await vscode.workspace.fs.writeFile(target, Buffer.from(ledgerCsv(entries), 'utf8'));
      void vscode.window.showInformationMessage(vscode.l10n.t('Exported {0} usage entries.', entries.length));
    },
    [Commands.clearUsage]: async () => {
      const key = await services.keys.active();
      const clear = vscode.l10n.t('Clear');
      const choice = await vscode.window.showWarningMessage(
        key
          ? vscode.l10n.t('Clear the usage recorded on this machine for the key "{0}"?', key.name)
          : vscode.l10n.t('Clear all usage recorded on this machine?'),
        { modal: true, detail: vscode.l10n.t('The gateway keeps its own records; this only clears the local ledger.') },
        clear,
      );
      if (choice === clear) await services.account.clear(key?.fingerprint);
    },
  };
  return { commands, panel };
}
