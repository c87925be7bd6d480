// The list of conversations: search (by title here; the host searches the text too), select, delete.
import type { ConversationSummary } from '../../shared/protocol/chat';
import { post } from './api';
import { el, iconButton } from './dom';

export class ConversationList {
  readonly element: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly list: HTMLElement;
  private all: ConversationSummary[] = [];
  private activeId = '';
  private lastSearch = '';

  constructor() {
    this.search = el('input', { className: 'search', attrs: { type: 'search', 'aria-label': 'Search conversations', placeholder: 'Search conversations' } });
    this.list = el('ul', { className: 'conversation-list', attrs: { 'aria-label': 'Conversations' } });
    this.element = el('div', { className: 'conversations', attrs: { role: 'region', 'aria-label': 'Conversations' } }, this.search, this.list);
    this.element.hidden = true;
    this.search.addEventListener('input', () => {
      this.lastSearch = post({ type: 'searchConversations', query: this.search.value });
    });
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
    else this.lastSearch = post({ type: 'searchConversations', query: this.search.value });
  }

  showResults(requestId: string, conversations: ConversationSummary[]): void {
    if (requestId === this.lastSearch) this.render(conversations);
  }

  private render(conversations: ConversationSummary[]): void {
    if (conversations.length === 0) {
      this.list.replaceChildren(el('li', { className: 'none', text: this.all.length ? 'No conversation matches.' : 'No conversations yet.' }));
      return;
    }
    this.list.replaceChildren(...conversations.map((c) => {
      const open = el('button', { className: 'conversation-open', text: c.title, attrs: { type: 'button', 'data-action': 'selectConversation', 'data-conversation-id': c.id, title: `${c.title} (${c.messageCount} messages, ${new Date(c.updatedAt).toLocaleString()})` } });
      if (c.id === this.activeId) open.setAttribute('aria-current', 'true');
      const mode = c.mode === 'agent' ? [el('span', { className: 'badge mode-badge', text: 'Agent', attrs: { title: 'Agent mode' } })] : [];
      return el('li', {}, open, ...mode, iconButton('trash', `Delete "${c.title}"`, 'deleteConversation', { 'data-conversation-id': c.id }));
    }));
  }
}
