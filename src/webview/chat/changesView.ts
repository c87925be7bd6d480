// The pending changes of this window in the chat webview (above the composer). Paths come from the host and go into
// the DOM as text only.
import type { PendingChangeView } from '../../shared/protocol/chat';
import { el, iconButton, textButton } from '../common/dom';
import { t } from '../common/strings';

/** The pending changes of this window (above the composer): Open diff / Accept / Reject, and all at once. */
export class ChangesView {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly heading: HTMLElement;

  constructor() {
    this.heading = el('span', { className: 'changes-title' });
    this.list = el('ul', { className: 'changes-list' });
    const head = el(
      'div',
      { className: 'changes-head' },
      this.heading,
      textButton(t('changes.acceptAll'), 'changesAll', { 'data-change-action': 'accept' }, false),
      textButton(t('changes.rejectAll'), 'changesAll', { 'data-change-action': 'reject' }),
    );
    this.element = el(
      'section',
      { className: 'changes', attrs: { 'aria-label': t('changes.pending') } },
      head,
      this.list,
    );
    this.element.hidden = true;
  }

  set(changes: PendingChangeView[]): void {
    this.element.hidden = changes.length === 0;
    this.heading.textContent = t('changes.pendingCount', changes.length);
    this.list.replaceChildren(
      ...changes.map((c) => {
        const ids = { 'data-change-id': c.id };
        return el(
          'li',
          { className: 'change', attrs: { 'data-change-id': c.id } },
          el('span', {
            className: `codicon codicon-${c.kind === 'create' ? 'new-file' : c.kind === 'delete' ? 'trash' : 'diff'}`,
            attrs: { 'aria-hidden': 'true' },
          }),
          el('span', {
            className: 'change-path',
            text: c.path,
            attrs: { title: t(`changes.title.${c.kind}`, c.path) },
          }),
          // Proposed by a sub-agent (its calls' ids are scoped to it: src/agent/subagents.ts).
          ...(c.toolUseId?.includes('::')
            ? [el('span', { className: 'badge subagent', text: t('changes.bySubagent') })]
            : []),
          el('span', {
            className: 'change-stats',
            text: `+${c.added} −${c.removed}`,
            attrs: { 'aria-label': t('changes.stats', c.added, c.removed) },
          }),
          this.actions(c, ids),
          this.hunks(c),
        );
      }),
    );
  }

  /** The change's own buttons: Open diff, Accept, Reject. */
  private actions(c: PendingChangeView, ids: Record<string, string>): HTMLElement {
    return el(
      'span',
      { className: 'change-actions' },
      textButton(t('changes.openDiff'), 'change', {
        ...ids,
        'data-change-action': 'open',
        'aria-label': t('changes.openDiffOf', c.path),
      }),
      textButton(
        t('changes.accept'),
        'change',
        { ...ids, 'data-change-action': 'accept', 'aria-label': t(`changes.accept.${c.kind}`, c.path) },
        false,
      ),
      textButton(t('changes.reject'), 'change', {
        ...ids,
        'data-change-action': 'reject',
        'aria-label': t(`changes.reject.${c.kind}`, c.path),
      }),
    );
  }

  /** An edit of two parts or more: each part with its line, size, first line and its own Accept / Reject. */
  private hunks(c: PendingChangeView): HTMLElement | undefined {
    if (!c.hunks || c.hunks.length < 2) return undefined;
    return el(
      'ul',
      { className: 'change-hunks', attrs: { 'aria-label': t('changes.hunks', c.path) } },
      ...c.hunks.map((h) => {
        const attrs = { 'data-change-id': c.id, 'data-hunk': h.key };
        return el(
          'li',
          { className: 'change-hunk', attrs: { 'data-hunk': h.key } },
          el('span', { className: 'hunk-where', text: t('changes.hunk.at', h.line) }),
          el('span', {
            className: 'change-stats',
            text: `+${h.added} −${h.removed}`,
            attrs: { 'aria-label': t('changes.stats', h.added, h.removed) },
          }),
          el('code', { className: 'hunk-preview', text: h.preview }),
          el(
            'span',
            { className: 'change-actions' },
            // Icons (their words in the tooltip and the accessible name): the row stays one line in a narrow side bar.
            iconButton('check', t('changes.hunk.accept', h.line, c.path), 'changeHunk', {
              ...attrs,
              'data-change-action': 'accept',
            }),
            iconButton('discard', t('changes.hunk.reject', h.line, c.path), 'changeHunk', {
              ...attrs,
              'data-change-action': 'reject',
            }),
          ),
        );
      }),
    );
  }
}
