// "Manage Models in VS Code Chat" (modelGateway.manageLanguageModels): the managementCommand of the
// 'model-gateway' vendor, opened from the gear in VS Code's model picker / Language Models editor.
// It points at the extension's own key and connection commands.
import * as vscode from 'vscode';
import { Commands } from '../../shared/commands';
import type { Services } from '../../platform/services';

interface ManageItem extends vscode.QuickPickItem {
  command?: string;
  args?: unknown[];
}

/** One line on whether native chat works here, shown at the top of the pick. */
export function nativeChatStatusLine(available: boolean, enabled: boolean): string {
  if (!available)
    return vscode.l10n.t(
      'This VS Code ({0}) cannot host extension-provided chat models: they need VS Code 1.104 or newer. @gateway still works.',
      vscode.version,
    );
  if (!enabled) return vscode.l10n.t('Gateway models are turned off (setting modelGateway.nativeChat.enabled).');
  return vscode.l10n.t('Gateway models are offered in the chat model picker.');
}

export async function showManageQuickPick(services: Services, available: boolean): Promise<void> {
  const key = await services.keys.active();
  const enabled = services.config.current.nativeChatEnabled;
  const items: ManageItem[] = [
    { label: nativeChatStatusLine(available, enabled), kind: vscode.QuickPickItemKind.Separator },
    {
      label: `$(key) ${vscode.l10n.t('Set API Key')}`,
      description: key ? vscode.l10n.t('active: {0}', key.name) : vscode.l10n.t('no key yet'),
      command: Commands.setApiKey,
    },
    {
      label: `$(plug) ${vscode.l10n.t('Check Connection')}`,
      description: vscode.l10n.t('base URL, key and model list'),
      command: Commands.checkConnection,
    },
    {
      label: `$(refresh) ${vscode.l10n.t('Refresh Models')}`,
      description: vscode.l10n.t('fetch the model list of your key again'),
      command: Commands.refreshModels,
    },
    { label: `$(arrow-swap) ${vscode.l10n.t('Switch Key')}`, command: Commands.switchKey },
    {
      label: `$(settings-gear) ${vscode.l10n.t('Settings')}`,
      description: vscode.l10n.t('modelGateway.nativeChat.enabled and more'),
      command: Commands.openSettings,
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Model Gateway: Models in VS Code Chat'),
    placeHolder: key
      ? vscode.l10n.t('Manage the key and models offered to VS Code chat')
      : vscode.l10n.t('Set an API key to offer gateway models in VS Code chat'),
  });
  if (picked?.command) await vscode.commands.executeCommand(picked.command, ...(picked.args ?? []));
}
