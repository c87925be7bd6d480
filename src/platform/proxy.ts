// Which undici dispatcher honours VS Code's proxy settings. `planProxy` is pure (unit-tested);
// `createDispatcher` turns the plan into an undici Agent / EnvHttpProxyAgent, behind the check that retires
// connections idle for longer than the gateway keeps them (src/gateway/freshConnections.ts).
import type { Dispatcher } from 'undici';
import { undici } from '../gateway/undici';
import { agentOptions, createFreshConnectionDispatcher } from '../gateway/freshConnections';
import { english, type Localizer } from '../shared/l10n';

/** VS Code's `http.proxy`, `http.noProxy`, `http.proxyStrictSSL`. */
export interface ProxySettings {
  proxy: string;
  noProxy: string[];
  strictSSL: boolean;
}

export type ProxyPlan =
  | { kind: 'direct' }
  /** No proxy, but certificates are not verified (http.proxyStrictSSL = false, e.g. a self-signed gateway). */
  | { kind: 'direct-insecure' }
  | {
      kind: 'proxy';
      httpProxy: string;
      httpsProxy: string;
      noProxy: string;
      strictSSL: boolean;
      source: 'settings' | 'environment';
    };

/** Decides the dispatcher from the settings first, then the HTTP(S)_PROXY environment VS Code was started with. */
export function planProxy(settings: ProxySettings, env: Record<string, string | undefined> = {}): ProxyPlan {
  const noProxy = [...settings.noProxy, ...splitList(env.NO_PROXY ?? env.no_proxy)].join(',');
  const configured = settings.proxy.trim();
  if (configured !== '') {
    return {
      kind: 'proxy',
      httpProxy: configured,
      httpsProxy: configured,
      noProxy,
      strictSSL: settings.strictSSL,
      source: 'settings',
    };
  }
  const httpsProxy = (env.HTTPS_PROXY ?? env.https_proxy ?? '').trim();
  const httpProxy = (env.HTTP_PROXY ?? env.http_proxy ?? '').trim();
  if (httpsProxy !== '' || httpProxy !== '') {
    return {
      kind: 'proxy',
      httpProxy: httpProxy || httpsProxy,
      httpsProxy: httpsProxy || httpProxy,
      noProxy,
      strictSSL: settings.strictSSL,
      source: 'environment',
    };
  }
  return settings.strictSSL ? { kind: 'direct' } : { kind: 'direct-insecure' };
}

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** The dispatcher for a plan; undefined for a plain direct connection (the gateway client's shared one). */
export function createDispatcher(plan: ProxyPlan): Dispatcher | undefined {
  switch (plan.kind) {
    case 'direct':
      return undefined;
    case 'direct-insecure':
      return createFreshConnectionDispatcher(
        () => new (undici().Agent)({ ...agentOptions(), connect: { rejectUnauthorized: false } }),
      );
    case 'proxy': {
      const tls = { rejectUnauthorized: plan.strictSSL };
      return createFreshConnectionDispatcher(
        () =>
          new (undici().EnvHttpProxyAgent)({
            ...agentOptions(),
            httpProxy: plan.httpProxy,
            httpsProxy: plan.httpsProxy,
            noProxy: plan.noProxy,
            requestTls: tls,
            proxyTls: tls,
            connect: tls,
          }),
      );
    }
  }
}

/** One line for the log and Check Connection, with any credentials in the proxy URL hidden. */
export function describeProxyPlan(plan: ProxyPlan, l10n: Localizer = english): string {
  switch (plan.kind) {
    case 'direct':
      return l10n.t('direct connection (no proxy)');
    case 'direct-insecure':
      return l10n.t('direct connection, certificates NOT verified (http.proxyStrictSSL is off)');
    case 'proxy': {
      const url = hideCredentials(plan.httpsProxy);
      const bypass = plan.noProxy ? `, bypassed for ${plan.noProxy}` : '';
      const strict = plan.strictSSL ? '' : ', certificates NOT verified';
      return `proxy ${url} (from ${plan.source === 'settings' ? 'http.proxy' : 'HTTP(S)_PROXY'}${bypass}${strict})`;
    }
  }
}

function hideCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '***';
      parsed.password = '';
    }
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}
