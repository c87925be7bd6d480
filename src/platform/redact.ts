// Log text: arguments rendered as text; the redaction itself is the one of src/shared/secretRedaction.ts.
// Pure (no vscode import) so it is unit-tested in plain node.
import { REDACTED, redactSecrets } from '../shared/secretRedaction';

export { REDACTED };

/** Replaces every known secret (in the forms servers echo) and everything that looks like a key or an auth value. */
export function redact(text: string, knownSecrets: Iterable<string> = []): string {
  return redactSecrets(text, knownSecrets);
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
