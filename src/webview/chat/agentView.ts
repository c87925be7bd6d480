// Agent mode in the chat webview: tool cards with inline approvals, the turn's cost, end and Restore (the pending
// changes list is changesView.ts). Everything a tool or model produced (summaries, results, progress, paths, commands)
// is untrusted and goes into the DOM as text only (textContent), never as HTML; no link is ever made of it.
import type {
  AgentCondensed,
  AgentStepUsage,
  AgentSubagentCard,
  TokenCounts,
  AgentToolCard,
  AgentTurnEnd,
  AgentTurnInfo,
} from '../../shared/protocol/chat';
import { CONTINUABLE_END_REASONS } from '../../shared/protocol/chat';
import { renderMarkdown } from './markdown';
import { formatAmount, type ChatCost } from '../../shared/money';
import { tokensText } from './tokens';
import { el, textButton } from '../common/dom';
import { sentenceGap, t, type WebviewStringKey } from '../common/strings';
import { showInvisible } from '../../shared/visibleText';
import { addTokens } from '../../shared/tokens';

const STATUS_LABELS: Record<AgentToolCard['status'], WebviewStringKey> = {
  proposed: 'agent.status.proposed',
  asking: 'agent.status.asking',
  running: 'agent.status.running',
  done: 'agent.status.done',
  error: 'agent.status.error',
  refused: 'agent.status.refused',
  rejected: 'agent.status.rejected',
};

const STATUS_ICONS: Record<AgentToolCard['status'], string> = {
  proposed: 'circle-outline',
  asking: 'question',
  running: 'loading',
  done: 'check',
  error: 'error',
  refused: 'circle-slash',
  rejected: 'discard',
};

const END_LABELS: Record<string, WebviewStringKey> = {
  end_turn: 'agent.end.finished',
  stop_sequence: 'agent.end.finished',
  max_tokens: 'agent.end.max_tokens',
  refusal: 'agent.end.refusal',
  step_budget: 'agent.end.step_budget',
  token_budget: 'agent.end.token_budget',
  daily_budget: 'agent.end.daily_budget',
  context_full: 'agent.end.context_full',
  stopped: 'agent.end.stopped',
  outcome_unknown: 'agent.end.outcome_unknown',
  rate_limited: 'agent.end.rate_limited',
  error: 'agent.end.error',
};

/** The end reason in words (an unknown reason as the host named it). */
const endLabel = (reason: string): string => (reason in END_LABELS ? t(END_LABELS[reason]) : reason);

/** A cost as the chat shows it: the amount and where it comes from ("billed", "gateway price", "your prices"). */
export function costText(cost: ChatCost): string {
  const amount = formatAmount(cost.amount);
  const text =
    cost.source === 'billed' && !cost.estimate
      ? t('chat.cost.billed', amount)
      : cost.source === 'gateway'
        ? t('chat.cost.gateway', amount)
        : t('chat.cost.user', amount);
  return cost.partial ? `${text} ${t('chat.cost.partial')}` : text;
}
/** The summary of condensed turns: collapsed, its tokens (and cost, where a price is known) in the header. */
export function condensedCard(c: AgentCondensed): HTMLElement {
  const figures = c.cost ? `${tokensText(c.tokens)} · ${costText(c.cost)}` : tokensText(c.tokens);
  return el(
    'details',
    { className: 'condensed-card' },
    el('summary', { text: t('agent.condensed', figures) }),
    el('div', { className: 'condensed-summary', text: c.summary }),
  );
}

/** The agent part of one answer (below its text). Cards are updated one at a time, never the whole turn. */
export class AgentSection {
  readonly element: HTMLElement;
  private readonly tools: HTMLElement;
  private readonly notes: HTMLElement;
  /** The summary of earlier turns condensed before this turn (collapsible, with its cost). */
  private readonly condensedSlot: HTMLElement;
  private readonly wait: HTMLElement;
  private readonly cost: HTMLElement;
  private readonly end: HTMLElement;
  private readonly cards = new Map<string, HTMLElement>();
  /** Sub-agent cards by id (each sits inside its start_subagent call's card; its own calls inside it). */
  private readonly subagentCards = new Map<string, HTMLDetailsElement>();
  private info: AgentTurnInfo;

  /** `placeCard`: a card that stands between texts arrived (its node and place); the message view puts it there. */
  constructor(
    info: AgentTurnInfo,
    private readonly messageId: string,
    private readonly announce: (text: string) => void,
    private readonly placeCard?: (node: HTMLElement, at: number) => void,
  ) {
    this.info = info;
    this.tools = el('div', { className: 'agent-tools' });
    this.notes = el('div', { className: 'agent-notes' });
    this.condensedSlot = el('div', { className: 'agent-condensed' });
    this.wait = el('div', { className: 'agent-wait' });
    this.cost = el('div', { className: 'agent-cost' });
    this.end = el('div', { className: 'agent-end' });
    this.element = el(
      'div',
      { className: 'agent', attrs: { 'data-turn': info.turnId } },
      this.tools,
      this.notes,
      this.condensedSlot,
      this.wait,
      this.end,
      this.cost,
    );
    this.reset(info);
  }

  reset(info: AgentTurnInfo): void {
    this.info = info;
    this.cards.clear();
    this.subagentCards.clear();
    this.tools.replaceChildren();
    // The agent's own calls, then the sub-agent cards inside them, then the sub-agents' calls inside those.
    for (const card of info.tools) if (card.subagent === undefined) this.upsertTool(card, false);
    for (const sub of info.subagents ?? []) this.upsertSubagent(sub, false);
    for (const card of info.tools) if (card.subagent !== undefined) this.upsertTool(card, false);
    this.notes.replaceChildren(...(info.notes ?? []).map((n) => noteLine(n)));
    this.renderCondensed();
    this.setWait(info.waitUntil ?? null);
    this.renderCost();
    this.renderEnd();
  }

  upsertTool(card: AgentToolCard, live = true): void {
    const index = this.info.tools.findIndex((c) => c.id === card.id);
    if (live) {
      if (index >= 0) this.info.tools[index] = card;
      else this.info.tools.push(card);
    }
    const existing = this.cards.get(card.id);
    const node = renderCard(card, existing);
    if (!existing && card.subagent !== undefined) {
      this.cards.set(card.id, node);
      const sub = this.subagentCards.get(card.subagent);
      (sub?.querySelector<HTMLElement>(':scope > .subagent-tools') ?? this.tools).append(node);
    } else if (!existing) {
      this.cards.set(card.id, node);
      // A card that knows where it stands goes between the answer's texts (placed by layout()); older ones below.
      if (card.textAt === undefined) this.tools.append(node);
      else if (live) this.placeCard?.(node, card.textAt);
    }
    if (live && card.status === 'asking' && card.ask?.kind === 'approve') {
      this.announce(t('agent.approvalNeeded', card.name, card.ask.command ?? card.summary));
    }
  }

  /** Adds or updates a sub-agent card (its open state survives updates). */
  upsertSubagent(card: AgentSubagentCard, live = true): void {
    if (live) {
      const list = (this.info.subagents ??= []);
      const i = list.findIndex((c) => c.id === card.id);
      if (i >= 0) list[i] = card;
      else list.push(card);
    }
    let node = this.subagentCards.get(card.id);
    if (!node) {
      node = el('details', { className: 'subagent-card' }) as HTMLDetailsElement;
      node.append(el('summary'), el('div', { className: 'subagent-tools' }), el('div', { className: 'subagent-end' }));
      this.subagentCards.set(card.id, node);
      (this.cards.get(card.id) ?? this.tools).append(node);
    }
    renderSubagent(card, node);
    if (live) this.renderCost();
  }

  setUsage(step: AgentStepUsage, turn: TokenCounts): void {
    const i = this.info.steps.findIndex((s) => s.step === step.step);
    if (i >= 0) this.info.steps[i] = step;
    else this.info.steps.push(step);
    this.info.tokens = turn;
    this.renderCost();
  }

  setWait(until: number | null): void {
    if (until === null) delete this.info.waitUntil;
    else this.info.waitUntil = until;
    // The shared countdown ticker (errorCardView.updateCountdowns) refreshes `.countdown` every second.
    this.wait.replaceChildren(
      until === null
        ? ''
        : el('div', { className: 'countdown', attrs: { 'data-until': String(until), role: 'status' } }),
    );
    this.wait.hidden = until === null;
  }

  setCondensed(condensed: AgentCondensed): void {
    this.info.condensed = condensed;
    this.renderCondensed();
  }

  private renderCondensed(): void {
    const c = this.info.condensed;
    this.condensedSlot.replaceChildren(c ? condensedCard(c) : '');
  }

  addNote(note: string): void {
    this.info.notes = [...(this.info.notes ?? []), note];
    this.notes.append(noteLine(note));
  }

  setEnd(end: AgentTurnEnd): void {
    this.info.end = end;
    this.setWait(null);
    this.renderEnd();
    this.announce(t('agent.endAnnounce', endLabel(end.reason), end.message));
  }

  setRestored(): void {
    this.info.restored = true;
    this.renderEnd();
  }

  /**
   * Lays out a finished answer as the model wrote it: text, the cards proposed after it, text … Returns false when
   * no card knows its place (the caller renders the text alone, cards stay below it).
   */
  layout(body: HTMLElement, text: string): boolean {
    const tail = this.place(body, text);
    if (!tail) return false;
    const rest = text.slice(tail.from);
    if (rest.trim()) tail.element.append(renderMarkdown(rest));
    return true;
  }

  /**
   * The same for a streaming answer: the element the text after the last card streams into, where that text starts,
   * and the cards' group just before it (a next card at the same place joins it).
   */
  layoutStreaming(
    body: HTMLElement,
    text: string,
  ): { element: HTMLElement; from: number; group: HTMLElement } | undefined {
    return this.place(body, text);
  }

  private place(
    body: HTMLElement,
    text: string,
  ): { element: HTMLElement; from: number; group: HTMLElement } | undefined {
    const groups = new Map<number, HTMLElement[]>();
    for (const card of this.info.tools) {
      const node = this.cards.get(card.id);
      if (card.textAt === undefined || !node) continue;
      const at = Math.min(Math.max(0, card.textAt), text.length);
      groups.set(at, [...(groups.get(at) ?? []), node]);
    }
    if (groups.size === 0) return undefined;
    const children: HTMLElement[] = [];
    let from = 0;
    let group = el('div');
    for (const [at, nodes] of [...groups].sort((a, b) => a[0] - b[0])) {
      const segment = text.slice(from, at);
      if (segment.trim()) children.push(el('div', { className: 'segment' }, renderMarkdown(segment)));
      group = el('div', { className: 'agent-tools inline' }, ...nodes);
      children.push(group);
      from = at;
    }
    const tail = el('div', { className: 'segment' });
    children.push(tail);
    body.replaceChildren(...children);
    return { element: tail, from, group };
  }

  private renderCost(): void {
    const turn = this.info.tokens;
    if (!turn) {
      this.cost.replaceChildren();
      return;
    }
    const steps = el(
      'ol',
      { className: 'agent-steps' },
      ...this.info.steps.map((s) =>
        el('li', {
          text: t('agent.step', s.step, tokensText(s.tokens)) + (s.cost ? ` · ${costText(s.cost)}` : ''),
        }),
      ),
    );
    const details = el('details', {}, el('summary', { text: t('agent.turnTokens', tokensText(turn)) }), steps);
    const subs = this.info.subagents ?? [];
    let subTokens: TokenCounts | undefined;
    for (const c of subs)
      subTokens = addTokens(subTokens ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, c.tokens);
    this.cost.replaceChildren(
      details,
      ...(subTokens
        ? [el('div', { className: 'subagents-tokens', text: t('agent.subagentsTokens', tokensText(subTokens)) })]
        : []),
    );
  }

  private renderEnd(): void {
    const end = this.info.end;
    if (!end) {
      this.end.replaceChildren();
      return;
    }
    const label = endLabel(end.reason);
    const line = el(
      'div',
      {
        className: `agent-end-line reason-${end.reason.replace(/[^a-z_]/g, '')}`,
        attrs: { 'data-reason': end.reason },
      },
      // The space belongs to the language: none after "。".
      el('strong', { text: t('agent.endLabel', label) + sentenceGap(t('agent.endLabel', label)) }),
      el('span', { text: end.message }),
    );
    const actions = el('div', { className: 'agent-actions' });
    // A turn cut by a budget goes on from where it stopped (Continue); sending step 1 again would stop at the same place.
    if (CONTINUABLE_END_REASONS.includes(end.reason))
      actions.append(
        textButton(t('chat.continue'), 'continue', {
          'data-message-id': this.messageId,
          title: t('agent.continueTitle'),
        }),
      );
    // Never automatic: the user decides whether the question goes out again (a new, billable turn).
    else if (end.retry)
      actions.append(
        textButton(t('agent.retry'), 'regenerate', { 'data-message-id': this.messageId, title: t('agent.retryTitle') }),
      );
    // A Plan-mode turn edits nothing (no checkpoint to restore); its plan can be acted on once it is complete.
    if (this.info.mode === 'plan') {
      if (end.reason === 'end_turn')
        actions.append(
          textButton(t('agent.actOnPlan'), 'actOnPlan', {
            'data-message-id': this.messageId,
            title: t('agent.actOnPlanTitle'),
          }),
        );
    } else if (this.info.restored)
      actions.append(el('span', { className: 'badge restored', text: t('agent.restored') }));
    else if (!end.unchanged)
      actions.append(textButton(t('agent.restore'), 'restoreCheckpoint', { 'data-message-id': this.messageId }));
    this.end.replaceChildren(line, actions);
  }
}

function noteLine(text: string): HTMLElement {
  return el(
    'div',
    { className: 'agent-note' },
    el('span', { className: 'codicon codicon-info', attrs: { 'aria-hidden': 'true' } }),
    ` ${text}`,
  );
}

const SUBAGENT_ICONS: Record<AgentSubagentCard['status'], string> = {
  running: 'loading',
  done: 'check',
  stopped: 'debug-stop',
  error: 'error',
};

/** A sub-agent card: its role, model, status, task and figures in the header; its calls, end and report inside. */
function renderSubagent(card: AgentSubagentCard, node: HTMLDetailsElement): void {
  node.dataset.subagentId = card.id;
  node.dataset.status = card.status;
  const cost = card.cost ? ` · ${costText(card.cost)}` : '';
  const estimated = card.notReported ? ` ${t('agent.subagent.estimated')}` : '';
  const summary = node.querySelector(':scope > summary')!;
  summary.replaceChildren(
    el('span', {
      className: `codicon codicon-${SUBAGENT_ICONS[card.status]}${card.status === 'running' ? ' codicon-modifier-spin' : ''}`,
      attrs: { 'aria-hidden': 'true' },
    }),
    el('span', {
      className: 'subagent-title',
      text: ` ${t('agent.subagent', t(card.role === 'edit' ? 'agent.subagent.edit' : 'agent.subagent.explore'), card.model)} · `,
    }),
    el('span', { className: 'subagent-status', text: t(`agent.subagent.${card.status}`) }),
    el('div', { className: 'subagent-task', text: showInvisible(card.task.replace(/\s+/g, ' ').slice(0, 300)) }),
    ...(card.agent
      ? [el('div', { className: 'subagent-agent', text: t('agent.subagent.using', card.agent.name, card.agent.path) })]
      : []),
    ...(card.notes ?? []).map((n) =>
      el('div', { className: 'subagent-note', text: t('agent.subagent.notFollowed', n) }),
    ),
    el('div', {
      className: 'subagent-figures',
      text: t('agent.subagent.figures', card.steps, card.toolCalls, tokensText(card.tokens)) + cost + estimated,
    }),
    // Its 429 wait, refreshed every second by the shared countdown ticker (errorCardView.updateCountdowns).
    ...(card.waitUntil !== undefined && card.status === 'running'
      ? [el('div', { className: 'countdown subagent-wait', attrs: { 'data-until': String(card.waitUntil) } })]
      : []),
  );
  const end = node.querySelector(':scope > .subagent-end')!;
  const wasOpen = end.querySelector<HTMLDetailsElement>('details')?.open ?? false;
  const parts: HTMLElement[] = [];
  if (card.modelRefused)
    parts.push(el('div', { className: 'subagent-refused', text: t('agent.subagent.modelRefused', card.model) }));
  if (card.message) parts.push(el('div', { className: 'subagent-message', text: card.message }));
  if (card.result !== undefined) {
    const report = el(
      'details',
      { className: 'tool-result' },
      el('summary', { text: t('agent.subagent.report') }),
      el('pre', { text: card.result }),
    );
    report.open = wasOpen;
    parts.push(report);
  }
  end.replaceChildren(...parts);
}

/** Renders a card into `node` (kept: its identity and the open state of its result survive updates). */
function renderCard(card: AgentToolCard, node?: HTMLElement): HTMLElement {
  const root = node ?? el('div', { className: 'tool-card', attrs: { role: 'group' } });
  const wasOpen = root.querySelector<HTMLDetailsElement>('details.tool-result')?.open ?? false;
  root.dataset.toolId = card.id;
  root.dataset.status = card.status;
  root.setAttribute('aria-label', t('agent.toolLabel', card.name, t(STATUS_LABELS[card.status])));
  const head = el(
    'div',
    { className: 'tool-head' },
    el('span', {
      className: `codicon codicon-${STATUS_ICONS[card.status]}${card.status === 'running' ? ' codicon-modifier-spin' : ''}`,
      attrs: { 'aria-hidden': 'true' },
    }),
    el('span', { className: 'tool-name', text: card.name }),
    // The summary arrives one line, with invisible characters escaped and a visible … when cut; the tooltip has it whole.
    el('span', {
      className: 'tool-target',
      text: showInvisible(card.summary),
      attrs: { title: showInvisible(card.fullSummary ?? card.summary) },
    }),
    el('span', { className: 'tool-status', text: t(STATUS_LABELS[card.status]) }),
  );
  const parts: HTMLElement[] = [head];
  if (card.status === 'asking' && card.ask) parts.push(renderAsk(card));
  if (card.note) parts.push(el('div', { className: 'tool-note', text: card.note }));
  if (card.progress && card.status === 'running')
    parts.push(
      el('pre', { className: 'tool-progress', text: card.progress, attrs: { 'aria-label': t('agent.outputSoFar') } }),
    );
  if (card.result !== undefined) {
    const details = el(
      'details',
      { className: 'tool-result' },
      el('summary', { text: card.status === 'error' ? t('agent.error') : t('agent.result') }),
      el('pre', { text: card.result + (card.resultTruncated ? `\n${t('agent.previewShortened')}` : '') }),
    );
    details.open = wasOpen;
    parts.push(details);
  }
  // A sub-agent card inside this call's card is kept (its open state and its calls).
  const sub = root.querySelector<HTMLElement>(':scope > .subagent-card');
  root.replaceChildren(...parts, ...(sub ? [sub] : []));
  return root;
}

/** The approval prompt: the exact command or paths and the policy's reason, then Approve / Deny. */
function renderAsk(card: AgentToolCard): HTMLElement {
  const ask = card.ask!;
  const box = el('div', {
    className: 'tool-ask',
    attrs: { role: 'group', 'aria-label': t('agent.approvalFor', card.name) },
  });
  if (ask.command !== undefined)
    box.append(
      el('div', { className: 'ask-label', text: t('agent.command') }),
      el('pre', { className: 'ask-command', text: showInvisible(ask.command) }),
    );
  if (ask.paths && ask.paths.length > 0)
    box.append(
      el('div', { className: 'ask-label', text: ask.paths.length === 1 ? t('agent.path') : t('agent.paths') }),
      el('pre', {
        className: 'ask-paths',
        text: ask.paths.map(showInvisible).join('\n'),
        attrs: { title: (ask.fullPaths ?? ask.paths).join('\n') },
      }),
    );
  box.append(el('div', { className: 'ask-reason', text: t('agent.asksBecause', ask.reason) }));
  if (ask.kind === 'approve') {
    box.append(
      el(
        'div',
        { className: 'ask-actions' },
        textButton(t('agent.approve'), 'approve', { 'data-tool-id': card.id }, false),
        textButton(t('agent.deny'), 'deny', { 'data-tool-id': card.id }),
      ),
    );
  } else {
    box.append(el('div', { className: 'ask-review', text: t('agent.reviewDiff') }));
  }
  return box;
}
