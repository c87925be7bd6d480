// The walkthrough's first two steps are done when a base URL is set and a key is stored, however that happened:
// `npm start` writes the URL into the user settings before VS Code starts and hands the key over in the environment,
// so neither a settings change nor the Set API Key command is ever seen. These two context keys are their completion
// events (package.json: onContext:modelGateway.baseUrlSet, onContext:modelGateway.hasApiKey).
import * as vscode from 'vscode';
import type { Services } from '../platform/services';

export const BASE_URL_SET_CONTEXT = 'modelGateway.baseUrlSet';
export const HAS_API_KEY_CONTEXT = 'modelGateway.hasApiKey';

export function watchWalkthroughContext(services: Services): vscode.Disposable {
  const update = async (): Promise<void> => {
    await vscode.commands.executeCommand('setContext', BASE_URL_SET_CONTEXT, services.config.current.baseUrl !== '');
    await services.keys.ready;
    const key = await services.keys.active();
    await vscode.commands.executeCommand('setContext', HAS_API_KEY_CONTEXT, key !== undefined);
  };
  const refresh = (): void =>
    void update().catch((error: unknown) => services.log.warn('Walkthrough context update failed.', error));
  const subscriptions = [services.config.onDidChange(refresh), services.keys.onDidChange(refresh)];
  refresh();
  return vscode.Disposable.from(...subscriptions);
}
