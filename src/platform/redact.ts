// Redaction of secrets in log text. Pure (no vscode import) so it is unit-tested in plain node.
// Applied to every line the Logger writes, whatever its source.

export const REDACTED = '[REDACTED]';

/** Header values that carry credentials, in `name: value`, `name=value` and JSON `"name":"value"` forms. */
const AUTH_HEADER =
  /(["']?(?:authorization|x-api-key|api-key|proxy-authorization)["']?\s*[:=]\s*["']?)(?:bearer\s+|basic\s+)?[^\s"',;}]+/gi;
/** Bearer tokens anywhere. */
const BEARER = /(\bbearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi;
/** Key-like tokens: sk-…, mg-…, sk-ant-… and friends (prefix plus at least 8 token characters). */
const KEY_TOKEN = /\b(?:sk|mg|rk|pk)-[A-Za-z0-9_-]{8,}/g;
/** Credentials inside URLs (https://user:pass@host). */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;

/** Replaces every known secret and everything that looks like a key or an auth header value. */
export function redact(text: string, knownSecrets: Iterable<string> = []): string {
  let result = text;
  for (const secret of knownSecrets) {
    if (secret.length >= 4) result = result.split(secret).join(REDACTED);
  }
  return result
    .replace(AUTH_HEADER, (_match, head: string) => `${head}${REDACTED}`)
    .replace(BEARER, (_match, head: string) => `${head}${REDACTED}`)
    .replace(KEY_TOKEN, REDACTED)
    .replace(URL_CREDENTIALS, (_match, scheme: string) => `${scheme}${REDACTED}@`);
}

/** Renders log arguments as text (errors with their message and cause chain, objects as JSON). */
export function formatLogArgs(args: readonly unknown[]): string {
  return args.map(formatOne).join(' ');
}

function formatOne(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) {
    const cause = value.cause === undefined ? '' : ` (cause: ${formatOne(value.cause)})`;
    return `${value.name}: ${value.message}${cause}`;
  }
  try {
    return JSON.stringify(value, headerSafeReplacer) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Drops credential headers from objects before they are stringified (belt and braces with redact()). */
function headerSafeReplacer(key: string, value: unknown): unknown {
  return /^(authorization|x-api-key|api-key|proxy-authorization)$/i.test(key) ? REDACTED : value;
}
