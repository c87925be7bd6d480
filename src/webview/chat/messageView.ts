// One message of the list. Finished messages render their markdown lazily (when scrolled near);
// the streaming answer renders incrementally through StreamingBody.
import type { ChatMessage, ErrorCard } from '../../shared/protocol/chat';
import { AgentSection, condensedCard, costText } from './agentView';
import { attachmentChips } from './chips';
import { usageText } from './tokens';
import { el, iconButton, textButton } from '../common/dom';
import { t, type WebviewStringKey } from '../common/strings';
import { renderErrorCard } from './errorCardView';
import { renderMarkdown } from './markdown';
import { StreamingBody } from './streamingBody';

const STOP_LABELS: Record<string, WebviewStringKey> = {
  end_turn: 'chat.stop.end_turn',
  max_tokens: 'chat.stop.max_tokens',
  stop_sequence: 'chat.stop.stop_sequence',
  tool_use: 'chat.stop.tool_use',
  pause_turn: 'chat.stop.pause_turn',
  refusal: 'chat.stop.refusal',
  model_context_window_exceeded: 'chat.stop.model_context_window_exceeded',
};

export class MessageView {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly thinking: HTMLDetailsElement;
  private readonly thinkingText: Text;
  private readonly footer: HTMLElement;
  private readonly errorSlot: HTMLElement;
  /** "Using AGENTS.md": the project instruction files the answer was sent with (each opens the file), and notes. */
  private readonly instructions: HTMLElement;
  /** The summary card of turns condensed with this Ask answer or by the Condense action after it. */
  private readonly condensedSlot: HTMLElement;
  /** "Condensing earlier turns…" while the summary request runs (a Condense click, or before an answer). */
  private readonly condensing: HTMLElement;
  private streaming: StreamingBody | undefined;
  private rendered = false;
  /** Tool cards, cost and end of an Agent-mode answer. */
  agent: AgentSection | undefined;
  /** While an agent answer streams: where its streaming text starts, and the cards' group just above it. */
  private streamFrom = 0;
  private streamGroup: HTMLElement | undefined;

  constructor(
    public message: ChatMessage,
    private readonly announce: (text: string) => void,
  ) {
    const isUser = message.role === 'user';
    this.element = el('div', {
      className: `message ${message.role}`,
      attrs: {
        'data-id': message.id,
        role: 'article',
        'aria-label': isUser ? t('chat.yourMessage') : t('chat.answer'),
      },
    });
    this.thinkingText = document.createTextNode('');
    this.thinking = el(
      'details',
      { className: 'thinking' },
      el('summary', { text: t('chat.thinking') }),
      el('div', { className: 'thinking-text' }, this.thinkingText),
    );
    this.body = el('div', { className: 'body' });
    this.footer = el('div', { className: 'footer' });
    this.errorSlot = el('div', { className: 'error-slot' });
    this.instructions = el('div', { className: 'instructions-used' });
    const who = el('div', { className: 'who', text: isUser ? t('chat.you') : t('chat.assistant') });
    this.condensedSlot = el('div', { className: 'answer-condensed' });
    this.condensing = el('div', { className: 'condensing', attrs: { role: 'status' } });
    this.condensing.hidden = true;
    this.element.append(
      who,
      this.instructions,
      this.thinking,
      this.body,
      this.errorSlot,
      this.footer,
      this.condensing,
      this.condensedSlot,
    );
    this.syncAgent();
    this.setCondensed(message.condensed);
    if (message.status === 'streaming') this.startStreaming();
    else this.estimateHeight();
    this.refreshMeta();
  }

  get isStreaming(): boolean {
    return this.streaming !== undefined;
  }

  /** Renders the body if it was waiting for visibility. */
  ensureRendered(): void {
    if (this.rendered || this.streaming) return;
    this.rendered = true;
    this.element.style.removeProperty('min-height');
    const m = this.message;
    if (m.role === 'user') {
      this.body.replaceChildren(
        ...attachmentChips(m.attachments ?? []),
        el('div', { className: 'user-text', text: m.text }),
      );
    } else {
      if (!this.agent?.layout(this.body, m.text)) this.body.replaceChildren(renderMarkdown(m.text));
    }
    this.thinkingText.data = m.thinking ?? '';
  }

  /** Shows or hides the line that says older turns are being condensed; returns the element shown. */
  setCondensing(running: boolean): HTMLElement | undefined {
    this.condensing.hidden = !running;
    this.condensing.replaceChildren(
      ...(running
        ? [
            el('span', {
              className: 'codicon codicon-loading codicon-modifier-spin',
              attrs: { 'aria-hidden': 'true' },
            }),
            ` ${t('chat.condensing')}`,
          ]
        : []),
    );
    return running ? this.condensing : undefined;
  }

  /** The summary card of this answer, where it is shown (its own slot, or the agent section's). */
  condensedCardElement(): HTMLElement | null {
    return this.element.querySelector<HTMLElement>('.condensed-card');
  }

  /** Marks this message as condensed (its turn is sent as the summary now), or not. */
  markCondensed(condensed: boolean): void {
    this.element.classList.toggle('condensed', condensed);
    if (condensed) this.element.dataset.condensedLabel = t('chat.condensedMark');
    else delete this.element.dataset.condensedLabel;
  }

  /** Shows the summary of turns condensed with this answer (an agent answer shows it in its own section). */
  setCondensed(condensed: ChatMessage['condensed']): void {
    if (this.agent && condensed) return this.agent.setCondensed(condensed);
    this.message.condensed = condensed;
    this.condensedSlot.replaceChildren(condensed && !this.message.agent ? condensedCard(condensed) : '');
  }

  /** Replaces the message (status change, final data) and re-renders it fully. */
  update(message: ChatMessage): void {
    this.message = message;
    this.syncAgent();
    this.setCondensed(message.condensed);
    if (message.status === 'streaming') {
      this.startStreaming();
    } else {
      this.streaming = undefined;
      this.rendered = false;
      this.ensureRendered();
    }
    this.refreshMeta();
  }

  appendDelta(text: string | undefined, thinking: string | undefined): void {
    if (thinking) {
      this.message.thinking = (this.message.thinking ?? '') + thinking;
      this.thinkingText.appendData(thinking);
      this.thinking.hidden = false;
    }
    if (text) {
      this.message.text += text;
      this.streaming?.append(text);
    }
  }

  /** One animation frame of streaming. */
  frame(): void {
    this.streaming?.render();
  }

  finish(patch: Partial<ChatMessage>): void {
    Object.assign(this.message, patch);
    this.streaming = undefined;
    this.rendered = false;
    this.ensureRendered();
    this.refreshMeta();
  }

  setError(card: ErrorCard | null): void {
    if (card) this.message.error = card;
    else delete this.message.error;
    this.errorSlot.replaceChildren(card ? renderErrorCard(card, this.message.id) : '');
  }

  /** Footer: model, usage, stop reason, status badges, and the actions that apply. */
  refreshMeta(isLast = this.element.nextElementSibling === null): void {
    const m = this.message;
    this.element.dataset.status = m.status;
    this.thinking.hidden = !m.thinking;
    this.renderInstructions();
    this.errorSlot.replaceChildren(m.error ? renderErrorCard(m.error, m.id) : '');
    const parts: Array<Node | string> = [];
    if (m.status === 'stopped') parts.push(badge(t('chat.stopped'), 'stopped'));
    if (m.status === 'cutOff') parts.push(badge(t('chat.cutOff'), 'cutoff'));
    if (m.role === 'assistant' && m.status !== 'streaming' && m.status !== 'queued') parts.push(...assistantMeta(m));
    const actions = el('span', { className: 'actions' });
    if (m.status !== 'streaming' && m.status !== 'queued') {
      actions.append(iconButton('copy', t('chat.copyMessage'), 'copyMessage', { 'data-message-id': m.id }));
      if (m.role === 'user')
        actions.append(iconButton('edit', t('chat.editAndResend'), 'edit', { 'data-message-id': m.id }));
      else actions.append(iconButton('refresh', t('chat.regenerate'), 'regenerate', { 'data-message-id': m.id }));
    }
    const canContinue =
      m.role === 'assistant' &&
      !m.agent &&
      isLast &&
      m.text.trim() !== '' &&
      (m.stopReason === 'max_tokens' || m.status === 'stopped' || m.status === 'cutOff');
    if (canContinue) actions.append(textButton(t('chat.continue'), 'continue', { 'data-message-id': m.id }));
    this.footer.replaceChildren(...parts, actions);
  }

  private renderInstructions(): void {
    const used = this.message.instructions;
    const files = used?.files ?? [];
    const notes = used?.notes ?? [];
    this.instructions.hidden = files.length === 0 && notes.length === 0;
    if (this.instructions.hidden) return this.instructions.replaceChildren();
    const line = el(
      'div',
      { className: 'instructions-files' },
      el('span', { className: 'codicon codicon-book', attrs: { 'aria-hidden': 'true' } }),
      ` ${t('chat.instructionsUsing')} `,
    );
    files.forEach((f, i) => {
      if (i > 0) line.append(', ');
      line.append(
        el('button', {
          className: 'link-button',
          text: f.name,
          attrs: {
            type: 'button',
            'data-action': 'openInstructions',
            'data-message-id': this.message.id,
            'data-index': String(i),
            title: t('chat.instructionsOpen', f.name),
          },
        }),
      );
      if (f.truncated) line.append(` ${t('chat.instructionsShortened')}`);
      if (f.omitted) line.append(` ${t('chat.instructionsOmitted')}`);
    });
    this.instructions.replaceChildren(
      ...(files.length > 0 ? [line] : []),
      ...notes.map((n) => el('div', { className: 'instructions-note', text: n })),
    );
  }

  /** Creates or refreshes the agent section from the message's agent record (placed after the text). */
  private syncAgent(): void {
    const info = this.message.agent;
    if (!info) {
      this.agent?.element.remove();
      this.agent = undefined;
      return;
    }
    this.element.classList.add('agent-turn');
    if (this.agent) this.agent.reset(info);
    else {
      this.agent = new AgentSection(info, this.message.id, this.announce, (node, at) => this.placeCard(node, at));
      this.body.after(this.agent.element);
    }
  }

  /** A tool card that stands between texts arrived: it goes at its place (text, card, text …). */
  private placeCard(node: HTMLElement, at: number): void {
    if (this.streaming && at === this.message.text.length && at >= this.streamFrom) {
      // The usual case: right after the text streamed so far. That text stays as rendered; the next streams below.
      this.streaming.render();
      let group = this.streamGroup;
      if (!group || at !== this.streamFrom) {
        group = el('div', { className: 'agent-tools inline' });
        const segment = el('div', { className: 'segment' });
        this.body.append(group, segment);
        this.streaming = new StreamingBody(segment, (text) => this.announce(text));
        this.streamGroup = group;
        this.streamFrom = at;
      }
      group.append(node);
    } else if (this.streaming) {
      this.startStreaming();
    } else if (this.rendered) {
      this.rendered = false;
      this.ensureRendered();
    }
  }

  private startStreaming(): void {
    this.rendered = true;
    // In an agent answer the text after the last card streams below it; the text before is already laid out.
    const tail = this.agent?.layoutStreaming(this.body, this.message.text);
    this.streamFrom = tail?.from ?? 0;
    this.streamGroup = tail?.group;
    this.streaming = new StreamingBody(tail?.element ?? this.body, (text) => this.announce(text));
    this.streaming.append(tail ? this.message.text.slice(tail.from) : this.message.text);
    this.thinkingText.data = this.message.thinking ?? '';
    this.streaming.render();
  }

  /** Keeps the scroll height roughly right before a lazy message is rendered. */
  private estimateHeight(): void {
    const lines = Math.min(200, Math.ceil(this.message.text.length / 60) + 1);
    this.element.style.minHeight = `${lines * 18 + 24}px`;
  }
}

function badge(text: string, kind: string): HTMLElement {
  return el('span', { className: `badge ${kind}`, text });
}

function assistantMeta(m: ChatMessage): Array<Node | string> {
  const parts: string[] = [];
  if (m.model) parts.push(m.model);
  if (m.usage?.notReported) parts.push(t('chat.usageNotReported'));
  // An agent turn's tokens are in its "Turn tokens" line (with each step's): said once.
  else if (m.usage && !m.agent) parts.push(usageText(m.usage));
  if (m.usage?.cost) parts.push(costText(m.usage.cost));
  // No cost where tokens were counted: say why, so a missing price does not read as "free".
  else if (m.agent && m.model && !m.usage?.notReported && (m.agent.tokens || m.usage))
    parts.push(t('agent.noPrice', m.model));
  if (m.stopReason) parts.push(m.stopReason in STOP_LABELS ? t(STOP_LABELS[m.stopReason]) : m.stopReason);
  return parts.length ? [el('span', { className: 'meta', text: parts.join(' · ') })] : [];
}
