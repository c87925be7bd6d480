// Maps the gateway core's advice actions to notification buttons and the commands they run. Pure: the labels
// are translated by the Localizer passed in (vscode.l10n from the ErrorPresenter).
import type { AdviceAction } from '../gateway';
import { english, type Localizer } from '../shared/l10n';
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
export function actionButtonIn(l10n: Localizer, action: AdviceAction): ActionButton | undefined {
  switch (action) {
    case 'replaceKey':
      return { label: l10n.t('Replace Key'), command: Commands.setApiKey, args: [] };
    case 'checkConnection':
      return { label: l10n.t('Check Connection'), command: Commands.checkConnection, args: [] };
    case 'openBaseUrlSetting':
      return { label: l10n.t('Open Settings'), command: Commands.openSettings, args: ['baseUrl'] };
    case 'showLog':
      return { label: l10n.t('Show Log'), command: Commands.showLog, args: [] };
    case 'refreshModels':
      return { label: l10n.t('Refresh Models'), command: Commands.refreshModels, args: [] };
    default:
      return undefined;
  }
}

/** The English buttons (tests, and callers without a Localizer). */
export const actionButton = (action: AdviceAction): ActionButton | undefined => actionButtonIn(english, action);
