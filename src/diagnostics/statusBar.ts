// Status bar item: active key, connection state, default chat model; click opens Quick Actions.
import * as vscode from 'vscode';
import type { SupportRecord } from '../gateway/types';
import type { Services } from '../platform/services';
import { Commands } from '../shared/commands';
import { stateFromRecord, statusText, statusTooltip, effectiveState, type ConnectionState } from './statusState';

export interface StatusBar extends vscode.Disposable {
  setState(state: ConnectionState): void;
}

export function createStatusBar(services: Services): StatusBar {
  const item = vscode.window.createStatusBarItem('modelGateway.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Model Gateway';
  item.command = Commands.quickActions;
  let state: ConnectionState = 'unknown';
  let lastRecord: SupportRecord | undefined;

  const render = async (): Promise<void> => {
    const key = await services.keys.active();
    const config = services.config.current;
    const snapshot = services.catalog.peek();
    const chatIds = snapshot?.models.filter((m) => m.kind === 'chat').map((m) => m.id) ?? [];
    const chatModel = config.chat.defaultModel || chatIds[0];
    const inputs = {
      keyName: key?.name,
      keyFingerprint: key?.fingerprint,
      baseUrl: config.baseUrl,
      state,
      chatModel,
      lastRecord,
      balance: services.account.peekBalance(),
    };
    item.text = statusText(inputs, vscode.l10n);
    const tooltip = new vscode.MarkdownString(statusTooltip(inputs, vscode.l10n));
    tooltip.isTrusted = false;
    item.tooltip = tooltip;
    const bad = ['key-rejected', 'forbidden', 'not-found', 'unreachable'].includes(effectiveState(inputs));
    item.backgroundColor = bad ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    item.show();
  };
  const rerender = (): void =>
    void render().catch((error: unknown) => services.log.warn('Status bar update failed.', error));

  const resetState = (): void => {
    state = 'unknown';
    lastRecord = undefined;
    rerender();
  };
  const subscriptions = [
    services.keys.onDidChange(resetState),
    services.config.onDidChange(resetState),
    services.catalog.onDidChange((snapshot) => {
      if (snapshot && Date.now() - snapshot.fetchedAt < 5_000) {
        state = 'ok';
        // A model list just fetched: the balance of the same key is read too when due (at most every 5 minutes,
        // never again on a gateway without a balance route), so the tooltip has it without a click.
        void services.account.balance().catch(() => undefined);
      }
      rerender();
    }),
    services.account.onDidChange(rerender),
    services.support.onDidAdd((record) => {
      lastRecord = record;
      // No status: cancelled or no answer; the two cannot be told apart here, so only Check Connection says "unreachable".
      if (record.status !== undefined) state = stateFromRecord(record);
      rerender();
    }),
  ];
  rerender();
  return {
    setState: (next) => {
      state = next;
      rerender();
    },
    dispose: () => vscode.Disposable.from(item, ...subscriptions).dispose(),
  };
}
