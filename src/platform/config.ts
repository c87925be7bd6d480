// The one typed wrapper over getConfiguration('modelGateway'): feeds the pure parseConfig() and
// fires after every change of `modelGateway.*` or `http.proxy*`.
import * as vscode from 'vscode';
import { parseConfig, type Config } from '../shared/config';
import type { ConfigService } from './services';
import type { ProxySettings } from './proxy';
import { gatewaySettings } from './settings';
import { sayClampedSettings } from './settingsNotice';
import { allowanceId, workspaceBaseUrlProblem, workspaceBaseUrlToAllow } from './workspaceBaseUrl';
import { workspaceSettingsFile, workspaceSystemPromptToAllow } from './workspaceSettings';

export const SECTION = 'modelGateway';

export type HostConfigService = ConfigService & vscode.Disposable;

/** Where allowances of workspace base URLs are remembered (hashes only, see workspaceBaseUrl.ts). */
export interface AllowanceStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

const ALLOWANCES_KEY = 'modelGateway.allowedWorkspaceBaseUrls.v1';

/** The keys parseConfig reads, each under the trust settingsTable.ts declares (src/platform/settings.ts). */
export function readRawConfig(): Record<string, unknown> {
  return gatewaySettings.rawConfig();
}

export function readProxySettings(): ProxySettings {
  const http = vscode.workspace.getConfiguration('http');
  const noProxy = http.get<unknown>('noProxy');
  return {
    proxy: String(http.get<unknown>('proxy') ?? ''),
    noProxy: Array.isArray(noProxy) ? noProxy.filter((entry): entry is string => typeof entry === 'string') : [],
    strictSSL: http.get<boolean>('proxyStrictSSL') !== false,
  };
}

/** The workspace as one string: its .code-workspace file, else its folders. */
function workspaceIdentity(): string {
  return (
    vscode.workspace.workspaceFile?.toString() ??
    (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()).join('\n')
  );
}

/** What an allowance of a workspace system prompt is remembered by (hashed with the workspace, see allowanceId). */
function systemPromptAllowance(text: string): string {
  return `systemPrompt\n${text}`;
}

/**
 * The config with the workspace's system prompt only when the user allowed that exact text for this workspace;
 * otherwise the user's own (or none), and the waiting text with the file that set it.
 */
function withWorkspaceSystemPrompt(config: Config, isAllowed: (value: string) => boolean): Config {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('chat.systemPrompt');
  const sources = {
    user: inspected?.globalValue,
    workspace: inspected?.workspaceValue,
    folder: inspected?.workspaceFolderValue,
  };
  const toAllow = workspaceSystemPromptToAllow(sources);
  if (!toAllow || isAllowed(systemPromptAllowance(toAllow))) return config;
  const fromFolder = typeof sources.folder === 'string' && sources.folder === toAllow;
  return {
    ...config,
    chat: { ...config.chat, systemPrompt: typeof sources.user === 'string' ? sources.user : '' },
    workspaceSystemPromptToAllow: toAllow,
    workspaceSettingsFile: workspaceSettingsFile(vscode.workspace.workspaceFile?.toString(), fromFolder),
  };
}

export function createConfigService(allowances: AllowanceStore): HostConfigService {
  const emitter = new vscode.EventEmitter<Config>();
  const allowed = (): string[] => {
    const stored = allowances.get(ALLOWANCES_KEY);
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  };
  const isAllowed = (value: string): boolean => allowed().includes(allowanceId(workspaceIdentity(), value));
  const read = (): Config => {
    const config = withWorkspaceSystemPrompt(parseConfig(readRawConfig(), vscode.l10n), isAllowed);
    const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('baseUrl');
    const toAllow = workspaceBaseUrlToAllow({ user: inspected?.globalValue, workspace: inspected?.workspaceValue });
    if (!toAllow || isAllowed(toAllow)) return config;
    return {
      ...config,
      baseUrl: '',
      baseUrlProblem: workspaceBaseUrlProblem(toAllow, vscode.l10n),
      workspaceBaseUrlToAllow: toAllow,
      workspaceSettingsFile: workspaceSettingsFile(vscode.workspace.workspaceFile?.toString()),
    };
  };
  let current = read();
  sayClampedSettings(current.clamped);
  let proxy = readProxySettings();
  const reload = (): void => {
    current = read();
    sayClampedSettings(current.clamped);
    proxy = readProxySettings();
    emitter.fire(current);
  };
  const listener = vscode.workspace.onDidChangeConfiguration((event) => {
    const ours = event.affectsConfiguration(SECTION);
    const proxyChanged = ['http.proxy', 'http.noProxy', 'http.proxyStrictSSL'].some((key) =>
      event.affectsConfiguration(key),
    );
    if (ours || proxyChanged) reload();
  });
  return {
    get current() {
      return current;
    },
    get proxy() {
      return proxy;
    },
    onDidChange: emitter.event,
    allowWorkspaceSystemPrompt: async () => {
      const toAllow = current.workspaceSystemPromptToAllow;
      if (!toAllow) return;
      await allowances.update(
        ALLOWANCES_KEY,
        [...allowed(), allowanceId(workspaceIdentity(), systemPromptAllowance(toAllow))].slice(-200),
      );
      reload();
    },
    allowWorkspaceBaseUrl: async () => {
      const toAllow = current.workspaceBaseUrlToAllow;
      if (!toAllow) return;
      await allowances.update(ALLOWANCES_KEY, [...allowed(), allowanceId(workspaceIdentity(), toAllow)].slice(-200));
      reload();
    },
    dispose: () => {
      listener.dispose();
      emitter.dispose();
    },
  };
}
