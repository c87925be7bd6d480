// Fingerprint of a key: safe to show, log and use as a cache key. Pure.
import { createHash } from 'node:crypto';

/** First 8 hex characters of sha256(secret): enough to tell a user's keys apart, useless to an attacker. */
export function fingerprintOf(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 8);
}

/** A key name as typed, trimmed; undefined when unusable (empty, too long, control characters). */
export function cleanKeyName(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 64 || /[\u0000-\u001f]/.test(trimmed)) return undefined;
  return trimmed;
}

/** A secret as pasted: trimmed, with a stray "Bearer " or surrounding quotes removed; undefined when it cannot be a key. */
export function cleanSecret(secret: string): string | undefined {
  let value = secret
    .trim()
    .replace(/^bearer\s+/i, '')
    .replace(/^["']|["']$/g, '')
    .trim();
  if (value === '' || /\s/.test(value) || value.length < 8) return undefined;
  value = value.normalize('NFC');
  return value;
}

/**
 * Reads the key of MODEL_GATEWAY_API_KEY once and removes the variable from `env` (the extension host's own
 * process.env), so that no process the host starts later (commands, tasks, other extensions' children) inherits
 * it. The raw value is returned too: it stays a known secret to redact even when it is not imported.
 */
export function takeEnvKey(
  env: Record<string, string | undefined>,
  name: string,
): { key: string | undefined; raw: string | undefined } {
  const raw = env[name];
  if (raw !== undefined) delete env[name];
  return { key: cleanSecret(raw ?? ''), raw: raw?.trim() || undefined };
}

/** Where a key seeded from the environment gets its name: the harness and `npm start` name the emulator's demo key. */
export const API_KEY_NAME_ENV = 'MODEL_GATEWAY_API_KEY_NAME';

/**
 * The name of the key imported from MODEL_GATEWAY_API_KEY: MODEL_GATEWAY_API_KEY_NAME when it is a usable name
 * (`npm start` sets "demo (emulator)"), else the variable's own name, which says where the key came from.
 */
export function envKeyName(env: Record<string, string | undefined>): string {
  return cleanKeyName(env[API_KEY_NAME_ENV] ?? '') ?? 'MODEL_GATEWAY_API_KEY';
}
