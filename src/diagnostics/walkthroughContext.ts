// The walkthrough's first two steps are done when a base URL is set and a key is stored, however that happened:
// `npm start` writes the URL into the user settings before VS Code starts and hands the key over in the environment,
// so neither a settings change nor the Set API Key command is ever seen. These two context keys are their completion
// events (package.json: onContext:modelGateway.baseUrlSet, onContext:modelGateway.hasApiKey).
//
// The context keys alone are not enough: VS Code (1.100 to 1.139 at least) progresses a step on a context key only
// when the key turns true after the walkthrough was registered. Its walkthrough service is made on first use (the
// Welcome page, Open Walkthrough), so with the Welcome page off a key we set true at activation is already true when
// our walkthrough registers, and the step stays unchecked for the whole session (seen when VS Code started quickly).
// So the steps are also marked through VS Code's own Mark Step Complete / Incomplete commands, which make the service
// if need be and keep the state in its storage.
import * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { WALKTHROUGH_ID } from './quickActions';

export const BASE_URL_SET_CONTEXT = 'modelGateway.baseUrlSet';
export const HAS_API_KEY_CONTEXT = 'modelGateway.hasApiKey';

/** The walkthrough step ids (package.json contributes.walkthroughs) whose state follows the two context keys. */
export const BASE_URL_STEP = `${WALKTHROUGH_ID}#baseUrl`;
export const API_KEY_STEP = `${WALKTHROUGH_ID}#apiKey`;

export function watchWalkthroughContext(services: Services): vscode.Disposable {
  const marked = new Map<string, boolean>();
  const mark = async (step: string, done: boolean): Promise<void> => {
    if (marked.get(step) === done) return;
    marked.set(step, done);
    await vscode.commands
      .executeCommand(done ? 'welcome.markStepComplete' : 'welcome.markStepIncomplete', step)
      .then(undefined, (error: unknown) =>
        services.log.warn(`Walkthrough step ${step} not marked ${done ? 'done' : 'not done'}.`, error),
      );
  };
  const update = async (): Promise<void> => {
    const baseUrlSet = services.config.current.baseUrl !== '';
    await vscode.commands.executeCommand('setContext', BASE_URL_SET_CONTEXT, baseUrlSet);
    await mark(BASE_URL_STEP, baseUrlSet);
    await services.keys.ready;
    const hasKey = (await services.keys.active()) !== undefined;
    await vscode.commands.executeCommand('setContext', HAS_API_KEY_CONTEXT, hasKey);
    await mark(API_KEY_STEP, hasKey);
  };
  const refresh = (): void =>
    void update().catch((error: unknown) => services.log.warn('Walkthrough context update failed.', error));
  const subscriptions = [services.config.onDidChange(refresh), services.keys.onDidChange(refresh)];
  refresh();
  return vscode.Disposable.from(...subscriptions);
}
