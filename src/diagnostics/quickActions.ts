// Quick Actions: the status bar's menu of the most used commands.
import * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { Commands } from '../shared/commands';
import { describeBalance } from '../gateway/balance';

export const WALKTHROUGH_ID = 'model-gateway.model-gateway#modelGateway.gettingStarted';

interface Action extends vscode.QuickPickItem {
  run(): Thenable<unknown>;
}

export async function quickActions(services: Services): Promise<void> {
  const keys = await services.keys.list();
  const active = await services.keys.active();
  // The menu opens at once with the balance last read; opening it is a user action, so a due read starts now.
  const balance = services.account.peekBalance();
  void services.account.balance().catch(() => undefined);
  const command =
    (id: string, ...args: unknown[]) =>
    () =>
      vscode.commands.executeCommand(id, ...args);
  const items: Action[] = [
    { label: `$(comment-discussion) ${vscode.l10n.t('Open Chat')}`, run: command(Commands.openChat) },
    { label: `$(file-media) ${vscode.l10n.t('Generate Image')}`, run: command(Commands.generateImage) },
    {
      label: `$(pulse) ${vscode.l10n.t('Check Connection')}`,
      detail: services.config.current.baseUrl || vscode.l10n.t('No base URL set'),
      run: command(Commands.checkConnection),
    },
    { label: `$(refresh) ${vscode.l10n.t('Refresh Models')}`, run: command(Commands.refreshModels) },
    {
      label: `$(graph) ${vscode.l10n.t('Show Usage')}`,
      description: balance ? vscode.l10n.t('balance: {0}', describeBalance(balance, vscode.l10n)) : undefined,
      run: command(Commands.showUsage),
    },
    {
      label: `$(key) ${vscode.l10n.t('Set API Key')}`,
      description: active
        ? vscode.l10n.t('active: {0} ({1})', active.name, active.fingerprint)
        : vscode.l10n.t('no key stored'),
      run: command(Commands.setApiKey),
    },
    ...(keys.length > 1
      ? [
          {
            label: `$(arrow-swap) ${vscode.l10n.t('Switch Key')}`,
            description: vscode.l10n.t('{0} keys stored', keys.length),
            run: command(Commands.switchKey),
          },
        ]
      : []),
    ...(keys.length > 0
      ? [{ label: `$(trash) ${vscode.l10n.t('Remove API Key')}`, run: command(Commands.removeApiKey) }]
      : []),
    {
      label: `$(copy) ${vscode.l10n.t('Copy Support Info')}`,
      description: vscode.l10n.t('timestamp, route, model, status, request id'),
      run: command(Commands.copySupportInfo),
    },
    { label: `$(output) ${vscode.l10n.t('Show Log')}`, run: command(Commands.showLog) },
    { label: `$(settings-gear) ${vscode.l10n.t('Open Settings')}`, run: command(Commands.openSettings) },
    {
      label: `$(book) ${vscode.l10n.t('Get Started')}`,
      run: command('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Model Gateway',
    placeHolder: vscode.l10n.t('Choose an action'),
  });
  if (picked) await picked.run();
}
