// Tells the user once (per typed value) when the pasted base URL was normalised or cannot be used,
// with the exact URLs that will be called.
import * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { Commands } from '../shared/commands';
import type { Config } from '../shared/config';
import { fingerprintOf } from '../keys/fingerprint';
import { baseUrlNoticeText } from './baseUrlNoticeText';

const SHOWN_KEY = 'modelGateway.baseUrlNoticeShownFor';

export function watchBaseUrl(services: Services): vscode.Disposable {
  const check = (config: Config): void =>
    void notifyOnce(services, config).catch((error: unknown) => services.log.warn('Base URL notice failed.', error));
  check(services.config.current);
  return services.config.onDidChange(check);
}

async function notifyOnce(services: Services, config: Config): Promise<void> {
  const text = baseUrlNoticeText(config, vscode.l10n);
  // A hash of the typed value, not the value: a pasted URL could carry credentials.
  const typed = fingerprintOf(config.baseUrlRaw ?? '');
  if (!text || services.context.globalState.get<string>(SHOWN_KEY) === typed) return;
  await services.context.globalState.update(SHOWN_KEY, typed);
  services.log.info(text);
  const useRoot = vscode.l10n.t('Save Site Root in Settings');
  const check = vscode.l10n.t('Check Connection');
  const open = vscode.l10n.t('Open Settings');
  const actions = config.baseUrl ? [useRoot, check] : [open];
  const show = config.baseUrl ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  const choice = await show(text, ...actions);
  if (choice === useRoot) await saveRoot(config.baseUrl);
  else if (choice === check) await vscode.commands.executeCommand(Commands.checkConnection);
  else if (choice === open) await vscode.commands.executeCommand(Commands.openSettings, 'baseUrl');
}

/** Writes the normalised root where the typed value came from (workspace or user settings). */
async function saveRoot(baseUrl: string): Promise<void> {
  const inspected = vscode.workspace.getConfiguration('modelGateway').inspect<string>('baseUrl');
  const target =
    inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('modelGateway').update('baseUrl', baseUrl, target);
}
