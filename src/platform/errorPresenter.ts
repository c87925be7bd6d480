// Turns any error into one notification: the gateway core's advice (adviseOnError) in words, with
// buttons that run the spec's reaction. The key never appears: the advice is built from a GatewayError
// whose texts the core already redacted, and the Logger redacts again.
import * as vscode from 'vscode';
import { adviseOnError } from '../gateway';
import { isModelUnavailable } from '../gateway/errors/advice';
import { isGatewayError } from '../gateway/errors/errors';
import type { Logger } from '../gateway/types';
import type { Config } from '../shared/config';
import type { AccountService, ErrorPresenter, ErrorSurface, ModelCatalog } from './services';
import { balanceAfterError } from './balanceNote';
import { actionButtonIn, type ActionButton } from './errorActions';
import { listWorksAt } from './listWorks';
import { redact } from './redact';

export interface ErrorPresenterDeps {
  config: { readonly current: Config };
  log: Logger;
  catalog: Pick<ModelCatalog, 'refresh'> & Partial<Pick<ModelCatalog, 'peek'>>;
  account?: Pick<AccountService, 'balance' | 'balanceError' | 'peekBalance'>;
  /** Every secret the extension knows (services.secrets): removed from the notification too. */
  secrets?: () => Iterable<string>;
}

export function createErrorPresenter(deps: ErrorPresenterDeps): ErrorPresenter {
  return {
    async show(error: unknown, surface: ErrorSurface): Promise<void> {
      if (isGatewayError(error) && error.kind === 'aborted') return;
      const baseUrl = deps.config.current.baseUrl;
      const listWorks = listWorksAt(deps.catalog, baseUrl);
      const advice = adviseOnError(error, { baseUrl, surface, l10n: vscode.l10n, listWorks });
      deps.log.error(`${advice.title} ${advice.detail}`.trim(), isGatewayError(error) ? error.supportRecord() : error);
      refreshCatalogWhenModelMissing(error, deps);
      const buttons = dedupe(
        advice.actions
          .map((action) => actionButtonIn(vscode.l10n, action))
          .filter((button): button is ActionButton => button !== undefined),
      );
      // The product name prefixes every notification, in every language.
      const balance = deps.account ? balanceAfterError({ account: deps.account }, error) : undefined;
      const balanceNote = balance ? ` ${balance}` : '';
      const message = redact(
        `Model Gateway: ${advice.title}${advice.detail ? ` ${advice.detail}` : ''}${consoleNote(error)}${balanceNote}`,
        deps.secrets?.() ?? [],
      );
      const severity =
        isGatewayError(error) && error.kind === 'rate_limited'
          ? vscode.window.showWarningMessage
          : vscode.window.showErrorMessage;
      const choice = await severity(message, ...buttons.map((button) => button.label));
      const chosen = buttons.find((button) => button.label === choice);
      if (chosen) await vscode.commands.executeCommand(chosen.command, ...chosen.args);
    },
  };
}

/** A 403/404 about a model means the cached list may be stale (spec: never assume a model is callable). */
function refreshCatalogWhenModelMissing(error: unknown, deps: ErrorPresenterDeps): void {
  if (!isGatewayError(error) || !error.model) return;
  if (error.kind !== 'forbidden' && error.kind !== 'not_found' && !isModelUnavailable(error)) return;
  // Automatic: skipped when the list was fetched moments ago, so a burst of such errors fetches once.
  void deps.catalog
    .refresh({ automatic: true })
    .catch((refreshError: unknown) => deps.log.warn('Model list refresh after a model error failed.', refreshError));
}

/** On 401 the user must hear that a revoked or exposed key is replaced in the console (docs/gateway-protocol.md#keys). */
function consoleNote(error: unknown): string {
  // The advice never says it itself (an upstream 401 is about the gateway's credentials, but the note still holds).
  if (!isGatewayError(error) || error.kind !== 'auth') return '';
  return ` ${vscode.l10n.t('A key that was revoked or may be exposed must be revoked and replaced in your gateway console.')}`;
}

function dedupe(buttons: ActionButton[]): ActionButton[] {
  const seen = new Set<string>();
  return buttons.filter((button) => !seen.has(button.label) && seen.add(button.label));
}
