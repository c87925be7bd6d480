// Builds gateway clients from the settings, the active key and VS Code's proxy settings. The client
// (and its dispatcher) is cached until any of those change.
import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import { createGatewayClient } from '../gateway/lazyClient';
import type { GatewayClient, Logger, SupportRecord, UsageRecord } from '../gateway/types';
import type { Cost } from '../gateway/pricing';
import { Commands } from '../shared/commands';
import { requestHeaderNames, type Config } from '../shared/config';
import { disposeAll } from '../shared/dispose';
import { createDispatcher, describeProxyPlan, planProxy, type ProxySettings } from './proxy';
import { createDialectSource, type DialectSourceDeps } from './dialectSource';
import { consentButtons } from './workspaceSettings';
import type { ClientOverrides, GatewayAccess, KeyInfo, KeyStore } from './services';

export interface GatewayAccessDeps {
  config: {
    readonly current: Config;
    readonly proxy: ProxySettings;
    readonly onDidChange: vscode.Event<Config>;
    allowWorkspaceBaseUrl(): Promise<void>;
    allowWorkspaceSystemPrompt(): Promise<void>;
  };
  keys: KeyStore;
  log: Logger;
  onSupportRecord(record: SupportRecord): void;
  /** What each billable response used, with the fingerprint of the key that paid for it (the usage ledger). */
  onUsage?(record: UsageRecord, keyFingerprint: string): Cost | undefined;
  /** The fingerprint of a secret (src/keys/fingerprint.ts, given by the composition root). */
  fingerprint?(secret: string): string;
  env?: Record<string, string | undefined>;
  userAgent?: string;
  /** Every secret the extension knows (the stored keys, secret header values): removed from every client text. */
  secrets?: () => Iterable<string>;
  /** Where learned dialects are kept and the model list is read (without it: the setting only, nothing kept). */
  dialects?: Omit<DialectSourceDeps, 'config'>;
}

export type HostGatewayAccess = GatewayAccess & vscode.Disposable;

export function createGatewayAccess(deps: GatewayAccessDeps): HostGatewayAccess {
  const env = deps.env ?? process.env;
  let cached: { signature: string; client: GatewayClient; key: KeyInfo } | undefined;
  let dispatcher: { signature: string; value: Dispatcher | undefined } | undefined;

  const currentDispatcher = (): Dispatcher | undefined => {
    const plan = planProxy(deps.config.proxy, env);
    const signature = JSON.stringify(plan);
    if (dispatcher?.signature !== signature) {
      void dispatcher?.value?.close().catch(() => undefined);
      dispatcher = { signature, value: createDispatcher(plan) };
      deps.log.info(`Network: ${describeProxyPlan(plan)}.`);
    }
    return dispatcher.value;
  };

  /** Each stored key's secret headers as last read (by key fingerprint): clientFor() of a stored key sends them too. */
  const secretHeadersOf = new Map<string, Record<string, string>>();
  const build = (secret: string, { keyFingerprint, onRecorded, ...overrides }: ClientOverrides = {}): GatewayClient => {
    const config = deps.config.current;
    const secretHeaders = overrides.secretHeaders ?? (keyFingerprint ? secretHeadersOf.get(keyFingerprint) : undefined);
    const fingerprint = keyFingerprint;
    // The ledger's key: the stored key's fingerprint, else the secret's own (the same function computes both).
    const ledgerKey = keyFingerprint ?? deps.fingerprint?.(secret) ?? '';
    const memento = deps.dialects?.memento;
    return createGatewayClient({
      onUsage: deps.onUsage
        ? (record) => {
            const cost = deps.onUsage?.(record, ledgerKey);
            onRecorded?.(record, cost);
          }
        : undefined,
      dialects: memento
        ? createDialectSource({ ...deps.dialects, memento, config: deps.config }, fingerprint, config.baseUrl)
        : {
            knowledge: (model) => ({ override: deps.config.current.modelDialects?.[model] }),
            learned: () => undefined,
          },
      reasoning: (model) => deps.config.current.modelReasoning?.[model],
      ...overrides,
      baseUrl: config.baseUrl,
      apiKey: secret,
      versionHeader: config.versionHeader,
      version: config.version,
      timeoutMs: config.requestTimeoutMs,
      editEncoding: config.images.editEncoding,
      dispatcher: currentDispatcher(),
      logger: deps.log,
      onSupportRecord: deps.onSupportRecord,
      userAgent: deps.userAgent,
      headers: config.requestHeaders,
      secretHeaders,
      secrets: deps.secrets,
    });
  };

  const clientWithKey = async (): Promise<{ client: GatewayClient; key: KeyInfo } | undefined> => {
    const config = deps.config.current;
    const key = await deps.keys.active();
    if (!key || !config.baseUrl) return undefined;
    const signature = JSON.stringify([
      key.name,
      key.fingerprint,
      config.baseUrl,
      config.versionHeader,
      config.version,
      config.requestTimeoutMs,
      config.images.editEncoding,
      deps.config.proxy,
      config.requestHeaders,
      await deps.keys.secretHeaderList(key.name),
    ]);
    if (cached?.signature === signature) return { client: cached.client, key: cached.key };
    const secret = await deps.keys.activeSecret();
    if (!secret) return undefined;
    const secretHeaders = await deps.keys.secretHeaders(key.name);
    secretHeadersOf.set(key.fingerprint, secretHeaders);
    logHeaderNames(deps.log, config.requestHeaders, secretHeaders);
    cached = { signature, client: build(secret, { keyFingerprint: key.fingerprint, secretHeaders }), key };
    return { client: cached.client, key };
  };

  const missing = async (): Promise<'key' | 'baseUrl' | undefined> => {
    if (!deps.config.current.baseUrl) return 'baseUrl';
    return (await deps.keys.active()) ? undefined : 'key';
  };

  /** Workspace system prompts the user declined in this window (asked once each). */
  const declinedPrompts = new Set<string>();
  const clientOrExplain = async (): Promise<GatewayClient | undefined> => {
    const prompt = deps.config.current.workspaceSystemPromptToAllow;
    if (prompt !== undefined && !declinedPrompts.has(prompt) && !(await askToAllowWorkspaceSystemPrompt(deps.config)))
      declinedPrompts.add(prompt);
    const access = await clientWithKey();
    if (access) return access.client;
    const pending = deps.config.current.workspaceBaseUrlToAllow;
    if (pending)
      return (await askToAllowWorkspaceBaseUrl(pending, deps.config)) ? (await clientWithKey())?.client : undefined;
    await explainMissing(await missing(), deps.config.current);
    return undefined;
  };

  const invalidate = (): void => {
    cached = undefined;
  };
  const subscriptions = [deps.config.onDidChange(invalidate), deps.keys.onDidChange(invalidate)];

  return {
    client: async () => (await clientWithKey())?.client,
    clientOrExplain,
    clientFor: (secret, overrides) => build(secret, overrides),
    clientWithKey,
    missing,
    proxyDescription: (l10n) => describeProxyPlan(planProxy(deps.config.proxy, env), l10n),
    dispose: () => {
      disposeAll(subscriptions);
      void dispatcher?.value?.close().catch(() => undefined);
    },
  };
}

/** Says which request headers the client sends, by name only (values may be secrets). */
function logHeaderNames(log: Logger, headers: Record<string, string>, secretHeaders: Record<string, string>): void {
  const names = requestHeaderNames(headers, Object.keys(secretHeaders));
  if (names.length > 0) log.info(`Request headers sent on every route: ${names.join(', ')}.`);
}

/** A modal consent prompt (a workspace setting that is not the user's own): the safe button first, the allowance last. */
function askConsent(message: string, detail: string, safe: string, allow: string): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(message, { modal: true, detail }, ...consentButtons(safe, allow));
}

/**
 * Asks before the key goes to a base URL that the workspace's settings chose; true when the user allowed it. The
 * safe button comes first (a modal's first button is its default): Enter opens the settings file, it sends nothing.
 */
async function askToAllowWorkspaceBaseUrl(baseUrl: string, config: GatewayAccessDeps['config']): Promise<boolean> {
  const allow = vscode.l10n.t('Allow for This Workspace');
  const open = vscode.l10n.t('Open Workspace Settings');
  const choice = await askConsent(
    vscode.l10n.t(
      "Model Gateway: this workspace's settings ({0}) set the base URL to {1}, which is not your own setting.",
      config.current.workspaceSettingsFile ?? '.vscode/settings.json',
      baseUrl,
    ),
    vscode.l10n.t(
      'Allowing it sends your API key to that address for requests from this workspace. Allow it only if you trust whoever wrote the workspace settings.',
    ),
    open,
    allow,
  );
  if (choice === open) await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
  if (choice !== allow) return false;
  await config.allowWorkspaceBaseUrl();
  return true;
}

/**
 * Asks before the workspace's system prompt is sent to the model (it comes from the repository, not the user); true
 * when allowed. Until then the chat uses the user's own system prompt. The safe button comes first.
 */
async function askToAllowWorkspaceSystemPrompt(config: GatewayAccessDeps['config']): Promise<boolean> {
  const text = config.current.workspaceSystemPromptToAllow ?? '';
  const allow = vscode.l10n.t('Use It in This Workspace');
  const keep = vscode.l10n.t('Keep My Own');
  const choice = await askConsent(
    vscode.l10n.t(
      "Model Gateway: this workspace's settings ({0}) set a system prompt for the chat, which is not your own setting. Use it?",
      config.current.workspaceSettingsFile ?? '.vscode/settings.json',
    ),
    vscode.l10n.t(
      'The model is told this first in every chat of this workspace. Use it only if you trust whoever wrote the workspace settings:\n\n{0}',
      text.length > 600 ? `${text.slice(0, 600)}…` : text,
    ),
    keep,
    allow,
  );
  if (choice !== allow) return false;
  await config.allowWorkspaceSystemPrompt();
  return true;
}

async function explainMissing(what: 'key' | 'baseUrl' | undefined, config: Config): Promise<void> {
  if (what === 'baseUrl') {
    const setUrl = vscode.l10n.t('Open Settings');
    const why = config.baseUrlProblem ?? vscode.l10n.t('No base URL is set.');
    const choice = await vscode.window.showWarningMessage(`Model Gateway: ${why}`, setUrl);
    if (choice === setUrl) await vscode.commands.executeCommand(Commands.openSettings, 'baseUrl');
    return;
  }
  const setKey = vscode.l10n.t('Set API Key');
  const message = vscode.l10n.t(
    'Model Gateway: no API key is stored. Create a dedicated key for this device in your gateway console, then set it here.',
  );
  const choice = await vscode.window.showWarningMessage(message, setKey);
  if (choice === setKey) await vscode.commands.executeCommand(Commands.setApiKey);
}
