// Checks a key with GET /v1/models before it is saved. No UI here: the commands show the result.
import { isGatewayError } from '../gateway/errors';
import type { GatewayClient } from '../gateway/types';
import type { ModelKind } from '../shared/config';
import { splitByKind } from '../catalog/classify';

export type KeyCheck =
  | { ok: true; total: number; chat: number; image: number }
  /** `rejected`: the gateway said 401, the key must not be saved. `unverified`: any other failure. */
  | { ok: false; verdict: 'rejected' | 'unverified'; error: unknown };

export async function checkKey(client: GatewayClient, overrides: Record<string, ModelKind>, signal?: AbortSignal): Promise<KeyCheck> {
  try {
    const models = await client.listModels({ signal });
    const split = splitByKind(models, overrides);
    return { ok: true, total: models.length, chat: split.chat.length, image: split.image.length };
  } catch (error) {
    const rejected = isGatewayError(error) && (error.kind === 'auth' || error.status === 401);
    return { ok: false, verdict: rejected ? 'rejected' : 'unverified', error };
  }
}

/** "12 models (10 chat, 2 image)". */
export function describeCount(check: { total: number; chat: number; image: number }): string {
  return `${check.total} model${check.total === 1 ? '' : 's'} (${check.chat} chat, ${check.image} image)`;
}
