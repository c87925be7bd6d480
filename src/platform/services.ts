// What every feature receives from activate(): plain interfaces, passed in through register functions.
// No global singletons. Implementations live next to this file (and in src/catalog/).
import type * as vscode from 'vscode';
import type { Balance } from '../gateway/balance';
import type { Cost } from '../gateway/pricing';
import type {
  GatewayClient,
  GatewayClientOptions,
  Logger,
  ModelInfo,
  SupportRecord,
  UsageRecord,
} from '../gateway/types';
import type { LedgerEntry, ModelTotals } from '../shared/usageLedger';
import type { Config, ModelKind } from '../shared/config';
import type { ProxySettings } from './proxy';

/** Settings, parsed; fires after every change of `modelGateway.*` (and of `http.proxy*`). */
export interface ConfigService {
  readonly current: Config;
  readonly onDidChange: vscode.Event<Config>;
  /** VS Code's proxy settings (http.proxy, http.noProxy, http.proxyStrictSSL). */
  readonly proxy: ProxySettings;
  /** Remembers that the user allowed the workspace's base URL (current.workspaceBaseUrlToAllow) for this workspace. */
  allowWorkspaceBaseUrl(): Promise<void>;
  /** Remembers that this workspace's system prompt (config.workspaceSystemPromptToAllow) may be used here. */
  allowWorkspaceSystemPrompt(): Promise<void>;
}

/** The output channel, redacting keys (src/platform/log.ts). */
export interface HostLogger extends Logger, vscode.Disposable {
  show(): void;
  /** Secrets to redact verbatim (the stored keys); updated by the key store. */
  setKnownSecrets(secrets: Iterable<string>): void;
}

/** A stored key as the UI may see it: a name and a fingerprint, never the secret. */
export interface KeyInfo {
  name: string;
  /** Short hash of the key (e.g. 'a1b2c3d4'); safe to show and to use as a cache key. */
  fingerprint: string;
}

/** Named API keys in SecretStorage; one is active. */
export interface KeyStore {
  active(): Promise<KeyInfo | undefined>;
  list(): Promise<KeyInfo[]>;
  /** The active secret, for building a client only. Never log, show or post it. */
  activeSecret(): Promise<string | undefined>;
  /** Stores (or replaces) a named key and makes it active. */
  set(name: string, secret: string): Promise<KeyInfo>;
  remove(name: string): Promise<void>;
  switchTo(name: string): Promise<void>;
  /** Fires when keys change here or in another window (secrets.onDidChange). */
  readonly onDidChange: vscode.Event<void>;
  /** Resolves once the environment seed (if any) is stored. */
  readonly ready: Promise<void>;
  /** The secret of a named key (for Check Connection across keys); never log or show it. */
  secretOf(name: string): Promise<string | undefined>;
}

/** Builds gateway clients from the current settings, the active key and VS Code's proxy settings. */
/** Client options a feature may set for its own client (everything else comes from the settings). */
export type ClientOverrides = Pick<GatewayClientOptions, 'maxRetries'> & {
  /** The key's fingerprint when the secret is a stored key's: what its models' dialects taught is shared then. */
  keyFingerprint?: string;
  /** Told of each response the usage ledger recorded, with the cost it recorded (the chat shows that figure). */
  onRecorded?(record: UsageRecord, cost: Cost | undefined): void;
};

export interface GatewayAccess {
  /** A client for the active key, or undefined when no key or no valid base URL is configured. */
  client(): Promise<GatewayClient | undefined>;
  /** Like client(), but tells the user what is missing (with Set API Key / Open Settings actions) and returns undefined. */
  clientOrExplain(): Promise<GatewayClient | undefined>;
  /**
   * A client for an explicit key (used to check a key before it is saved). `overrides.maxRetries: 0`: the
   * agent loop handles 429 itself and shows each wait.
   */
  clientFor(secret: string, overrides?: ClientOverrides): GatewayClient;
  /** The active client together with the key it uses (the catalog files lists under that key). */
  clientWithKey(): Promise<{ client: GatewayClient; key: KeyInfo } | undefined>;
  /** What keeps client() from returning a client, in words; undefined when nothing does. */
  missing(): Promise<'key' | 'baseUrl' | undefined>;
  /** The proxy in use, in words (for Check Connection and the log). */
  proxyDescription(): string;
}

export interface CatalogModel {
  id: string;
  kind: ModelKind;
  raw: ModelInfo;
  /** new-api's `supported_endpoint_types`, verbatim; undefined when the gateway gave none (the chat dialect is picked by it). */
  endpointTypes?: readonly string[];
  /** Context window (input tokens) where the gateway's list gives one. */
  contextTokens?: number;
  /** Output token limit where the gateway's list gives one. */
  outputTokens?: number;
  /** From modelGateway.models.declared and not (or not yet) in the gateway's list. */
  declared?: boolean;
}

export interface CatalogSnapshot {
  /** Fingerprint of the key the list belongs to. */
  keyFingerprint: string;
  baseUrl: string;
  /** When the list was fetched; 0 when nothing was fetched yet (declared models only). */
  fetchedAt: number;
  models: CatalogModel[];
  /** The gateway has no model list route (GET /v1/models answered 404): the models are the declared ones. */
  listUnavailable?: boolean;
}

/**
 * GET /v1/models, cached per (key fingerprint, base URL) in globalState, merged with the declared models.
 * Fetches are coalesced (one at a time per key and base URL; automatic ones at most every few seconds).
 * Listeners of onDidChange must read the list with peek() or the event's snapshot, never get()/refresh():
 * a fetch fires onDidChange.
 */
export interface ModelCatalog {
  /** Cached snapshot when fresh, otherwise fetched (an automatic fetch). Undefined when there is no key/base URL. Throws GatewayError. */
  get(options?: { signal?: AbortSignal }): Promise<CatalogSnapshot | undefined>;
  /** Whatever is cached for the active key and base URL, fresh or not, without network. */
  peek(): CatalogSnapshot | undefined;
  /** Fetches (shares a running fetch). `automatic`: not a user action, so skipped when the last fetch is recent. */
  refresh(options?: { signal?: AbortSignal; automatic?: boolean }): Promise<CatalogSnapshot | undefined>;
  chatModels(): Promise<CatalogModel[]>;
  imageModels(): Promise<CatalogModel[]>;
  readonly onDidChange: vscode.Event<CatalogSnapshot | undefined>;
}

/** Ring buffer of the last requests' support records (the five fields only). */
export interface SupportLog {
  add(record: SupportRecord): void;
  recent(limit?: number): SupportRecord[];
  onDidAdd(listener: (record: SupportRecord) => void): { dispose(): void };
}

export type ErrorSurface = 'chat' | 'image' | 'models' | 'connection';

/** Turns any error into a notification with the spec's reaction as actions (Replace key, Check connection, ...). */
export interface ErrorPresenter {
  show(error: unknown, surface: ErrorSurface): Promise<void>;
}

/**
 * The key's account as far as the gateway tells it and this machine saw it: the balance (probed only when due,
 * src/gateway/balance.ts), the cost of a response (src/gateway/pricing.ts) and the local usage ledger.
 */
export interface AccountService {
  /** The active key's balance; probes the gateway only when due (at most one probe sequence per call). */
  balance(options?: { signal?: AbortSignal }): Promise<Balance | undefined>;
  /** The last balance known for the active key and base URL, without network. */
  peekBalance(): Balance | undefined;
  /** A balance error (402/403 quota) happened: the next balance() reads again. */
  balanceError(): void;
  /**
   * The one cost function: what a response's usage (or its images) cost and where the figure comes from; undefined
   * when nothing prices it. The route does not enter: the ledger records the route actually called.
   */
  costOf(record: Pick<UsageRecord, 'model' | 'usage' | 'images'>): Cost | undefined;
  /** Adds a response to the ledger of the key with this fingerprint; returns the cost it recorded. */
  record(record: UsageRecord, keyFingerprint: string): Cost | undefined;
  ledger(): Promise<LedgerEntry[]>;
  /** Today's totals of the active key, and the share of its daily budget they use (0 without a budget). */
  today(): Promise<{ totals: ModelTotals; budgetUsed: number; keyFingerprint?: string }>;
  /** True when a request of about `nextTokens` tokens would pass the active key's daily budget (none: false). */
  wouldPassDailyBudget(nextTokens: number): Promise<boolean>;
  /** Clears the ledger of one key (all keys when undefined). */
  clear(keyFingerprint?: string): Promise<void>;
  /** Fires when the ledger or the balance changed. */
  readonly onDidChange: vscode.Event<void>;
}

export interface Services {
  context: vscode.ExtensionContext;
  log: HostLogger;
  config: ConfigService;
  keys: KeyStore;
  gateway: GatewayAccess;
  catalog: ModelCatalog;
  support: SupportLog;
  errors: ErrorPresenter;
  account: AccountService;
}

/** What the images feature offers other features (the @gateway /image participant). */
export interface ImageJobs {
  /**
   * Generates with the given or default image model and size (async task unless sync mode), saves the
   * images into the workspace and resolves with the saved files. Rejects with GatewayError or a plain Error.
   */
  generate(
    request: { prompt: string; model?: string; size?: string; n?: number },
    options?: { onProgress?(message: string, percent?: number): void; token?: vscode.CancellationToken },
  ): Promise<vscode.Uri[]>;
}
