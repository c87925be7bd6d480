// Maps the gateway core's advice actions to notification buttons and the commands they run.
import type { AdviceAction } from '../gateway';
import { Commands } from '../shared/commands';

export interface ActionButton {
  label: string;
  command: string;
  args: unknown[];
}

/**
 * Button for one advice action; undefined for actions without a command here: 'retry' belongs to the
 * feature that owns the request (ErrorPresenter has nothing to replay), 'openConsoleAdvice' is already
 * in the words (the console lives outside VS Code).
 */
export function actionButton(action: AdviceAction): ActionButton | undefined {
  switch (action) {
    case 'replaceKey':
      return { label: 'Replace Key', command: Commands.setApiKey, args: [] };
    case 'checkConnection':
      return { label: 'Check Connection', command: Commands.checkConnection, args: [] };
    case 'openBaseUrlSetting':
      return { label: 'Open Settings', command: Commands.openSettings, args: ['baseUrl'] };
    case 'showLog':
      return { label: 'Show Log', command: Commands.showLog, args: [] };
    case 'refreshModels':
      return { label: 'Refresh Models', command: Commands.refreshModels, args: [] };
    default:
      return undefined;
  }
}
