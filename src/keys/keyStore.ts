// Named API keys, in SecretStorage only: one secret entry per key plus an index entry holding names,
// fingerprints and the active name (no secret). Nothing about keys goes to settings or globalState.
import * as vscode from 'vscode';
import { API_KEY_ENV } from '../shared/commands';
import type { Logger } from '../gateway/types';
import type { KeyInfo, KeyStore } from '../platform/services';
import { envKeyName, fingerprintOf, takeEnvKey } from './fingerprint';

const PREFIX = 'modelGateway.keys.';
const INDEX_KEY = `${PREFIX}index`;
const SECRET_KEY = (name: string): string => `${PREFIX}secret.${name}`;
/** The secret request headers of one key (name → value, JSON), beside the key itself. */
const HEADERS_KEY = (name: string): string => `${PREFIX}headers.${name}`;

interface KeyIndex {
  active?: string;
  keys: KeyInfo[];
}

export type HostKeyStore = KeyStore & vscode.Disposable;

export function createKeyStore(
  context: vscode.ExtensionContext,
  onSecretsKnown: (secrets: string[]) => void,
  log: Logger,
  env: Record<string, string | undefined> = process.env,
): HostKeyStore {
  const secrets = context.secrets;
  // At once, before any await: a terminal or task created during activation must not inherit the key.
  const fromEnv = takeEnvKey(env, API_KEY_ENV);
  const emitter = new vscode.EventEmitter<void>();
  let cached: KeyIndex | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let firePending = false;

  /** Operations that read-modify-write the index run one after the other. */
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
  /** Coalesces our own write events with the secrets.onDidChange echoes of them. */
  const fireSoon = (): void => {
    if (firePending) return;
    firePending = true;
    setTimeout(() => {
      firePending = false;
      emitter.fire();
    }, 20);
  };

  const readIndex = async (): Promise<KeyIndex> => {
    if (cached) return cached;
    cached = parseIndex(await secrets.get(INDEX_KEY));
    return cached;
  };
  const writeIndex = async (index: KeyIndex): Promise<void> => {
    cached = index;
    await secrets.store(INDEX_KEY, JSON.stringify(index));
  };
  const readHeaders = async (name: string): Promise<Record<string, string>> =>
    parseHeaders(await secrets.get(HEADERS_KEY(name)));
  /** Every key and every secret header value: the log redacts them all. */
  const publishSecrets = async (): Promise<void> => {
    const index = await readIndex();
    const values = await Promise.all(index.keys.map((key) => secrets.get(SECRET_KEY(key.name))));
    const headers = await Promise.all(index.keys.map((key) => readHeaders(key.name)));
    const known = [
      ...values.filter((value): value is string => typeof value === 'string'),
      ...headers.flatMap((h) => Object.values(h)),
    ];
    onSecretsKnown(fromEnv.raw ? [...known, fromEnv.raw] : known);
  };
  /** Changes one key's secret headers (a name compares case-insensitively, as HTTP does). */
  const editHeaders = (keyName: string, edit: (headers: Record<string, string>) => void): Promise<void> =>
    serial(async () => {
      if (!(await readIndex()).keys.some((key) => key.name === keyName))
        throw new Error(`No stored key named "${keyName}".`);
      const headers = await readHeaders(keyName);
      edit(headers);
      if (Object.keys(headers).length === 0) await secrets.delete(HEADERS_KEY(keyName));
      else await secrets.store(HEADERS_KEY(keyName), JSON.stringify(headers));
      await publishSecrets();
      fireSoon();
    });
  const withoutName = (headers: Record<string, string>, header: string): void => {
    for (const name of Object.keys(headers)) if (name.toLowerCase() === header.toLowerCase()) delete headers[name];
  };

  const set = (name: string, secret: string): Promise<KeyInfo> =>
    serial(async () => {
      const info: KeyInfo = { name, fingerprint: fingerprintOf(secret) };
      const index = await readIndex();
      await secrets.store(SECRET_KEY(name), secret);
      await writeIndex({ active: name, keys: [...index.keys.filter((key) => key.name !== name), info] });
      await publishSecrets();
      fireSoon();
      return info;
    });

  const remove = (name: string): Promise<void> =>
    serial(async () => {
      const index = await readIndex();
      const keys = index.keys.filter((key) => key.name !== name);
      const active = index.active === name ? keys[keys.length - 1]?.name : index.active;
      await writeIndex({ active, keys });
      await secrets.delete(SECRET_KEY(name));
      await secrets.delete(HEADERS_KEY(name));
      await publishSecrets();
      fireSoon();
    });

  const switchTo = (name: string): Promise<void> =>
    serial(async () => {
      const index = await readIndex();
      if (!index.keys.some((key) => key.name === name)) throw new Error(`No stored key named "${name}".`);
      await writeIndex({ ...index, active: name });
      fireSoon();
    });

  const seed = async (): Promise<void> => {
    const index = await readIndex();
    // Only on a machine with no key stored: a key the user set always wins over the environment.
    if (!fromEnv.key || index.keys.length > 0) return;
    const name = envKeyName(env);
    const info = await set(name, fromEnv.key);
    log.info(`Stored the key from ${API_KEY_ENV} as "${name}" (${info.fingerprint}): no key was stored yet.`);
  };
  const ready = serial(async () => undefined)
    .then(seed)
    .then(publishSecrets)
    .catch((error: unknown) => log.error('Reading the stored keys failed.', error));

  const listener = secrets.onDidChange((event) => {
    if (!event.key.startsWith(PREFIX)) return;
    // Only the index decides what is stored. Invalidating on a secret's event could re-read the index
    // between our own two writes (secret, then index) and cache the old index.
    if (event.key === INDEX_KEY) cached = undefined;
    void publishSecrets().catch(() => undefined);
    fireSoon();
  });

  const active = async (): Promise<KeyInfo | undefined> => {
    await ready;
    const index = await readIndex();
    return index.keys.find((key) => key.name === index.active) ?? index.keys[index.keys.length - 1];
  };

  return {
    ready,
    active,
    list: async () => {
      await ready;
      return [...(await readIndex()).keys];
    },
    activeSecret: async () => {
      const info = await active();
      return info ? secrets.get(SECRET_KEY(info.name)) : undefined;
    },
    secretOf: async (name) => secrets.get(SECRET_KEY(name)),
    secretHeaders: readHeaders,
    secretHeaderList: async (keyName) =>
      Object.entries(await readHeaders(keyName)).map(([name, value]) => ({ name, fingerprint: fingerprintOf(value) })),
    setSecretHeader: (keyName, header, value) =>
      editHeaders(keyName, (headers) => {
        withoutName(headers, header);
        headers[header] = value;
      }),
    removeSecretHeader: (keyName, header) => editHeaders(keyName, (headers) => withoutName(headers, header)),
    set,
    remove,
    switchTo,
    onDidChange: emitter.event,
    dispose: () => {
      listener.dispose();
      emitter.dispose();
    },
  };
}

function parseIndex(text: string | undefined): KeyIndex {
  if (!text) return { keys: [] };
  try {
    const parsed = JSON.parse(text) as Partial<KeyIndex>;
    const keys = Array.isArray(parsed.keys)
      ? parsed.keys.filter(
          (key): key is KeyInfo => typeof key?.name === 'string' && typeof key?.fingerprint === 'string',
        )
      : [];
    return { active: typeof parsed.active === 'string' ? parsed.active : undefined, keys };
  } catch {
    return { keys: [] };
  }
}

function parseHeaders(text: string | undefined): Record<string, string> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}
