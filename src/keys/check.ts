// Checks a key with GET /v1/models before it is saved. No UI here: the commands show the result.
// A gateway without a model list (404) is checked with an unbillable probe of POST /v1/messages instead.
import { isGatewayError } from '../gateway/errors/errors';
import type { GatewayClient } from '../gateway/types';
import type { ModelKind } from '../shared/config';
import { splitByKind } from '../catalog/classify';
import { isListMissing, probeMessagesRoute } from '../catalog/listing';
import { english, type Localizer } from '../shared/l10n';

export type KeyCheck =
  /**
   * `unlisted`: GET /v1/models answered 404 but POST /v1/messages exists and did not refuse the key
   * (`probeStatus` is what it answered to the empty probe); the counts are those of the declared models.
   */
  | { ok: true; total: number; chat: number; image: number; unlisted?: boolean; probeStatus?: number }
  /** `rejected`: the gateway said 401, the key must not be saved. `unverified`: any other failure. */
  | { ok: false; verdict: 'rejected' | 'unverified'; error: unknown };

export interface KeyCheckOptions {
  overrides: Record<string, ModelKind>;
  /** modelGateway.models.declared: what a gateway without a list offers. */
  declared?: readonly string[];
  signal?: AbortSignal;
}

export async function checkKey(client: GatewayClient, options: KeyCheckOptions): Promise<KeyCheck> {
  const { overrides, signal } = options;
  try {
    const models = await client.listModels({ signal });
    const split = splitByKind(models, overrides);
    return { ok: true, total: models.length, chat: split.chat.length, image: split.image.length };
  } catch (error) {
    if (isListMissing(error)) return checkWithoutList(client, options, error);
    return failed(error);
  }
}

async function checkWithoutList(
  client: GatewayClient,
  options: KeyCheckOptions,
  listError: unknown,
): Promise<KeyCheck> {
  const probe = await probeMessagesRoute(client, options.signal);
  // No Messages route either (or no answer): nothing proves this base URL is a gateway; report the list's 404.
  if (probe.exists !== true)
    return { ok: false, verdict: 'unverified', error: probe.exists === undefined ? probe.error : listError };
  if (probe.auth) return { ok: false, verdict: 'rejected', error: probe.error ?? listError };
  // 403 (balance, expired key, disabled group) and 5xx say something is wrong: let the user decide, as for the list.
  if (probe.status === 403 || probe.status >= 500)
    return { ok: false, verdict: 'unverified', error: probe.error ?? listError };
  const declared = (options.declared ?? []).map((id) => ({ id }));
  const split = splitByKind(declared, options.overrides);
  return {
    ok: true,
    total: declared.length,
    chat: split.chat.length,
    image: split.image.length,
    unlisted: true,
    probeStatus: probe.status,
  };
}

function failed(error: unknown): KeyCheck {
  const rejected = isGatewayError(error) && (error.kind === 'auth' || error.status === 401);
  return { ok: false, verdict: rejected ? 'rejected' : 'unverified', error };
}

/** "12 models (10 chat, 2 image)". */
export function describeCount(
  check: { total: number; chat: number; image: number },
  l10n: Localizer = english,
): string {
  return check.total === 1
    ? l10n.t('1 model ({0} chat, {1} image)', check.chat, check.image)
    : l10n.t('{0} models ({1} chat, {2} image)', check.total, check.chat, check.image);
}

/** What Set API Key tells the user about a gateway that has no model list. */
export function describeUnlisted(
  check: { total: number; chat: number; image: number; probeStatus?: number },
  l10n: Localizer = english,
): string {
  const declared = check.total
    ? l10n.t('Using the {0} declared in modelGateway.models.declared.', describeCount(check, l10n))
    : l10n.t('Declare the model ids you use in the setting modelGateway.models.declared.');
  return `${l10n.t('This gateway does not list models (GET /v1/models: 404). POST /v1/messages exists (HTTP {0} to an empty, unbillable test request) and did not refuse the key.', check.probeStatus ?? '?')} ${declared}`;
}
