// The composer's line of what the agent runs without asking now (Agent and Plan mode): the user's own
// modelGateway.agent.autoApproveWrites and commandAllowList as the host summarised them. Display only: every
// approval is still decided on the host by the policy; a click opens those two settings (the host does it).
import type { ApprovalSummary, ChatMode } from '../../shared/protocol/chat';
import { codicon, el } from '../common/dom';
import { t } from '../common/strings';
import { post } from './api';

/** "Auto-approved: edits · 2 commands", or "Everything asks" when neither setting grants anything. */
export function approvalText(a: ApprovalSummary): string {
  const parts: string[] = [];
  if (a.writes) parts.push(t('chat.approvalsEdits'));
  if (a.commands === 1) parts.push(t('chat.approvalsOneCommand'));
  else if (a.commands > 1) parts.push(t('chat.approvalsCommands', a.commands));
  return parts.length ? t('chat.approvalsAuto', parts.join(' · ')) : t('chat.approvalsNone');
}

export class ApprovalLine {
  readonly element: HTMLButtonElement;
  private readonly label: HTMLElement;
  private summary: ApprovalSummary | undefined;
  private mode: ChatMode = 'ask';

  constructor() {
    this.label = el('span', { className: 'approvals-label' });
    this.element = el(
      'button',
      { className: 'approvals', title: t('chat.approvalsOpen'), attrs: { type: 'button' } },
      codicon('shield'),
      this.label,
    );
    this.element.addEventListener('click', () => post({ type: 'openApprovalSettings' }));
    this.render();
  }

  set(summary: ApprovalSummary | undefined): void {
    this.summary = summary;
    this.render();
  }

  setMode(mode: ChatMode): void {
    this.mode = mode;
    this.render();
  }

  private render(): void {
    const shown = this.summary !== undefined && this.mode !== 'ask';
    this.element.hidden = !shown;
    if (!this.summary) return;
    const text = approvalText(this.summary);
    this.label.textContent = text;
    this.element.setAttribute('aria-label', t('chat.approvalsLabel', text, t('chat.approvalsOpen')));
    this.element.dataset.auto = String(this.summary.writes || this.summary.commands > 0);
  }
}
