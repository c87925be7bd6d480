// GET /v1/models, cached per (key fingerprint, base URL) in globalState with a lifetime, merged with the
// declared models (modelGateway.models.declared). Fires on every change of what peek() returns: a new
// list, another key, another base URL, new overrides or declared ids.
//
// Every fetch has a cause the user can name: startup (once), a key or base-URL change, a user action
// (Refresh Models, Check Connection) or a reader that needs the list and finds it stale. Fetches go
// through a FetchGate: one at a time per context, and automatic ones at most every
// AUTO_FETCH_MIN_INTERVAL_MS, so that no setting (cacheMinutes 0), event order or error can make a loop
// of fetch → onDidChange → reader → fetch. Listeners of onDidChange read with peek(), never get().
import * as vscode from 'vscode';
import type { GatewayClient, Logger } from '../gateway/types';
import type {
  CatalogModel,
  CatalogSnapshot,
  ConfigService,
  KeyInfo,
  KeyStore,
  ModelCatalog,
} from '../platform/services';
import type { ModelKind } from '../shared/config';
import { disposeAll } from '../shared/dispose';
import { cacheKey, isFresh, readTable, toSnapshot, withEntry, type CacheEntry, type CacheTable } from './cache';
import { FetchGate } from './gate';
import { listOrUnlisted } from './listing';

const STATE_KEY = 'modelGateway.catalog.v1';

/** Automatic fetches of one (key, base URL) start at most this often; Refresh Models is not limited. */
export const AUTO_FETCH_MIN_INTERVAL_MS = 10_000;

/**
 * Host tests only (the harness sets MG_HOST_RESULTS; the tests share this process): a shorter interval in
 * this variable lets a test show within a second or two that nothing fetches in the background, where the
 * real interval would have to be waited out. Read at each decision, so a test can set it for a while.
 */
export const AUTO_FETCH_INTERVAL_TEST_ENV = 'MG_TEST_CATALOG_AUTO_FETCH_MS';

function autoFetchIntervalMs(): number {
  const shortened = process.env.MG_HOST_RESULTS ? Number(process.env[AUTO_FETCH_INTERVAL_TEST_ENV]) : NaN;
  // Never below 100 ms: even a test value keeps automatic fetches bounded.
  return Number.isFinite(shortened) && shortened > 0 ? Math.max(100, shortened) : AUTO_FETCH_MIN_INTERVAL_MS;
}

export interface CatalogDeps {
  context: vscode.ExtensionContext;
  config: ConfigService;
  keys: KeyStore;
  log: Logger;
  /** The client of the active key together with that key, so a list is never filed under another key. */
  clientWithKey(): Promise<{ client: GatewayClient; key: KeyInfo } | undefined>;
  /** Tests only: the minimum interval between automatic fetches. */
  minIntervalMs?: number;
}

export function createModelCatalog(deps: CatalogDeps): ModelCatalog & vscode.Disposable {
  const emitter = new vscode.EventEmitter<CatalogSnapshot | undefined>();
  // A getter: the gate reads the interval at each decision (see AUTO_FETCH_INTERVAL_TEST_ENV).
  const gate = new FetchGate<CatalogSnapshot>({
    get minIntervalMs() {
      return deps.minIntervalMs ?? autoFetchIntervalMs();
    },
  });
  let activeFingerprint: string | undefined;
  let lastContext = '';
  const settingsSignature = (): string =>
    JSON.stringify([deps.config.current.modelKindOverrides, deps.config.current.declaredModels]);
  let lastSettings = settingsSignature();

  const table = (): CacheTable => readTable(deps.context.globalState.get(STATE_KEY));
  const overrides = (): Record<string, ModelKind> => deps.config.current.modelKindOverrides;
  const declared = (): string[] => deps.config.current.declaredModels;
  const contextKey = (): string =>
    activeFingerprint && deps.config.current.baseUrl ? cacheKey(activeFingerprint, deps.config.current.baseUrl) : '';

  const peek = (): CatalogSnapshot | undefined => {
    const key = contextKey();
    if (!key) return undefined;
    const entry = table()[key];
    if (entry) return toSnapshot(entry, overrides(), declared());
    // Nothing fetched yet: the declared ids alone (fetchedAt 0 = never fetched).
    if (declared().length === 0 || !activeFingerprint) return undefined;
    return toSnapshot(
      { keyFingerprint: activeFingerprint, baseUrl: deps.config.current.baseUrl, fetchedAt: 0, models: [] },
      overrides(),
      declared(),
    );
  };

  const fetchInto = async (
    access: { client: GatewayClient; key: KeyInfo },
    signal?: AbortSignal,
  ): Promise<CatalogSnapshot> => {
    const listing = await listOrUnlisted(access.client, signal);
    // 404 with nothing declared: report it as before (the user must declare ids or fix the base URL).
    if (listing.unlisted && declared().length === 0) throw listing.error;
    const entry: CacheEntry = {
      keyFingerprint: access.key.fingerprint,
      baseUrl: access.client.baseUrl,
      fetchedAt: Date.now(),
      models: listing.models,
      ...(listing.unlisted ? { unlisted: true } : {}),
    };
    await deps.context.globalState.update(STATE_KEY, withEntry(table(), entry));
    deps.log.info(
      listing.unlisted
        ? `Key ${access.key.name} (${access.key.fingerprint}) at ${entry.baseUrl}: the gateway does not list models (GET /v1/models: 404); using ${declared().length} declared.`
        : `Model list for key ${access.key.name} (${access.key.fingerprint}) at ${entry.baseUrl}: ${listing.models.length} models.`,
    );
    const snapshot = toSnapshot(entry, overrides(), declared());
    if (access.key.fingerprint === activeFingerprint) emitter.fire(snapshot);
    return snapshot;
  };

  /** Fetches through the gate. Skipped automatic fetches answer with the cache (or the last error). */
  const fetchList = async (automatic: boolean, signal?: AbortSignal): Promise<CatalogSnapshot | undefined> => {
    const access = await deps.clientWithKey();
    if (!access) return undefined;
    const key = cacheKey(access.key.fingerprint, access.client.baseUrl);
    const decision = gate.run(key, () => fetchInto(access, signal), automatic);
    if (decision.kind !== 'skipped') return decision.promise;
    const entry = table()[key];
    if (entry) return toSnapshot(entry, overrides(), declared());
    if (decision.error !== undefined) throw decision.error;
    return peek();
  };

  const get = async (options?: { signal?: AbortSignal }): Promise<CatalogSnapshot | undefined> => {
    activeFingerprint = (await deps.keys.active())?.fingerprint;
    const cached = peek();
    if (cached && cached.fetchedAt > 0 && isFresh(cached, deps.config.current.modelCacheMs, Date.now())) return cached;
    return fetchList(true, options?.signal);
  };

  const byKind = async (kind: CatalogModel['kind']): Promise<CatalogModel[]> => {
    let snapshot: CatalogSnapshot | undefined;
    try {
      snapshot = await get();
    } catch (error) {
      snapshot = peek();
      if (!snapshot) throw error;
      deps.log.warn('Model list refresh failed; using the cached list.', error);
    }
    return (snapshot?.models ?? []).filter((model) => model.kind === kind);
  };

  /** Another key, base URL, overrides or declared ids: tell the views at once (cached list or nothing), then refetch. */
  const onContextMaybeChanged = async (): Promise<void> => {
    activeFingerprint = (await deps.keys.active())?.fingerprint;
    const context = contextKey();
    const settingsNow = settingsSignature();
    if (context === lastContext && settingsNow === lastSettings) return;
    const contextChanged = context !== lastContext;
    lastContext = context;
    lastSettings = settingsNow;
    emitter.fire(peek());
    if (contextChanged && context) {
      await get().catch((error: unknown) =>
        deps.log.warn('Could not fetch the model list after a key or base URL change.', error),
      );
    }
  };
  const react = (): void =>
    void onContextMaybeChanged().catch((error: unknown) => deps.log.error('Model catalog update failed.', error));
  const subscriptions = [deps.keys.onDidChange(react), deps.config.onDidChange(react)];
  // At startup: tell early peek() callers what is cached, then fetch when the cache is stale or empty.
  void deps.keys.active().then(
    async (key) => {
      activeFingerprint = key?.fingerprint;
      lastContext = contextKey();
      if (!lastContext) return;
      emitter.fire(peek());
      await get().catch((error: unknown) => deps.log.warn('Could not fetch the model list at startup.', error));
    },
    () => undefined,
  );

  return {
    get,
    peek,
    refresh: async (options) => {
      activeFingerprint = (await deps.keys.active())?.fingerprint;
      return fetchList(options?.automatic === true, options?.signal);
    },
    chatModels: () => byKind('chat'),
    imageModels: () => byKind('image'),
    onDidChange: emitter.event,
    dispose: () => disposeAll([...subscriptions, emitter]),
  };
}
