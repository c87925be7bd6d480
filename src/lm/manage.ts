// "Manage Models in VS Code Chat" (modelGateway.manageLanguageModels): the managementCommand of the
// 'model-gateway' vendor, opened from the gear in VS Code's model picker / Language Models editor.
// It points at the extension's own key and connection commands.
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { Services } from '../platform/services';

interface ManageItem extends vscode.QuickPickItem {
  command?: string;
  args?: unknown[];
}

/** One line on whether native chat works here, shown at the top of the pick. */
export function nativeChatStatusLine(available: boolean, enabled: boolean): string {
  if (!available) return `This VS Code (${vscode.version}) cannot host extension-provided chat models: they need VS Code 1.104 or newer. @gateway still works.`;
  if (!enabled) return 'Gateway models are turned off (setting modelGateway.nativeChat.enabled).';
  return 'Gateway models are offered in the chat model picker.';
}

export async function showManageQuickPick(services: Services, available: boolean): Promise<void> {
  const key = await services.keys.active();
  const enabled = services.config.current.nativeChatEnabled;
  const items: ManageItem[] = [
    { label: nativeChatStatusLine(available, enabled), kind: vscode.QuickPickItemKind.Separator },
    { label: '$(key) Set API Key', description: key ? `active: ${key.name}` : 'no key yet', command: Commands.setApiKey },
    { label: '$(plug) Check Connection', description: 'base URL, key and model list', command: Commands.checkConnection },
    { label: '$(refresh) Refresh Models', description: 'fetch the model list of your key again', command: Commands.refreshModels },
    { label: '$(arrow-swap) Switch Key', command: Commands.switchKey },
    { label: '$(settings-gear) Settings', description: 'modelGateway.nativeChat.enabled and more', command: Commands.openSettings },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Model Gateway: Models in VS Code Chat', placeHolder: key ? 'Manage the key and models offered to VS Code chat' : 'Set an API key to offer gateway models in VS Code chat' });
  if (picked?.command) await vscode.commands.executeCommand(picked.command, ...(picked.args ?? []));
}
