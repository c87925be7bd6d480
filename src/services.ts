// The composition root of the shared services every feature receives (their interfaces: src/platform/services.ts).
// Wiring only: each part lives in its own file. It sits beside extension.ts, above the platform and the services
// built on it (catalog, keys), so that none of those imports another's implementation.
import * as vscode from 'vscode';
import { createModelCatalog } from './catalog/catalog';
import { createKeyStore } from './keys/keyStore';
import { createConfigService } from './platform/config';
import { createGatewayAccess } from './platform/gatewayAccess';
import { createLogger } from './platform/log';
import type { ErrorPresenter, ModelCatalog, Services } from './platform/services';
import { disposeAll } from './shared/dispose';
import { lazy } from './shared/lazy';
import { SupportRing } from './platform/supportLog';
import { SecretRegistry } from './shared/secretRedaction';
import { fingerprintOf } from './keys/fingerprint';
import { createAccountService } from './usage/host/account';
import type { AccountService } from './platform/services';

/** Code the services load on first use (src/extension.ts `bundles`), so that activation does not parse it. */
export interface ServiceBundles {
  /** The error presenter with the gateway core's advice (its words and tables): loaded with the first error shown. */
  errors(): typeof import('./platform/errorPresenter');
}

export function createServices(
  context: vscode.ExtensionContext,
  bundles: ServiceBundles,
): Services & vscode.Disposable {
  const secrets = new SecretRegistry();
  const log = createLogger(undefined, () => secrets.values());
  const config = createConfigService(context.globalState);
  const keys = createKeyStore(context, (stored) => secrets.setStored(stored), log);
  const support = new SupportRing(50, secrets.redact);
  // The client (built below) reports usage to the account service, which is built from the client's access.
  const usage: { account?: AccountService } = {};
  const version = String((context.extension?.packageJSON as { version?: unknown } | undefined)?.version ?? '0');
  const gateway = createGatewayAccess({
    config,
    keys,
    log,
    onSupportRecord: (record) => support.add(record),
    onUsage: (record, keyFingerprint) => usage.account?.record(record, keyFingerprint),
    fingerprint: fingerprintOf,
    userAgent: `model-gateway-vscode/${version} vscode/${vscode.version}`,
    secrets: () => secrets.values(),
    // The catalog is built below on this access; it is only read when a request is sent.
    dialects: { memento: context.globalState, catalog: () => catalog.peek(), log },
  });
  const catalog: ModelCatalog & vscode.Disposable = createModelCatalog({
    context,
    config,
    keys,
    log,
    clientWithKey: () => gateway.clientWithKey(),
  });
  const account = createAccountService({
    globalStorageUri: context.globalStorageUri,
    config,
    keys,
    gateway,
    catalog,
    log,
    state: context.globalState,
  });
  const presenter = lazy(() =>
    bundles.errors().createErrorPresenter({ config, log, catalog, account, secrets: () => secrets.values() }),
  );
  const errors: ErrorPresenter = { show: async (error, surface) => presenter().show(error, surface) };
  const configChanged = config.onDidChange((current) =>
    log.info(`Settings changed; base URL ${current.baseUrl || '(none)'}.`),
  );
  void keys.ready.then(() => log.info(`Model Gateway ready; base URL ${config.current.baseUrl || '(not set)'}.`));
  return {
    context,
    log,
    config,
    keys,
    gateway,
    catalog,
    support,
    errors,
    account: (usage.account = account),
    secrets,
    // The log last: the others may still write to it while they are disposed.
    dispose: () => disposeAll([configChanged, account, catalog, gateway, keys, config, log]),
  };
}
