// Gateways without a model list (pure, no vscode; unit-tested). Some gateways serve POST /v1/messages
// but answer 404 to GET /v1/models. The extension then works from modelGateway.models.declared, and
// tells "this gateway does not list models" apart from "wrong base URL" with a probe that is never billed.
import { isGatewayError } from '../gateway/errors/errors';
import type { GatewayClient, MessagesRequest, ModelInfo } from '../gateway/types';
import { english, type Localizer } from '../shared/l10n';

/** True when GET /v1/models failed because the route does not exist here (404, or 405 from some routers). */
export function isListMissing(error: unknown): boolean {
  return isGatewayError(error) && (error.status === 404 || error.status === 405);
}

/** The list, or `unlisted` when the route is missing. Any other failure throws. */
export async function listOrUnlisted(
  client: GatewayClient,
  signal?: AbortSignal,
): Promise<{ models: ModelInfo[]; unlisted: boolean; error?: unknown }> {
  try {
    return { models: await client.listModels({ signal }), unlisted: false };
  } catch (error) {
    if (isListMissing(error)) return { models: [], unlisted: true, error };
    throw error;
  }
}

export type MessagesProbe =
  /** The route answered something other than 404: it exists (the status says what it thought of the empty body). */
  | { exists: true; status: number; auth: boolean; error?: unknown }
  /** 404: there is no Messages route under this base URL either: the base URL is wrong. */
  | { exists: false; status: 404 }
  /** No HTTP answer (network, timeout, cancelled). */
  | { exists: undefined; error: unknown };

/**
 * Asks whether POST /v1/messages exists without a billable call: the body names no model, no messages and
 * no max_tokens, so no upstream model can run it; a real gateway rejects it with 400 (or 401/403 for the
 * key) before routing, and only a missing route answers 404.
 */
export async function probeMessagesRoute(client: GatewayClient, signal?: AbortSignal): Promise<MessagesProbe> {
  // Deliberately not a MessagesRequest: an empty object is the whole point (createMessage adds only stream:false).
  const empty = {} as MessagesRequest;
  try {
    await client.createMessage(empty, { signal });
    // A 2xx to an empty body is odd, but it proves the route exists; nothing could have been generated.
    return { exists: true, status: 200, auth: false };
  } catch (error) {
    if (!isGatewayError(error) || error.status === undefined) return { exists: undefined, error };
    if (error.status === 404) return { exists: false, status: 404 };
    return { exists: true, status: error.status, auth: error.status === 401 || error.kind === 'auth', error };
  }
}

/** The sentence readers show when the list route is missing and nothing is declared (in `l10n`'s language). */
export function unlistedHint(l10n: Localizer = english): string {
  return l10n.t(
    'This gateway answered 404 to GET /v1/models. If it has no model list, declare the model ids in the setting modelGateway.models.declared; otherwise check the base URL (Check Connection tells the two apart).',
  );
}
