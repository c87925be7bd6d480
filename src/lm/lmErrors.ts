// Pure: gateway failures → LanguageModelError codes, with the spec's required reaction (adviseOnError's
// title and detail) as the message. No `vscode` import; the provider makes a vscode.LanguageModelError.
// The message never contains the API key: server text is scrubbed of the active secret when one is given.
import { adviseOnError, forbiddenCause, isModelUnavailable } from '../gateway/errors/advice';
import { isGatewayError, type GatewayError } from '../gateway/errors/errors';
import type { Localizer } from '../shared/l10n';
import { redactKnownSecrets } from '../shared/secretRedaction';

/** Codes of vscode.LanguageModelError (NoPermissions, Blocked, NotFound) plus the generic case. */
export type LmErrorCode = 'NoPermissions' | 'NotFound' | 'Blocked' | 'Unknown';

export interface LmErrorDescription {
  code: LmErrorCode;
  message: string;
}

export interface LmErrorContext {
  /** Normalised site root, to name the URL that was called. */
  baseUrl?: string;
  /** The active secret, only to remove it from server text. */
  secret?: string;
  /** The user's language when the message is shown to the user (English for logs and for the model). */
  l10n?: Localizer;
}

function scrub(text: string, secret: string | undefined): string {
  return redactKnownSecrets(text, secret ? [secret] : []);
}

/** VS Code's code for a gateway failure; the words come from adviseOnError (the one place errors become words). */
function codeOf(error: GatewayError): LmErrorCode {
  switch (error.kind) {
    case 'auth':
      return 'NoPermissions';
    // A 403 naming the model as not visible for the key's group: for VS Code, that model does not exist.
    case 'forbidden':
      return forbiddenCause(error) === 'model' || isModelUnavailable(error) ? 'NotFound' : 'NoPermissions';
    case 'not_found':
      return 'NotFound';
    case 'rate_limited':
      return 'Blocked';
    default:
      // 503 model_not_found, 400 "Invalid model name": for VS Code, that model does not exist for this key.
      return isModelUnavailable(error) ? 'NotFound' : 'Unknown';
  }
}

/** Describes any error for a LanguageModelError. */
export function describeForLanguageModel(error: unknown, ctx: LmErrorContext = {}): LmErrorDescription {
  const advice = adviseOnError(error, { baseUrl: ctx.baseUrl, surface: 'chat', l10n: ctx.l10n });
  const message = [advice.title, advice.detail].filter((t) => t.trim()).join(' ');
  return { code: isGatewayError(error) ? codeOf(error) : 'Unknown', message: scrub(message, ctx.secret) };
}
