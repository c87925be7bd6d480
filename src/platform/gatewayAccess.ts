// Builds gateway clients from the settings, the active key and VS Code's proxy settings. The client
// (and its dispatcher) is cached until any of those change.
import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import { createGatewayClient } from '../gateway/lazyClient';
import type { GatewayClient, Logger, SupportRecord, UsageRecord } from '../gateway/types';
import { Commands } from '../shared/commands';
import type { Config } from '../shared/config';
import { disposeAll } from '../shared/dispose';
import { createDispatcher, describeProxyPlan, planProxy, type ProxySettings } from './proxy';
import type { ClientOverrides, GatewayAccess, KeyInfo, KeyStore } from './services';

export interface GatewayAccessDeps {
  config: {
    readonly current: Config;
    readonly proxy: ProxySettings;
    readonly onDidChange: vscode.Event<Config>;
    allowWorkspaceBaseUrl(): Promise<void>;
  };
  keys: KeyStore;
  log: Logger;
  onSupportRecord(record: SupportRecord): void;
  /** What each billable response used, with the fingerprint of the key that paid for it (the usage ledger). */
  onUsage?(record: UsageRecord, keyFingerprint: string): void;
  /** The fingerprint of a secret (src/keys/fingerprint.ts, given by the composition root). */
  fingerprint?(secret: string): string;
  env?: Record<string, string | undefined>;
  userAgent?: string;
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

  const build = (secret: string, overrides: ClientOverrides = {}): GatewayClient => {
    const config = deps.config.current;
    const fingerprint = deps.fingerprint?.(secret) ?? '';
    return createGatewayClient({
      onUsage: deps.onUsage ? (record) => deps.onUsage?.(record, fingerprint) : undefined,
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
    ]);
    if (cached?.signature === signature) return { client: cached.client, key: cached.key };
    const secret = await deps.keys.activeSecret();
    if (!secret) return undefined;
    cached = { signature, client: build(secret), key };
    return { client: cached.client, key };
  };

  const missing = async (): Promise<'key' | 'baseUrl' | undefined> => {
    if (!deps.config.current.baseUrl) return 'baseUrl';
    return (await deps.keys.active()) ? undefined : 'key';
  };

  const clientOrExplain = async (): Promise<GatewayClient | undefined> => {
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
    proxyDescription: () => describeProxyPlan(planProxy(deps.config.proxy, env)),
    dispose: () => {
      disposeAll(subscriptions);
      void dispatcher?.value?.close().catch(() => undefined);
    },
  };
}

/** Asks before the key goes to a base URL that the workspace's settings chose; true when the user allowed it. */
async function askToAllowWorkspaceBaseUrl(baseUrl: string, config: GatewayAccessDeps['config']): Promise<boolean> {
  const allow = vscode.l10n.t('Allow for This Workspace');
  const open = vscode.l10n.t('Open Workspace Settings');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      "Model Gateway: this workspace's settings (.vscode/settings.json) set the base URL to {0}, which is not your own setting.",
      baseUrl,
    ),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Allowing it sends your API key to that address for requests from this workspace. Allow it only if you trust whoever wrote the workspace settings.',
      ),
    },
    allow,
    open,
  );
  if (choice === open) await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
  if (choice !== allow) return false;
  await config.allowWorkspaceBaseUrl();
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
