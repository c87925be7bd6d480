// Inline error card: the advice, the facts support may see, and the actions of the spec's error table.
import type { ErrorActionId, ErrorCard } from '../../shared/protocol/chat';
import { el, textButton } from './dom';

const ACTION_LABELS: Record<ErrorActionId, string> = {
  replaceKey: 'Replace Key',
  checkConnection: 'Check Connection',
  openBaseUrlSetting: 'Fix Base URL',
  retry: 'Retry',
  refreshModels: 'Refresh Models',
  openConsoleAdvice: 'What to Check in the Console',
  showLog: 'Show Log',
};

export function renderErrorCard(card: ErrorCard, messageId: string): HTMLElement {
  const root = el('div', { className: `error-card${card.queuedUntil ? ' queued' : ''}`, attrs: { role: 'alert', 'data-kind': card.kind ?? 'other' } });
  const icon = card.queuedUntil ? 'watch' : card.outcomeUnknown ? 'question' : 'error';
  root.append(el('div', { className: 'error-title' }, el('span', { className: `codicon codicon-${icon}`, attrs: { 'aria-hidden': 'true' } }), ` ${card.title}`));
  root.append(el('div', { className: 'error-detail', text: card.detail }));
  if (card.queuedUntil) root.append(el('div', { className: 'countdown', attrs: { 'data-until': String(card.queuedUntil), 'aria-live': 'off' } }));
  const facts = [card.status !== undefined ? `HTTP ${card.status}` : '', card.requestId ? `request id ${card.requestId}` : ''].filter(Boolean);
  if (facts.length) root.append(el('div', { className: 'error-facts', text: facts.join(' · ') }));
  if (card.actions.length) {
    const actions = el('div', { className: 'error-actions' });
    for (const action of card.actions) actions.append(textButton(ACTION_LABELS[action], 'errorAction', { 'data-error-action': action, 'data-message-id': messageId }, action !== card.actions[0]));
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
    node.textContent = seconds > 0 ? `Queued: sending again automatically in ${seconds} s (Stop cancels).` : 'Sending again…';
    any = true;
  }
  return any;
}
