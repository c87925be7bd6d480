// GET /v1/models, cached per (key fingerprint, base URL) in globalState with a lifetime. Fires on
// every change of what peek() returns: a new list, another key, another base URL, new overrides.
import * as vscode from 'vscode';
import type { GatewayClient, Logger } from '../gateway/types';
import type { CatalogModel, CatalogSnapshot, ConfigService, KeyInfo, KeyStore, ModelCatalog } from '../platform/services';
import type { ModelKind } from '../shared/config';
import { cacheKey, isFresh, readTable, toSnapshot, withEntry, type CacheTable } from './cache';

const STATE_KEY = 'modelGateway.catalog.v1';

export interface CatalogDeps {
  context: vscode.ExtensionContext;
  config: ConfigService;
  keys: KeyStore;
  log: Logger;
  /** The client of the active key together with that key, so a list is never filed under another key. */
  clientWithKey(): Promise<{ client: GatewayClient; key: KeyInfo } | undefined>;
}

export function createModelCatalog(deps: CatalogDeps): ModelCatalog & vscode.Disposable {
  const emitter = new vscode.EventEmitter<CatalogSnapshot | undefined>();
  const inFlight = new Map<string, Promise<CatalogSnapshot | undefined>>();
  let activeFingerprint: string | undefined;
  let lastContext = '';
  let lastOverrides = JSON.stringify(deps.config.current.modelKindOverrides);

  const table = (): CacheTable => readTable(deps.context.globalState.get(STATE_KEY));
  const overrides = (): Record<string, ModelKind> => deps.config.current.modelKindOverrides;
  const contextKey = (): string => (activeFingerprint && deps.config.current.baseUrl ? cacheKey(activeFingerprint, deps.config.current.baseUrl) : '');

  const peek = (): CatalogSnapshot | undefined => {
    const key = contextKey();
    const entry = key ? table()[key] : undefined;
    return entry ? toSnapshot(entry, overrides()) : undefined;
  };

  const fetchList = async (signal?: AbortSignal): Promise<CatalogSnapshot | undefined> => {
    const access = await deps.clientWithKey();
    if (!access) return undefined;
    const key = cacheKey(access.key.fingerprint, access.client.baseUrl);
    const running = inFlight.get(key);
    if (running) return running;
    const task = (async () => {
      const models = await access.client.listModels({ signal });
      const entry = { keyFingerprint: access.key.fingerprint, baseUrl: access.client.baseUrl, fetchedAt: Date.now(), models };
      await deps.context.globalState.update(STATE_KEY, withEntry(table(), entry));
      deps.log.info(`Model list for key ${access.key.name} (${access.key.fingerprint}) at ${entry.baseUrl}: ${models.length} models.`);
      const snapshot = toSnapshot(entry, overrides());
      if (access.key.fingerprint === activeFingerprint) emitter.fire(snapshot);
      return snapshot;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, task);
    return task;
  };

  const get = async (options?: { signal?: AbortSignal }): Promise<CatalogSnapshot | undefined> => {
    activeFingerprint = (await deps.keys.active())?.fingerprint;
    const cached = peek();
    if (cached && isFresh(cached, deps.config.current.modelCacheMs, Date.now())) return cached;
    return fetchList(options?.signal);
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

  /** Another key, base URL or overrides: tell the views at once (cached list or nothing), then refetch. */
  const onContextMaybeChanged = async (): Promise<void> => {
    activeFingerprint = (await deps.keys.active())?.fingerprint;
    const context = contextKey();
    const overridesNow = JSON.stringify(overrides());
    if (context === lastContext && overridesNow === lastOverrides) return;
    const contextChanged = context !== lastContext;
    lastContext = context;
    lastOverrides = overridesNow;
    emitter.fire(peek());
    if (contextChanged && context) {
      await get().catch((error: unknown) => deps.log.warn('Could not fetch the model list after a key or base URL change.', error));
    }
  };
  const react = (): void => void onContextMaybeChanged().catch((error: unknown) => deps.log.error('Model catalog update failed.', error));
  const subscriptions = [deps.keys.onDidChange(react), deps.config.onDidChange(react)];
  // At startup: tell early peek() callers what is cached, then fetch when the cache is stale or empty.
  void deps.keys.active().then(async (key) => {
    activeFingerprint = key?.fingerprint;
    lastContext = contextKey();
    if (!lastContext) return;
    emitter.fire(peek());
    await get().catch((error: unknown) => deps.log.warn('Could not fetch the model list at startup.', error));
  }, () => undefined);

  return {
    get,
    peek,
    refresh: async (options) => {
      activeFingerprint = (await deps.keys.active())?.fingerprint;
      return fetchList(options?.signal);
    },
    chatModels: () => byKind('chat'),
    imageModels: () => byKind('image'),
    onDidChange: emitter.event,
    dispose: () => {
      subscriptions.forEach((subscription) => subscription.dispose());
      emitter.dispose();
    },
  };
}
