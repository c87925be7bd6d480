// The words of the base-URL notice. Pure; translated by the Localizer passed in (the notice and problem inside
// the config were translated when the config was read).
import { endpointUrls, type Config } from '../shared/config';
import { english, type Localizer } from '../shared/l10n';
import { redact } from '../platform/redact';

/** The text of the notice for a config, or undefined when there is nothing to say. */
export function baseUrlNoticeText(config: Config, l10n: Localizer = english): string | undefined {
  if (config.baseUrlNotice) {
    const urls = endpointUrls(config.baseUrl);
    return `Model Gateway: ${config.baseUrlNotice} ${l10n.t('Calls will go to {0}, {1} and {2}.', urls.messages, urls.models, urls.images)}`;
  }
  if (config.baseUrlRaw && config.baseUrlProblem)
    return `${l10n.t('Model Gateway: the base URL "{0}" cannot be used.', redact(config.baseUrlRaw))} ${config.baseUrlProblem}`;
  return undefined;
}
