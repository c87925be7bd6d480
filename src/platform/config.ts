// The one typed wrapper over getConfiguration('modelGateway'): feeds the pure parseConfig() and
// fires after every change of `modelGateway.*` or `http.proxy*`.
import * as vscode from 'vscode';
import { CONFIG_KEYS, parseConfig, type Config } from '../shared/config';
import type { ConfigService } from './services';
import type { ProxySettings } from './proxy';

export const SECTION = 'modelGateway';

export interface HostConfigService extends ConfigService, vscode.Disposable {
  readonly proxy: ProxySettings;
}

export function readRawConfig(): Record<string, unknown> {
  const section = vscode.workspace.getConfiguration(SECTION);
  const raw: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) raw[key] = section.get(key);
  return raw;
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

export function createConfigService(): HostConfigService {
  const emitter = new vscode.EventEmitter<Config>();
  let current = parseConfig(readRawConfig());
  let proxy = readProxySettings();
  const listener = vscode.workspace.onDidChangeConfiguration((event) => {
    const ours = event.affectsConfiguration(SECTION);
    const proxyChanged = ['http.proxy', 'http.noProxy', 'http.proxyStrictSSL'].some((key) => event.affectsConfiguration(key));
    if (!ours && !proxyChanged) return;
    current = parseConfig(readRawConfig());
    proxy = readProxySettings();
    emitter.fire(current);
  });
  return {
    get current() {
      return current;
    },
    get proxy() {
      return proxy;
    },
    onDidChange: emitter.event,
    dispose: () => {
      listener.dispose();
      emitter.dispose();
    },
  };
}
