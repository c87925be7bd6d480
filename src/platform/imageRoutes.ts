// Gateways without the spec's async image routes (docs/gateway-protocol.md#real-gateways: new-api, one-api, sub2api and
// LiteLLM answer 404 to POST /v1/images/generations/async). A 404/405 on the async submit comes from the
// route table, before any processing: nothing was generated or charged, so the same request is sent once
// on the synchronous route, and the base URL is remembered (globalState) so later requests go there first.
import { isGatewayError } from '../gateway/errors/errors';

export const SYNC_ONLY_STATE_KEY = 'modelGateway.images.syncOnlyBaseUrls.v1';
const MAX_REMEMBERED = 50;

interface StateLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/** The async submit route does not exist here (404/405 on …/async), as opposed to a model or key problem. */
export function isAsyncRouteMissing(error: unknown): boolean {
  if (!isGatewayError(error) || (error.status !== 404 && error.status !== 405)) return false;
  if (!/^POST \S*\/async$/.test(error.route)) return false;
  // "model not found" on the async route is about the model: the sync route would refuse it too.
  return !/\bmodel\b/i.test(`${error.serverCode ?? ''} ${error.serverMessage ?? ''}`.replace(/\(POST [^)]*\)/g, ''));
}

function remembered(state: StateLike): string[] {
  const value = state.get<unknown>(SYNC_ONLY_STATE_KEY);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** True when this base URL answered 404/405 to the async submit before. */
export function knownWithoutAsync(state: StateLike, baseUrl: string): boolean {
  return remembered(state).includes(baseUrl);
}

/** Remembers the base URL; false when it was known already (the user was told then). */
export async function rememberWithoutAsync(state: StateLike, baseUrl: string): Promise<boolean> {
  const list = remembered(state);
  if (list.includes(baseUrl)) return false;
  await state.update(SYNC_ONLY_STATE_KEY, [...list, baseUrl].slice(-MAX_REMEMBERED));
  return true;
}
