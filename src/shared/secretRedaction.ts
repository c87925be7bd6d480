// The one redaction of secrets: every string that leaves the gateway client, every log line, tool result, card,
// stored conversation and support record passes it. Pure (no vscode), so the gateway, the platform and the host
// share it; what it must know (the stored keys, the active one, secret header values) comes from a SecretRegistry
// the services hold, never from a module global (each bundle has its own copy of this file).

export const REDACTED = '[redacted]';

/** A function that removes every known secret (and auth-looking values) from any text. */
export type Redactor = (text: string) => string;

/** Secret values known right now (read at each use: keys are added, switched and removed). */
export type SecretValues = () => Iterable<string>;

/** Secrets shorter than this are not searched for verbatim: they would mangle words (real keys are longer). */
const MIN_SECRET = 6;

/**
 * Header values that carry credentials, in `name: value`, `name=value` and JSON `"name":"value"` forms. The value is
 * redacted, never the prose around a name: a plain word followed by more words is a sentence, not a credential
 * (OpenAI's 401 joined to its code reads "invalid_api_key: Incorrect API key provided: sk-…"; the key after it is
 * removed by the known-secret and key-token rules).
 */
const AUTH_HEADER =
  /(["']?(?:authorization|x-api-key|api[_-]?key|proxy-authorization)["']?\s*[:=]\s*["']?)(?:bearer\s+|basic\s+)?(?![A-Za-z]{1,24}\s+[A-Za-z])[^\s"',;}]+/gi;
/** Bearer tokens anywhere. */
const BEARER = /(\bbearer\s+)[A-Za-z0-9._~+/=-]{6,}/gi;
/** Key-like tokens: sk-…, mg-…, sk-ant-… and friends (prefix plus at least 8 token characters). */
const KEY_TOKEN = /\b(?:sk|mg|rk|pk)-[A-Za-z0-9_-]{8,}/g;
/** Credentials inside URLs (https://user:pass@host). */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;
/** What a server puts between a key's first and last characters when it shows it masked. */
const MASK = String.raw`(?:\*{2,}|\.{2,}|…|•+|x{3,}|X{3,})`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding (no Buffer: this module is also type-checked with the webviews' libraries). */
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b1 = i + 1 < bytes.length ? bytes[i + 1] : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2] : 0;
    const n = (bytes[i] << 16) | (b1 << 8) | b2;
    out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63];
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? BASE64[n & 63] : '=';
  }
  return out;
}

/**
 * The forms a server or a program echoes a secret in: verbatim, URL-encoded, base64 (standard and URL-safe, at
 * every byte alignment, so a key inside a longer encoded text such as `Basic base64(user:key)` is found too).
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret, encodeURIComponent(secret), encodeURIComponent(secret).toLowerCase()]);
  const bytes = new TextEncoder().encode(secret);
  for (let shift = 0; shift < 3; shift++) {
    const shifted = new Uint8Array(shift + bytes.length);
    shifted.set(bytes, shift);
    const encoded = base64(shifted);
    // Drop the characters that also depend on the neighbouring bytes (the lead-in and the padded tail).
    const start = shift === 0 ? 0 : shift === 1 ? 2 : 3;
    const tailBytes = (shift + bytes.length) % 3;
    const end = encoded.replace(/=+$/, '').length - (tailBytes === 0 ? 0 : 1);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_SECRET) {
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...forms].filter((form) => form.length >= MIN_SECRET);
}

/** A masked echo: the key's first characters, a mask, its last four (e.g. `sk-abc…wxyz`, `sk-a****wxyz`). */
function maskedForm(secret: string): RegExp | undefined {
  if (secret.length < 12) return undefined;
  const head = escapeRegExp(secret.slice(0, 4));
  const tail = escapeRegExp(secret.slice(-4));
  return new RegExp(`${head}[A-Za-z0-9_-]{0,12}${MASK}[A-Za-z0-9_-]{0,12}${tail}`, 'g');
}

/** Each secret's forms and masked pattern, computed once (every log line and tool result is redacted). */
const PATTERNS = new Map<string, { forms: string[]; masked: RegExp | undefined }>();

function patternsOf(secret: string): { forms: string[]; masked: RegExp | undefined } {
  let entry = PATTERNS.get(secret);
  if (!entry) {
    if (PATTERNS.size >= 64) PATTERNS.clear();
    entry = { forms: secretForms(secret), masked: maskedForm(secret) };
    PATTERNS.set(secret, entry);
  }
  return entry;
}

/**
 * Removes every form of each known secret only. For texts that are the user's or the workspace's own (tool results,
 * attachments, stored conversations): the key-looking patterns below would also mangle ordinary code there.
 */
export function redactKnownSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  const list = [...new Set([...secrets].map((s) => s.trim()).filter((s) => s.length >= MIN_SECRET))];
  // Longest first: a key that contains another is removed whole.
  list.sort((a, b) => b.length - a.length);
  for (const secret of list) {
    const { forms, masked } = patternsOf(secret);
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    if (masked) {
      masked.lastIndex = 0;
      out = out.replace(masked, REDACTED);
    }
  }
  return out;
}

/** Removes every form of each known secret, then everything that looks like a key or an auth value. */
export function redactSecrets(text: string, secrets: Iterable<string> = []): string {
  return redactKnownSecrets(text, secrets)
    .replace(AUTH_HEADER, (_m, head: string) => `${head}${REDACTED}`)
    .replace(BEARER, (_m, head: string) => `${head}${REDACTED}`)
    .replace(KEY_TOKEN, REDACTED)
    .replace(URL_CREDENTIALS, (_m, scheme: string) => `${scheme}${REDACTED}@`);
}

/** A redactor for fixed secrets and providers read at each call. */
export function createRedactor(...sources: Array<string | SecretValues | undefined>): Redactor {
  return (text: string): string => {
    const secrets: string[] = [];
    for (const source of sources) {
      if (typeof source === 'string') secrets.push(source);
      else if (source) for (const value of source()) secrets.push(value);
    }
    return redactSecrets(text, secrets);
  };
}

/**
 * Every string inside a JSON-like value redacted (tool results, their details, stored records); image bytes
 * (`{type:'base64', data}`) are left as they are.
 */
export function redactDeep<T>(value: T, redact: Redactor): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const record = v as Record<string, unknown>;
    if (record.type === 'base64') return v;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) out[key] = walk(item);
    return out;
  };
  return walk(value) as T;
}

/**
 * Every secret the extension knows, in one place: the stored keys (set by the key store), the active key, and
 * values other parts add (secret request-header values). `redact` removes them all.
 */
export class SecretRegistry {
  private stored: string[] = [];
  private readonly extra = new Map<number, string>();
  private readonly providers = new Set<SecretValues>();
  private nextId = 0;
  private readonly listeners = new Set<(values: string[]) => void>();

  /** The key store's stored secrets (replaces the previous list). */
  setStored(values: Iterable<string>): void {
    this.stored = [...values];
    this.changed();
  }

  /** One more secret value; dispose to forget it. */
  addSecret(value: string): { dispose(): void } {
    const id = this.nextId++;
    this.extra.set(id, value);
    this.changed();
    return {
      dispose: () => {
        if (this.extra.delete(id)) this.changed();
      },
    };
  }

  /** A provider read at each redaction (e.g. the secret header values of the current settings). */
  addProvider(provider: SecretValues): { dispose(): void } {
    this.providers.add(provider);
    return { dispose: () => void this.providers.delete(provider) };
  }

  /** Every secret value known now. */
  values(): string[] {
    const out = [...this.stored, ...this.extra.values()];
    for (const provider of this.providers) for (const value of provider()) out.push(value);
    return out.filter((value) => typeof value === 'string' && value.trim().length >= MIN_SECRET);
  }

  /** Told the values after each setStored/addSecret (the log channel keeps its copy). */
  onDidChange(listener: (values: string[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** Known secrets and key-looking values: texts of the client, errors, cards, support records, the log. */
  readonly redact: Redactor = (text) => redactSecrets(text, this.values());

  /** Known secrets only: tool results, command output, attachments, stored conversations (code stays intact). */
  readonly redactKnown: Redactor = (text) => redactKnownSecrets(text, this.values());

  private changed(): void {
    const values = this.values();
    for (const listener of this.listeners) listener(values);
  }
}
