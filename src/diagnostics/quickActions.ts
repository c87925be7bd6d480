// Quick Actions: the status bar's menu of the most used commands.
import * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { Commands } from '../shared/commands';

export const WALKTHROUGH_ID = 'model-gateway.model-gateway#modelGateway.gettingStarted';

interface Action extends vscode.QuickPickItem {
  run(): Thenable<unknown>;
}

export async function quickActions(services: Services): Promise<void> {
  const keys = await services.keys.list();
  const active = await services.keys.active();
  const command = (id: string, ...args: unknown[]) => () => vscode.commands.executeCommand(id, ...args);
  const items: Action[] = [
    { label: '$(comment-discussion) Open Chat', run: command(Commands.openChat) },
    { label: '$(file-media) Generate Image', run: command(Commands.generateImage) },
    { label: '$(pulse) Check Connection', detail: services.config.current.baseUrl || 'No base URL set', run: command(Commands.checkConnection) },
    { label: '$(refresh) Refresh Models', run: command(Commands.refreshModels) },
    { label: '$(key) Set API Key', description: active ? `active: ${active.name} (${active.fingerprint})` : 'no key stored', run: command(Commands.setApiKey) },
    ...(keys.length > 1 ? [{ label: '$(arrow-swap) Switch Key', description: `${keys.length} keys stored`, run: command(Commands.switchKey) }] : []),
    ...(keys.length > 0 ? [{ label: '$(trash) Remove API Key', run: command(Commands.removeApiKey) }] : []),
    { label: '$(copy) Copy Support Info', description: 'timestamp, route, model, status, request id', run: command(Commands.copySupportInfo) },
    { label: '$(output) Show Log', run: command(Commands.showLog) },
    { label: '$(settings-gear) Open Settings', run: command(Commands.openSettings) },
    { label: '$(book) Get Started', run: command('workbench.action.openWalkthrough', WALKTHROUGH_ID, false) },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: 'Model Gateway', placeHolder: 'Choose an action' });
  if (picked) await picked.run();
}
