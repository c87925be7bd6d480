// Pure: gateway failures → LanguageModelError codes with the spec's required reaction in the message.
// No `vscode` import; the provider turns { code, message } into a vscode.LanguageModelError.
// The message never contains the API key: server text is scrubbed of the active secret when one is given.
import { isGatewayError, type GatewayError } from '../gateway/errors';

/** Codes of vscode.LanguageModelError (NoPermissions, Blocked, NotFound) plus the generic case. */
export type LmErrorCode = 'NoPermissions' | 'NotFound' | 'Blocked' | 'Unknown';

export interface LmErrorDescription {
  code: LmErrorCode;
  message: string;
}

export interface LmErrorContext {
  /** Normalised site root, to name the URL that was called. */
  baseUrl?: string;
  modelId?: string;
  /** The active secret, only to remove it from server text. */
  secret?: string;
}

function scrub(text: string, secret: string | undefined): string {
  const key = secret?.trim();
  return key ? text.split(key).join('[redacted]') : text;
}

function serverSays(error: GatewayError): string {
  const parts = [error.serverCode, error.serverMessage].filter((p): p is string => !!p);
  return parts.length > 0 ? ` The gateway said: ${parts.join(': ')}.` : '';
}

function requestIdNote(error: GatewayError): string {
  return error.requestId ? ` (request id ${error.requestId})` : '';
}

/** A 403 that names the model as not visible for the key's group: for VS Code, the model does not exist. */
function isModelNotAvailable(error: GatewayError): boolean {
  return error.serverCode === 'MODEL_NOT_AVAILABLE' || /model not available|model_not_found|no such model/i.test(error.serverMessage ?? '');
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function describeGatewayError(error: GatewayError, ctx: LmErrorContext): LmErrorDescription {
  const model = error.model ?? ctx.modelId;
  const where = `${error.route}${ctx.baseUrl ? ` at ${ctx.baseUrl}` : ''}`;
  switch (error.kind) {
    case 'auth':
      return { code: 'NoPermissions', message: `The gateway rejected the API key (401): it is incomplete, revoked or wrong. Replace it with "Model Gateway: Set API Key"; never paste a key into a support request.${serverSays(error)}` };
    case 'forbidden':
      if (isModelNotAvailable(error)) {
        return { code: 'NotFound', message: `The model${model ? ` "${model}"` : ''} is not available for this key (403): the key group decides which models a key may call. Refresh the model list and pick a model it lists.${serverSays(error)}` };
      }
      return { code: 'NoPermissions', message: `The gateway refused the call (403)${model ? ` to model "${model}"` : ''}. Check the key group, the model's visibility for this key, the balance and the route permission in the console.${serverSays(error)}` };
    case 'not_found':
      return { code: 'NotFound', message: `Not found (404) on ${where}. Usually the base URL is wrong (a full endpoint, or /v1 twice): use the site root. If the URL is right, the model${model ? ` "${model}"` : ''} is not available for this key: refresh the model list.${serverSays(error)}` };
    case 'rate_limited': {
      const wait = error.retryAfterMs !== undefined ? ` Wait ${seconds(error.retryAfterMs)} s before retrying;` : ' Wait before retrying;';
      return { code: 'Blocked', message: `Too many requests (429).${wait} do not resend requests in parallel.${serverSays(error)}` };
    }
    case 'server':
      return { code: 'Unknown', message: `The gateway failed (${error.status ?? '5xx'}). The request was not replayed automatically; send it again when you are ready.${serverSays(error)}` };
    case 'timeout':
      return { code: 'Unknown', message: 'No answer in time: the outcome is unknown and the request may have been processed and charged. It was not replayed; check before sending it again.' };
    case 'network':
      return { code: 'Unknown', message: `Could not reach ${ctx.baseUrl ?? 'the gateway'}${error.outcomeUnknown ? ' (the connection dropped: the outcome is unknown and the request may have been charged)' : ''}. Check the base URL and the proxy settings.` };
    case 'bad_request':
      return { code: 'Unknown', message: `The gateway rejected the request (${error.status ?? 400}).${serverSays(error)}` };
    case 'aborted':
      return { code: 'Unknown', message: 'The request was cancelled.' };
    default:
      return { code: 'Unknown', message: `The gateway's answer could not be read${error.partial ? ' (the answer was cut off)' : ''}.${serverSays(error)}` };
  }
}

/** Describes any error for a LanguageModelError. */
export function describeForLanguageModel(error: unknown, ctx: LmErrorContext = {}): LmErrorDescription {
  let description: LmErrorDescription;
  if (isGatewayError(error)) {
    description = describeGatewayError(error, ctx);
    description.message += requestIdNote(error);
  } else {
    description = { code: 'Unknown', message: error instanceof Error ? error.message : String(error) };
  }
  return { code: description.code, message: scrub(description.message, ctx.secret) };
}
