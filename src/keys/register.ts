// Set API Key, Remove API Key, Switch Key. The functions also take arguments (name, secret) so that other
// flows and the test hooks can drive them without the input boxes; the key is still checked first. The
// commands themselves take none. In the commands bundle (src/diagnostics/chunk.ts), loaded on first use.
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { CommandTable, TestHooks } from '../platform/commands';
import type { KeyInfo, Services } from '../platform/services';
import { Commands } from '../shared/commands';
import { checkKey, describeCount, describeUnlisted } from './check';
import { cleanKeyName, cleanSecret } from './fingerprint';
import { listSecretHeaders, removeSecretHeader, setSecretHeader, type SecretHeaderArgs } from './secretHeaders';

export interface SetKeyArgs {
  name?: string;
  secret?: string;
  /** Without input boxes: save even when the check failed with a non-auth error. */
  saveUnverified?: boolean;
}

/** Said at both steps of Set API Key. */
const oneKeyAdvice = (): string =>
  vscode.l10n.t(
    'Use a dedicated key for this device or workload, created in your gateway console; never reuse a personal, shared or production key.',
  );

/** The key commands, by id. */
export function keyCommands(services: Services): CommandTable<'keys'> {
  return {
    [Commands.setApiKey]: () => setApiKey(services),
    [Commands.removeApiKey]: () => removeApiKey(services),
    [Commands.switchKey]: () => switchKey(services),
    [Commands.setSecretHeader]: () => setSecretHeader(services),
    [Commands.listSecretHeaders]: () => listSecretHeaders(services),
    [Commands.removeSecretHeader]: () => removeSecretHeader(services),
  };
}

/** The same flows with their arguments, for tests (TEST_HOOKS_COMMAND). */
export function keyTestHooks(services: Services): TestHooks {
  return {
    setApiKey: (args: SetKeyArgs) => setApiKey(services, args),
    removeApiKey: (name: string) => removeApiKey(services, name),
    switchKey: (name: string) => switchKey(services, name),
    setSecretHeader: (args: SecretHeaderArgs) => setSecretHeader(services, args),
    listSecretHeaders: (keyName?: string) => listSecretHeaders(services, keyName, false),
    removeSecretHeader: (args: SecretHeaderArgs) => removeSecretHeader(services, args),
  };
}

/** The Set API Key flow; resolves with the saved key (name + fingerprint) or undefined. */
export async function setApiKey(services: Services, args: SetKeyArgs = {}): Promise<KeyInfo | undefined> {
  const interactive = args.secret === undefined;
  if (!services.config.current.baseUrl) {
    await explainNoBaseUrl(services, interactive);
    return undefined;
  }
  const name = args.name !== undefined ? cleanKeyName(args.name) : await askName(services);
  if (!name) return undefined;
  const secret = args.secret !== undefined ? cleanSecret(args.secret) : await askSecret(name);
  if (!secret) {
    if (!interactive) throw new Error(vscode.l10n.t('That does not look like an API key.'));
    return undefined;
  }
  const check = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Model Gateway: checking key "{0}" with GET /v1/models…', name),
      cancellable: true,
    },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const { modelKindOverrides, declaredModels } = services.config.current;
      return checkKey(services.gateway.clientFor(secret), {
        overrides: modelKindOverrides,
        declared: declaredModels,
        signal: abort.signal,
      });
    },
  );
  if (check.ok && check.unlisted) {
    const info = await services.keys.set(name, secret);
    services.log.info(`Key "${name}" (${info.fingerprint}) saved. ${describeUnlisted(check)}`);
    const declare = vscode.l10n.t('Declare Models');
    void vscode.window
      .showInformationMessage(
        `${vscode.l10n.t('Model Gateway: key "{0}" ({1}) saved in VS Code\'s secret storage.', name, info.fingerprint)} ${describeUnlisted(check, vscode.l10n)}`,
        ...(check.total ? [] : [declare]),
      )
      .then((choice) =>
        choice ? vscode.commands.executeCommand(Commands.openSettings, 'models.declared') : undefined,
      );
    return info;
  }
  if (check.ok) {
    const info = await services.keys.set(name, secret);
    services.log.info(`Key "${name}" (${info.fingerprint}) checked (${describeCount(check)}) and saved.`);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Model Gateway: key "{0}" ({1}) works: {2} listed. Saved in VS Code\'s secret storage.',
        name,
        info.fingerprint,
        describeCount(check, vscode.l10n),
      ),
    );
    return info;
  }
  return handleFailedCheck(services, name, secret, check, args, interactive);
}

async function handleFailedCheck(
  services: Services,
  name: string,
  secret: string,
  check: { verdict: 'rejected' | 'unverified'; error: unknown },
  args: SetKeyArgs,
  interactive: boolean,
): Promise<KeyInfo | undefined> {
  if (check.verdict === 'rejected') {
    services.log.warn(`Key "${name}" rejected by the gateway (401); not saved.`);
    const message = vscode.l10n.t(
      'Model Gateway: the gateway rejected this key (401: incomplete, revoked or wrong). It was NOT saved. If it was revoked or may be exposed, create a new key in your gateway console and set that one. Never paste a key into a support request.',
    );
    if (!interactive) {
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
    const again = await vscode.window.showErrorMessage(message, vscode.l10n.t('Try Another Key'));
    if (again) return setApiKey(services, { name });
    return undefined;
  }
  services.log.warn(`Key "${name}" could not be checked.`, check.error);
  if (!interactive) {
    if (!args.saveUnverified) {
      await services.errors.show(check.error, 'connection');
      return undefined;
    }
  } else {
    const save = vscode.l10n.t('Save Anyway');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'Model Gateway: the key could not be checked ({0}). The gateway did not say it is wrong. Save it anyway?',
        summary(check.error),
      ),
      { modal: true, detail: vscode.l10n.t('You can run Check Connection afterwards to see each step.') },
      save,
    );
    if (choice !== save) return undefined;
  }
  const info = await services.keys.set(name, secret);
  void vscode.window
    .showWarningMessage(
      vscode.l10n.t('Model Gateway: key "{0}" ({1}) saved without a successful check.', name, info.fingerprint),
      vscode.l10n.t('Check Connection'),
    )
    .then((choice) => (choice ? vscode.commands.executeCommand(Commands.checkConnection) : undefined));
  return info;
}

function summary(error: unknown): string {
  const status = (error as { status?: unknown })?.status;
  const message = error instanceof Error ? error.message : String(error);
  return typeof status === 'number' ? `HTTP ${status}: ${message}` : message;
}

async function explainNoBaseUrl(services: Services, interactive: boolean): Promise<void> {
  const why = services.config.current.baseUrlProblem ?? vscode.l10n.t('No base URL is set.');
  if (!interactive) throw new Error(why);
  const choice = await vscode.window.showWarningMessage(
    `${vscode.l10n.t('Model Gateway: set the base URL first, so the key can be checked.')} ${why}`,
    vscode.l10n.t('Open Settings'),
  );
  if (choice) await vscode.commands.executeCommand(Commands.openSettings, 'baseUrl');
}

async function askName(services: Services): Promise<string | undefined> {
  const existing = await services.keys.list();
  const suggestion = suggestName(existing.map((key) => key.name));
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Model Gateway: Set API Key (1/2)'),
    prompt: `${vscode.l10n.t('A name for this key, e.g. the device or workload it belongs to ("laptop", "ci-runner").')} ${oneKeyAdvice()}`,
    value: suggestion,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const name = cleanKeyName(value);
      if (!name) return vscode.l10n.t('Enter a name (1–64 characters).');
      return existing.some((key) => key.name === name)
        ? {
            message: vscode.l10n.t('A key named "{0}" is stored; it will be replaced.', name),
            severity: vscode.InputBoxValidationSeverity.Warning,
          }
        : undefined;
    },
  });
  return typed === undefined ? undefined : cleanKeyName(typed);
}

/** The host name (one key per device), made unique among the stored names. */
export function suggestName(taken: readonly string[], host = os.hostname()): string {
  const base = (host.split('.')[0] || 'this-device').slice(0, 48);
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) if (!taken.includes(`${base}-${i}`)) return `${base}-${i}`;
}

async function askSecret(name: string): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Model Gateway: Set API Key (2/2): "{0}"', name),
    prompt: `${vscode.l10n.t("Paste the API key. It is checked with GET /v1/models, then stored in VS Code's secret storage only.")} ${oneKeyAdvice()}`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (cleanSecret(value) ? undefined : vscode.l10n.t('Paste the whole key (no spaces).')),
  });
  return typed === undefined ? undefined : cleanSecret(typed);
}

export async function removeApiKey(services: Services, name?: string): Promise<boolean> {
  const keys = await services.keys.list();
  if (keys.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Model Gateway: no API key is stored.'));
    return false;
  }
  const target =
    name ??
    (await pickKey(keys, vscode.l10n.t('Remove which key from this machine?'), (await services.keys.active())?.name))
      ?.name;
  if (!target || !keys.some((key) => key.name === target)) return false;
  if (name === undefined) {
    const remove = vscode.l10n.t('Remove');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the key "{0}" from VS Code\'s secret storage?', target),
      {
        modal: true,
        detail: vscode.l10n.t(
          'The key stays valid at the gateway. If it may be exposed, revoke and replace it in your gateway console.',
        ),
      },
      remove,
    );
    if (choice !== remove) return false;
  }
  await services.keys.remove(target);
  services.log.info(`Key "${target}" removed.`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Model Gateway: key "{0}" removed from this machine.', target),
  );
  return true;
}

export async function switchKey(services: Services, name?: string): Promise<KeyInfo | undefined> {
  const keys = await services.keys.list();
  const active = await services.keys.active();
  if (name === undefined && keys.length < 2) {
    const add = vscode.l10n.t('Set API Key');
    const message = active
      ? vscode.l10n.t(
          'Model Gateway: only one key is stored ("{0}", {1}). Add another with Set API Key (one key per device or workload).',
          active.name,
          active.fingerprint,
        )
      : vscode.l10n.t('Model Gateway: no key is stored. Add one with Set API Key (one key per device or workload).');
    const choice = await vscode.window.showInformationMessage(message, add);
    if (choice) await vscode.commands.executeCommand(Commands.setApiKey);
    return active;
  }
  const target = name ?? (await pickKey(keys, vscode.l10n.t('Switch to which key?'), active?.name))?.name;
  if (!target) return undefined;
  await services.keys.switchTo(target);
  const info = keys.find((key) => key.name === target);
  services.log.info(`Active key: "${target}" (${info?.fingerprint ?? '?'}).`);
  return info;
}

async function pickKey(keys: KeyInfo[], placeHolder: string, activeName?: string): Promise<KeyInfo | undefined> {
  const items = keys.map((key) => ({
    label: key.name,
    description: vscode.l10n.t('fingerprint {0}', key.fingerprint),
    detail: key.name === activeName ? vscode.l10n.t('active') : undefined,
    key,
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }))?.key;
}
