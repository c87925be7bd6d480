// The list of conversations: search (by title here; the host searches the text too), select, delete.
import type { ConversationSummary } from '../../shared/protocol/chat';
import { el, iconButton } from '../common/dom';
import { t } from '../common/strings';
import { channel } from './api';

export class ConversationList {
  readonly element: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly list: HTMLElement;
  private all: ConversationSummary[] = [];
  private activeId = '';
  /** The latest search: older replies that arrive later are not shown. */
  private lastSearch = 0;

  constructor() {
    this.search = el('input', {
      className: 'search',
      attrs: { type: 'search', 'aria-label': t('chat.search'), placeholder: t('chat.search') },
    });
    this.list = el('ul', { className: 'conversation-list', attrs: { 'aria-label': t('chat.conversations') } });
    this.element = el(
      'div',
      { className: 'conversations', attrs: { role: 'region', 'aria-label': t('chat.conversations') } },
      this.search,
      this.list,
    );
    this.element.hidden = true;
    this.search.addEventListener('input', () => this.runSearch());
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  toggle(show = this.element.hidden): void {
    this.element.hidden = !show;
    if (show) this.search.focus();
  }

  set(conversations: ConversationSummary[], activeId: string): void {
    this.all = conversations;
    this.activeId = activeId;
    if (!this.search.value) this.render(conversations);
    else this.runSearch();
  }

  /** Asks the host (it searches the text too); a failed or timed-out search leaves the list as it is. */
  private runSearch(): void {
    const search = ++this.lastSearch;
    channel.request('searchConversations', { query: this.search.value }).then(
      (conversations) => {
        if (search === this.lastSearch) this.render(conversations);
      },
      () => undefined,
    );
  }

  private render(conversations: ConversationSummary[]): void {
    if (conversations.length === 0) {
      this.list.replaceChildren(
        el('li', { className: 'none', text: this.all.length ? t('chat.noMatch') : t('chat.noConversations') }),
      );
      return;
    }
    this.list.replaceChildren(
      ...conversations.map((c) => {
        const open = el('button', {
          className: 'conversation-open',
          text: c.title,
          attrs: {
            type: 'button',
            'data-action': 'selectConversation',
            'data-conversation-id': c.id,
            title: t('chat.conversationTitle', c.title, c.messageCount, new Date(c.updatedAt).toLocaleString()),
          },
        });
        if (c.id === this.activeId) open.setAttribute('aria-current', 'true');
        const mode =
          c.mode === 'agent' || c.mode === 'plan'
            ? [
                el('span', {
                  className: 'badge mode-badge',
                  text: c.mode === 'agent' ? t('chat.modeAgent') : t('chat.modePlan'),
                  attrs: { title: c.mode === 'agent' ? t('chat.agentModeBadge') : t('chat.planModeBadge') },
                }),
              ]
            : [];
        return el(
          'li',
          {},
          open,
          ...mode,
          iconButton('trash', t('chat.deleteConversation', c.title), 'deleteConversation', {
            'data-conversation-id': c.id,
          }),
        );
      }),
    );
  }
}
