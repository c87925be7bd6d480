// Builds the Services every feature receives (see services.ts). Wiring only: each part lives in its own file.
import * as vscode from 'vscode';
import { createModelCatalog } from '../catalog/catalog';
import { createKeyStore } from '../keys/keyStore';
import { createConfigService } from './config';
import { createErrorPresenter } from './errorPresenter';
import { createGatewayAccess, type HostGatewayAccess } from './gatewayAccess';
import { createLogger, type HostLogger } from './log';
import type { ModelCatalog, Services } from './services';
import { SupportRing } from './supportLog';
import type { HostConfigService } from './config';
import type { HostKeyStore } from '../keys/keyStore';

/** Services with the concrete members the platform's own commands use (diagnostics, keys). */
export interface PlatformServices extends Services {
  log: HostLogger;
  config: HostConfigService;
  keys: HostKeyStore;
  gateway: HostGatewayAccess;
  support: SupportRing;
}

export function createServices(context: vscode.ExtensionContext): PlatformServices & vscode.Disposable {
  const log = createLogger();
  const config = createConfigService(context.globalState);
  const keys = createKeyStore(context, (secrets) => log.setKnownSecrets(secrets), log);
  const support = new SupportRing(50);
  const version = String((context.extension?.packageJSON as { version?: unknown } | undefined)?.version ?? '0');
  const gateway = createGatewayAccess({
    config, keys, log, onSupportRecord: (record) => support.add(record), userAgent: `model-gateway-vscode/${version} vscode/${vscode.version}`,
  });
  const catalog: ModelCatalog & vscode.Disposable = createModelCatalog({ context, config, keys, log, clientWithKey: () => gateway.clientWithKey() });
  const errors = createErrorPresenter({ config, log, catalog });
  const configChanged = config.onDidChange((current) => log.info(`Settings changed; base URL ${current.baseUrl || '(none)'}.`));
  void keys.ready.then(() => log.info(`Model Gateway ready; base URL ${config.current.baseUrl || '(not set)'}.`));
  return {
    context, log, config, keys, gateway, catalog, support, errors,
    dispose: () => {
      for (const part of [configChanged, catalog, gateway, keys, config, log]) part.dispose();
    },
  };
}
