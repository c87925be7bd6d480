// Set / List / Remove Secret Header: request headers whose values are secrets (Helicone-Auth, cf-aig-authorization,
// a tenant token), stored in VS Code's secret storage beside the active key (src/keys/keyStore.ts) and sent with
// it on every route. Only names and fingerprints are ever shown or logged; the values are redacted like keys.
// The functions take arguments (key name, header, value) so tests drive them without input boxes.
import * as vscode from 'vscode';
import { checkRequestHeaders } from '../gateway/requestHeaders';
import type { KeyInfo, Services } from '../platform/services';
import { fingerprintOf } from './fingerprint';

export interface SecretHeaderArgs {
  /** The stored key the header belongs to; default: the active key. */
  keyName?: string;
  header?: string;
  value?: string;
}

/** The key the headers belong to: the named one, else the active one; says so when there is none. */
async function targetKey(services: Services, keyName?: string): Promise<KeyInfo | undefined> {
  const key =
    keyName !== undefined ? (await services.keys.list()).find((k) => k.name === keyName) : await services.keys.active();
  if (!key)
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Model Gateway: secret headers are stored beside an API key; set an API key first.'),
    );
  return key;
}

/** Why a header cannot be sent (a reserved name, not a token, a line break in the value), or undefined. */
function headerProblem(services: Services, header: string, value = 'x'): string | undefined {
  return checkRequestHeaders({ [header]: value }, services.config.current.versionHeader).problem;
}

export async function setSecretHeader(
  services: Services,
  args: SecretHeaderArgs = {},
): Promise<{ name: string; fingerprint: string } | undefined> {
  const interactive = args.value === undefined;
  const key = await targetKey(services, args.keyName);
  if (!key) return undefined;
  const header = (
    args.header ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Model Gateway: Set Secret Header (1/2) for key "{0}"', key.name),
      prompt: vscode.l10n.t(
        'The header name, e.g. Helicone-Auth or cf-aig-authorization. It is sent on every request with this key.',
      ),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? headerProblem(services, value.trim()) : undefined),
    })) ??
    ''
  ).trim();
  if (!header) return undefined;
  const value =
    args.value ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Model Gateway: Set Secret Header (2/2): "{0}"', header),
      prompt: vscode.l10n.t("Paste the value. It is stored in VS Code's secret storage only and never shown again."),
      password: true,
      ignoreFocusOut: true,
      validateInput: (typed) => (typed ? headerProblem(services, header, typed) : undefined),
    }));
  if (!value) return undefined;
  const problem = headerProblem(services, header, value);
  if (problem) {
    if (!interactive) throw new Error(problem);
    void vscode.window.showErrorMessage(`Model Gateway: ${problem}`);
    return undefined;
  }
  await services.keys.setSecretHeader(key.name, header, value);
  const fingerprint = fingerprintOf(value);
  services.log.info(`Secret header "${header}" (${fingerprint}) stored for key "${key.name}".`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Model Gateway: secret header "{0}" ({1}) stored for key "{2}"; it is sent on every request with that key.',
      header,
      fingerprint,
      key.name,
    ),
  );
  return { name: header, fingerprint };
}

/** Shows the active key's secret headers by name and fingerprint; resolves with them. */
export async function listSecretHeaders(
  services: Services,
  keyName?: string,
  show = true,
): Promise<Array<{ name: string; fingerprint: string }>> {
  const key = await targetKey(services, keyName);
  if (!key) return [];
  const headers = await services.keys.secretHeaderList(key.name);
  if (!show) return headers;
  if (headers.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Model Gateway: no secret header is stored for key "{0}".', key.name),
    );
    return headers;
  }
  void vscode.window.showQuickPick(
    headers.map((h) => ({ label: h.name, description: vscode.l10n.t('fingerprint {0}', h.fingerprint) })),
    { placeHolder: vscode.l10n.t('Secret headers sent with key "{0}" (values are never shown)', key.name) },
  );
  return headers;
}

export async function removeSecretHeader(services: Services, args: SecretHeaderArgs = {}): Promise<boolean> {
  const key = await targetKey(services, args.keyName);
  if (!key) return false;
  const headers = await services.keys.secretHeaderList(key.name);
  const header =
    args.header ??
    (headers.length === 0
      ? undefined
      : (
          await vscode.window.showQuickPick(
            headers.map((h) => ({ label: h.name, description: vscode.l10n.t('fingerprint {0}', h.fingerprint) })),
            { placeHolder: vscode.l10n.t('Remove which secret header of key "{0}"?', key.name), ignoreFocusOut: true },
          )
        )?.label);
  if (headers.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Model Gateway: no secret header is stored for key "{0}".', key.name),
    );
    return false;
  }
  if (!header || !headers.some((h) => h.name.toLowerCase() === header.toLowerCase())) return false;
  await services.keys.removeSecretHeader(key.name, header);
  services.log.info(`Secret header "${header}" removed from key "${key.name}".`);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Model Gateway: secret header "{0}" removed from key "{1}".', header, key.name),
  );
  return true;
}
