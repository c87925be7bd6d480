// Redaction of the API key (and anything that looks like an auth header value) from every text
// that leaves the client: error messages, server messages, log lines.

const REPLACEMENT = '[redacted]';
const AUTH_VALUE = /((?:bearer|x-api-key|api[_-]?key|authorization)["'\s:=]+)([A-Za-z0-9._~+/=-]{8,})/gi;

/** A function that removes `apiKey` (and auth-looking values) from any text. */
export type Redactor = (text: string) => string;

/** Builds the redactor for one key. Keys under 6 characters (never real keys) are not searched for: they would mangle words. */
export function createRedactor(apiKey: string): Redactor {
  const key = apiKey.trim();
  return (text: string): string => {
    let out = text;
    if (key.length >= 6 && out.includes(key)) out = out.split(key).join(REPLACEMENT);
    return out.replace(AUTH_VALUE, (_m, label: string) => label + REPLACEMENT);
  };
}
