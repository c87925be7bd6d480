// A repository's `.vscode/settings.json` can set `modelGateway.baseUrl`. Sending the user's key to an address that a
// cloned repository chose would hand the key to whoever wrote that file (Restricted Mode ignores the value through
// `restrictedConfigurations`, but a trusted workspace does not). So a base URL that comes from the workspace's settings
// and differs from the user's own is used only after the user allowed it for that workspace. Pure: no `vscode`.
import { createHash } from 'crypto';
import { normalizeBaseUrl } from '../shared/baseUrl';
import { english, type Localizer } from '../shared/l10n';

/** The raw values of `modelGateway.baseUrl` per settings scope, as `inspect()` reports them. */
export interface BaseUrlSources {
  user?: unknown;
  workspace?: unknown;
}

const normalized = (value: unknown): string => (typeof value === 'string' ? normalizeBaseUrl(value).baseUrl : '');

/** The normalised base URL the workspace's settings ask for, when it is usable and not the user's own; else undefined. */
export function workspaceBaseUrlToAllow(sources: BaseUrlSources): string | undefined {
  if (typeof sources.workspace !== 'string') return undefined;
  const fromWorkspace = normalized(sources.workspace);
  if (!fromWorkspace || fromWorkspace === normalized(sources.user)) return undefined;
  return fromWorkspace;
}

/** The id under which an allowance is remembered: a hash, so global state names neither the workspace nor the URL. */
export function allowanceId(workspaceIdentity: string, baseUrl: string): string {
  return createHash('sha256').update(`${workspaceIdentity}\n${baseUrl}`).digest('hex');
}

/** The words shown while the workspace's base URL waits for the user's decision. */
export function workspaceBaseUrlProblem(baseUrl: string, l10n: Localizer = english): string {
  return l10n.t(
    "This workspace's settings point Model Gateway at {0}, which is not your own base URL setting. Your API key is not sent there until you allow it for this workspace.",
    baseUrl,
  );
}
