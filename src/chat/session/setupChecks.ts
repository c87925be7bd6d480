// What keeps the chat from sending at all (pure): no client (no key or base URL) or no chat model. Ask answers, Agent
// turns and the Condense action refuse with these same words and actions.
import type { Localizer } from '../../shared/l10n';
import { ChatSetupError } from './errorCard';

/** No chat model to send to: the card offers to refresh the model list. */
export function noModelError(l10n: Localizer): ChatSetupError {
  return new ChatSetupError(
    l10n.t('No chat model is available for your key. Refresh the model list or type a model id.'),
    ['refreshModels'],
  );
}

/** No client: why, in the user's words (`accessProblem`, e.g. a workspace base URL that was not allowed) or "no key". */
export function noClientError(l10n: Localizer, accessProblem?: () => string): ChatSetupError {
  return new ChatSetupError(accessProblem?.() ?? l10n.t('No API key or base URL is configured.'), [
    'replaceKey',
    'openBaseUrlSetting',
  ]);
}
