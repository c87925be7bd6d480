// The words of the base-URL notice. Pure.
import { endpointUrls, type Config } from '../shared/config';
import { redact } from '../platform/redact';

/** The text of the notice for a config, or undefined when there is nothing to say. */
export function baseUrlNoticeText(config: Config): string | undefined {
  if (config.baseUrlNotice) {
    const urls = endpointUrls(config.baseUrl);
    return `Model Gateway: ${config.baseUrlNotice} Calls will go to ${urls.messages}, ${urls.models} and ${urls.images}.`;
  }
  if (config.baseUrlRaw && config.baseUrlProblem) return `Model Gateway: the base URL "${redact(config.baseUrlRaw)}" cannot be used. ${config.baseUrlProblem}`;
  return undefined;
}
