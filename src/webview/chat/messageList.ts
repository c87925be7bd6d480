// The message list: lazy rendering of finished messages, one rAF loop for streaming deltas,
// stick-to-bottom scrolling, and an aria-live region that reads finished blocks of the answer.
import type {
  AgentCondensed,
  AgentStepUsage,
  AgentSubagentCard,
  ChatUsage,
  TokenCounts,
  AgentToolCard,
  AgentTurnEnd,
  ChatMessage,
  ChatMessageStatus,
  ErrorCard,
} from '../../shared/protocol/chat';
import { button, el } from '../common/dom';
import { t, type WebviewStringKey } from '../common/strings';
import { updateCountdowns } from './errorCardView';
import { MessageView } from './messageView';

/** What is read out when an answer ends. */
const FINISHED: Partial<Record<ChatMessageStatus, WebviewStringKey>> = {
  complete: 'chat.answerComplete',
  stopped: 'chat.answerStopped',
  cutOff: 'chat.answerCutOff',
  error: 'chat.answerError',
};

export class MessageList {
  readonly element: HTMLElement;
  readonly live: HTMLElement;
  private views = new Map<string, MessageView>();
  private readonly dirty = new Set<MessageView>();
  private frameRequested = false;
  /** Follows new content; false only once the user scrolled up on purpose (until they come back or jump). */
  private stickToBottom = true;
  /** Where the last scroll event left the list: only a move up is the user's (content growing never moves it). */
  private lastScrollTop = 0;
  /** "Jump to latest", shown while the user reads further up and something below is newer. */
  readonly jump: HTMLButtonElement;
  /** Finished messages whose markdown is not rendered yet (rendered when scrolled near; no observer cost per frame). */
  private lazy: MessageView[] = [];
  private lazyCheck = false;
  private countdownTimer: number | undefined;

  constructor() {
    this.element = el('div', {
      className: 'messages',
      attrs: { role: 'log', 'aria-label': t('chat.conversation'), tabindex: '0' },
    });
    this.live = el('div', { className: 'sr-only', attrs: { 'aria-live': 'polite', 'aria-atomic': 'false' } });
    this.jump = button(t('chat.jumpToLatest'), () => this.jumpToLatest(), { icon: 'arrow-down', secondary: true });
    this.jump.classList.add('jump-latest');
    this.jump.hidden = true;
    this.element.addEventListener(
      'scroll',
      () => {
        const { scrollTop } = this.element;
        // A scroll event can arrive after content grew or the view shrank (the pending changes list, the composer):
        // that is not the user leaving the bottom. Only a move up is; reaching the bottom again follows again.
        if (this.nearBottom()) this.stickToBottom = true;
        else if (scrollTop < this.lastScrollTop) this.stickToBottom = false;
        this.lastScrollTop = scrollTop;
        this.updateJump();
        this.scheduleLazyRender();
      },
      { passive: true },
    );
    // The list's own height changes (a panel above the composer comes or goes): the bottom stays in view.
    new ResizeObserver(() => this.scrollToBottom()).observe(this.element);
  }

  private nearBottom(): boolean {
    const { scrollTop, scrollHeight, clientHeight } = this.element;
    return scrollHeight - scrollTop - clientHeight < 40;
  }

  /** Back to the newest content, and following it again. */
  jumpToLatest(): void {
    this.stickToBottom = true;
    this.scrollToBottom();
    this.updateJump();
  }

  private updateJump(): void {
    const hidden = this.stickToBottom || this.nearBottom();
    if (this.jump.hidden !== hidden) this.jump.hidden = hidden;
  }

  private scheduleLazyRender(): void {
    if (this.lazyCheck || this.lazy.length === 0) return;
    this.lazyCheck = true;
    requestAnimationFrame(() => {
      this.lazyCheck = false;
      this.renderNearViewport();
    });
  }

  /** Renders the lazy messages within 1500 px of the visible part of the list. */
  private renderNearViewport(): void {
    const top = this.element.scrollTop - 1500;
    const bottom = this.element.scrollTop + this.element.clientHeight + 1500;
    const offset = this.element.offsetTop;
    const near = this.lazy.filter((view) => {
      const y = view.element.offsetTop - offset;
      return y + view.element.offsetHeight >= top && y <= bottom;
    });
    if (near.length === 0) return;
    for (const view of near) view.ensureRendered();
    const rendered = new Set(near);
    this.lazy = this.lazy.filter((view) => !rendered.has(view));
    this.scrollToBottom();
    // Rendering changed heights: more messages may now be near.
    this.scheduleLazyRender();
  }

  view(id: string): MessageView | undefined {
    return this.views.get(id);
  }

  get messages(): ChatMessage[] {
    return [...this.views.values()].map((v) => v.message);
  }

  reset(messages: ChatMessage[]): void {
    this.lazy = [];
    this.views.clear();
    this.dirty.clear();
    const fragment = document.createDocumentFragment();
    for (const message of messages) fragment.append(this.createView(message).element);
    this.element.replaceChildren(fragment);
    if (messages.length === 0) this.element.append(emptyState());
    this.markCondensed();
    this.refreshLastActions();
    this.stickToBottom = true;
    this.scrollToBottom();
    this.renderNearViewport();
    this.tickCountdowns();
  }

  append(message: ChatMessage): void {
    this.element.querySelector('.empty')?.remove();
    const previousLast = this.element.lastElementChild;
    this.element.append(this.createView(message).element);
    if (previousLast) this.views.get((previousLast as HTMLElement).dataset.id ?? '')?.refreshMeta(false);
    this.scrollToBottom();
  }

  update(message: ChatMessage): void {
    const view = this.views.get(message.id);
    if (!view) return this.append(message);
    view.update(message);
    this.refreshLastActions();
    this.scrollToBottom();
  }

  truncateFrom(id: string): void {
    const view = this.views.get(id);
    if (!view) return;
    let node: Element | null = view.element;
    while (node) {
      const next: Element | null = node.nextElementSibling;
      this.views.delete((node as HTMLElement).dataset.id ?? '');
      node.remove();
      node = next;
    }
    this.refreshLastActions();
  }

  delta(id: string, text: string | undefined, thinking: string | undefined): void {
    const view = this.views.get(id);
    if (!view) return;
    view.appendDelta(text, thinking);
    this.dirty.add(view);
    this.requestFrame();
  }

  finish(id: string, patch: Partial<ChatMessage>): void {
    const view = this.views.get(id);
    if (!view) return;
    this.dirty.delete(view);
    view.finish(patch);
    this.refreshLastActions();
    this.scrollToBottom();
    const said = patch.status && FINISHED[patch.status];
    if (said) this.announce(t(said));
  }

  setError(id: string, card: ErrorCard | null): void {
    this.views.get(id)?.setError(card);
    this.tickCountdowns();
    this.scrollToBottom();
  }

  // ---- Agent mode: one card or line at a time ----

  agentTool(id: string, card: AgentToolCard): void {
    this.views.get(id)?.agent?.upsertTool(card);
    this.scrollToBottom();
  }

  agentSubagent(id: string, card: AgentSubagentCard, usage?: ChatUsage): void {
    const view = this.views.get(id);
    if (usage && view) view.message.usage = usage;
    view?.agent?.upsertSubagent(card);
    this.scrollToBottom();
  }

  agentUsage(id: string, step: AgentStepUsage, turn: TokenCounts): void {
    this.views.get(id)?.agent?.setUsage(step, turn);
    this.scrollToBottom();
  }

  agentWait(id: string, until: number | null): void {
    this.views.get(id)?.agent?.setWait(until);
    this.tickCountdowns();
    this.scrollToBottom();
  }

  /** A summary arrived: its card is scrolled into view, and the turns it covers are marked as condensed. */
  agentCondensed(id: string, condensed: AgentCondensed): void {
    const view = this.views.get(id);
    view?.setCondensed(condensed);
    this.markCondensed();
    view?.condensedCardElement()?.scrollIntoView({ block: 'nearest' });
  }

  /** Older turns are being condensed for this answer: a line says so, in view. */
  condensing(id: string, running: boolean): void {
    this.views.get(id)?.setCondensing(running)?.scrollIntoView({ block: 'nearest' });
  }

  /** The messages up to the latest summary's `through` are marked (they are sent as that summary now). */
  markCondensed(): void {
    const views = [...this.views.values()];
    let through: string | undefined;
    for (const v of views) through = (v.message.agent?.condensed ?? v.message.condensed)?.through ?? through;
    const end = through === undefined ? -1 : views.findIndex((v) => v.message.id === through);
    views.forEach((v, i) => v.markCondensed(i <= end));
  }

  agentNote(id: string, note: string): void {
    this.views.get(id)?.agent?.addNote(note);
    this.scrollToBottom();
  }

  agentEnd(id: string, end: AgentTurnEnd): void {
    this.views.get(id)?.agent?.setEnd(end);
    this.scrollToBottom();
  }

  agentRestored(id: string): void {
    this.views.get(id)?.agent?.setRestored();
  }

  announce(text: string): void {
    const line = el('p', { text: text.length > 2000 ? `${text.slice(0, 2000)}…` : text });
    this.live.append(line);
    while (this.live.childElementCount > 20) this.live.firstElementChild?.remove();
  }

  private createView(message: ChatMessage): MessageView {
    const view = new MessageView({ ...message }, (text) => this.announce(text));
    this.views.set(message.id, view);
    if (!view.isStreaming) {
      this.lazy.push(view);
      this.scheduleLazyRender();
    }
    return view;
  }

  private requestFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      for (const view of this.dirty) view.frame();
      this.dirty.clear();
      this.scrollToBottom();
    });
  }

  private refreshLastActions(): void {
    const last = this.element.lastElementChild as HTMLElement | null;
    const previous = last?.previousElementSibling as HTMLElement | null;
    if (previous) this.views.get(previous.dataset.id ?? '')?.refreshMeta(false);
    if (last) this.views.get(last.dataset.id ?? '')?.refreshMeta(true);
  }

  private scrollToBottom(): void {
    if (this.stickToBottom) {
      this.element.scrollTop = this.element.scrollHeight;
      this.lastScrollTop = this.element.scrollTop;
    } else this.updateJump();
  }

  /** Countdown of a queued (429) request, refreshed every second while one is shown. */
  private tickCountdowns(): void {
    if (this.countdownTimer !== undefined) return;
    if (!updateCountdowns(this.element)) return;
    this.countdownTimer = window.setTimeout(() => {
      this.countdownTimer = undefined;
      this.tickCountdowns();
    }, 1000);
  }
}

function emptyState(): HTMLElement {
  return el(
    'div',
    { className: 'empty' },
    el('p', { text: t('chat.emptyHint') }),
    el('p', { text: t('chat.emptyAttach') }),
  );
}
