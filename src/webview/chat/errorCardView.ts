// Inline error card: the advice, the facts support may see, and the actions of the spec's error table.
import type { ErrorActionId, ErrorCard } from '../../shared/protocol/chat';
import { el, textButton } from '../common/dom';
import { t, type WebviewStringKey } from '../common/strings';

const ACTION_LABELS: Record<ErrorActionId, WebviewStringKey> = {
  replaceKey: 'error.replaceKey',
  checkConnection: 'error.checkConnection',
  openBaseUrlSetting: 'error.openBaseUrlSetting',
  retry: 'error.retry',
  refreshModels: 'error.refreshModels',
  openConsoleAdvice: 'error.openConsoleAdvice',
  showLog: 'error.showLog',
};

export function renderErrorCard(card: ErrorCard, messageId: string): HTMLElement {
  const root = el('div', {
    className: `error-card${card.queuedUntil ? ' queued' : ''}`,
    attrs: { role: 'alert', 'data-kind': card.kind ?? 'other' },
  });
  const icon = card.queuedUntil ? 'watch' : card.outcomeUnknown ? 'question' : 'error';
  root.append(
    el(
      'div',
      { className: 'error-title' },
      el('span', { className: `codicon codicon-${icon}`, attrs: { 'aria-hidden': 'true' } }),
      ` ${card.title}`,
    ),
  );
  root.append(el('div', { className: 'error-detail', text: card.detail }));
  if (card.queuedUntil)
    root.append(
      el('div', { className: 'countdown', attrs: { 'data-until': String(card.queuedUntil), 'aria-live': 'off' } }),
    );
  const facts = [
    card.status !== undefined ? t('error.http', card.status) : '',
    card.requestId ? t('error.requestId', card.requestId) : '',
  ].filter(Boolean);
  if (facts.length) root.append(el('div', { className: 'error-facts', text: facts.join(' · ') }));
  if (card.actions.length) {
    const actions = el('div', { className: 'error-actions' });
    for (const action of card.actions)
      actions.append(
        textButton(
          t(ACTION_LABELS[action]),
          'errorAction',
          { 'data-error-action': action, 'data-message-id': messageId },
          action !== card.actions[0],
        ),
      );
    root.append(actions);
  }
  updateCountdowns(root);
  return root;
}

/** Refreshes every countdown under `root` ("sending again in 12 s"). */
export function updateCountdowns(root: ParentNode, now = Date.now()): boolean {
  let any = false;
  for (const node of Array.from(root.querySelectorAll<HTMLElement>('.countdown'))) {
    const seconds = Math.max(0, Math.ceil((Number(node.dataset.until) - now) / 1000));
    node.textContent = seconds > 0 ? t('error.queued', seconds) : t('error.sendingAgain');
    any = true;
  }
  return any;
}
