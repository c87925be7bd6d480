// Redaction of the API key (and anything that looks like an auth header value) from every text
// that leaves the client: error messages, server messages, log lines.

const REPLACEMENT = '[redacted]';
const AUTH_VALUE = /((?:bearer|x-api-key|api[_-]?key|authorization)["'\s:=]+)([A-Za-z0-9._~+/=-]{8,})/gi;

/** A function that removes `apiKey` (and auth-looking values) from any text. */
export type Redactor = (text: string) => string;

/**
 * Builds the redactor for one key and the other secrets sent with it (secret header values). Secrets under 6
 * characters (never real keys) are not searched for: they would mangle words.
 */
export function createRedactor(apiKey: string, otherSecrets: readonly string[] = []): Redactor {
  const secrets = [apiKey, ...otherSecrets].map((s) => s.trim()).filter((s) => s.length >= 6);
  return (text: string): string => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REPLACEMENT);
    return out.replace(AUTH_VALUE, (_m, label: string) => label + REPLACEMENT);
  };
}
