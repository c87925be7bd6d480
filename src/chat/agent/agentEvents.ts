// Maps the agent core's events onto an Agent-mode answer and the chat protocol (pure: no `vscode` import).
// The answer's `agent` record is the state the webview renders and the history stores; every change to it is
// posted as one small typed message (a card, a usage line, a wait), never as the whole conversation.
import type { Cost, CostTotal } from '../../gateway/pricing';
import { roundAmount, type ChatCost } from '../../shared/money';
import type { AgentEvent, ApprovalRequest, SubagentReport, ToolResult, TurnEndReason } from '../../agent';
import type {
  AgentCondensed,
  AgentSubagentCard,
  ChatUsage,
  AgentToolCard,
  AgentTurnEnd,
  AgentTurnInfo,
  ChatMessage,
  HostToWebviewMessage,
} from '../../shared/protocol/chat';
import { english, type Localizer } from '../../shared/l10n';
import { addTokens, ZERO_TOKENS, type TokenCounts } from '../../shared/tokens';
import { showInvisible } from '../../shared/visibleText';

/** Tool output shown in a card: the start of what the model got (the model gets it whole). */
export const RESULT_PREVIEW_CHARS = 4000;
/** Live command output in a card: the last characters. */
export const PROGRESS_CHARS = 2000;
/** Live output is posted at most this often per card (a chatty command must not flood the webview). */
export const PROGRESS_INTERVAL_MS = 100;

/** End reasons after which sending the question again is the user's call (never automatic). */
const RETRYABLE: ReadonlySet<TurnEndReason> = new Set<TurnEndReason>([
  'step_budget',
  'token_budget',
  'daily_budget',
  'outcome_unknown',
  'error',
  'rate_limited',
  'context_full',
  'stopped',
]);

export interface AgentEventSink {
  post(message: HostToWebviewMessage): void;
  /** Streamed text and thinking (the caller batches them per frame, as for Ask answers). */
  text(kind: 'text' | 'thinking', text: string): void;
  now(): number;
  /**
   * Writes the answer as it is now to the history: a sub-agent's start and end are kept at once, so a window reload in
   * the middle of the turn shows the finished ones with their report and cost and the others as stopped.
   */
  save?(): void;
}

/** Longest header line; a longer one is cut with a visible `…` and kept whole (up to FULL_SUMMARY_CHARS) for its tooltip. */
export const SUMMARY_CHARS = 300;
const FULL_SUMMARY_CHARS = 4000;

/**
 * A one-line target: the policy's summary, else the exact command or paths, else the tool's name. Line breaks become
 * ⏎, invisible characters `\uXXXX`, and a run of blanks says how long it is (a header cut after `npm test` must not
 * hide a second command behind spaces).
 */
export function targetSummary(
  name: string,
  target: { summary?: string; command?: string; paths?: string[] } | undefined,
): string {
  const flat = fullTarget(name, target);
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS - 1)}…` : flat;
}

/** The whole line when targetSummary cut it, else undefined. */
export function fullTargetSummary(
  name: string,
  target: { summary?: string; command?: string; paths?: string[] } | undefined,
): string | undefined {
  const flat = fullTarget(name, target);
  if (flat.length <= SUMMARY_CHARS) return undefined;
  return flat.length > FULL_SUMMARY_CHARS ? `${flat.slice(0, FULL_SUMMARY_CHARS - 1)}…` : flat;
}

function fullTarget(
  name: string,
  target: { summary?: string; command?: string; paths?: string[] } | undefined,
): string {
  const line =
    target?.command ??
    target?.summary ??
    (target?.paths && target.paths.length > 0 ? target.paths.join(', ') : undefined) ??
    name;
  return showInvisible(line.replace(/[\r\n]+/g, ' ⏎ ')).replace(/ {8,}/g, (run) => ` [${run.length} spaces] `);
}

/** The text of a tool result for the card: text blocks as they are, images as a marker, capped. */
export function resultPreview(content: ToolResult['content']): { text: string; truncated: boolean } {
  const text =
    typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
  return text.length > RESULT_PREVIEW_CHARS
    ? { text: text.slice(0, RESULT_PREVIEW_CHARS), truncated: true }
    : { text, truncated: false };
}

/** The write tools' details (src/agentHost/tools/edits.ts) carry the review outcome. */
function rejectedInReview(details: unknown): boolean {
  const outcome = (details as { outcome?: { status?: unknown } } | undefined)?.outcome;
  return typeof outcome === 'object' && outcome !== null && outcome.status === 'rejected';
}

export class AgentEventMapper {
  private readonly info: AgentTurnInfo;
  /** Cards whose latest progress is not posted yet, and the timer that posts it. */
  private readonly progressDue = new Set<string>();
  private progressTimer: ReturnType<typeof setTimeout> | undefined;
  /** The parent's own figures for the footer (the sub-agents' are added to them: see footer()). */
  private parentUsage: ChatUsage | undefined;

  constructor(
    private readonly conversationId: string,
    private readonly message: ChatMessage & { agent: AgentTurnInfo },
    private readonly sink: AgentEventSink,
    /** The words of cards and notes (the user reads them; the model gets the core's English). */
    private readonly l10n: Localizer = english,
    /** A path as the card shows it (workspace-relative); the full path stays on hover. */
    private readonly showPath: (path: string) => string = (p) => p,
  ) {
    this.info = message.agent;
  }

  /** The approval prompt of a call the policy sends to the user. Writes are asked by their diff review. */
  asking(request: ApprovalRequest): void {
    const card = this.card(request.toolUseId, request.toolName, 0, request.subagent?.id);
    card.status = 'asking';
    card.ask = {
      kind: request.approvalClass === 'write' ? 'review' : 'approve',
      reason: request.verdict.shown ?? request.verdict.reason,
      ...(request.target.command !== undefined ? { command: request.target.command } : {}),
      ...(request.target.paths && request.target.paths.length > 0
        ? { paths: request.target.paths.map(this.showPath), fullPaths: [...request.target.paths] }
        : {}),
    };
    this.postCard(card);
  }

  handle(event: AgentEvent): void {
    const l10n = this.l10n;
    switch (event.type) {
      case 'step_start':
        this.clearWait();
        // Each step's text starts a new paragraph of the answer.
        if (event.step > 1 && this.message.text.trim() !== '' && !this.message.text.endsWith('\n\n'))
          this.sink.text('text', '\n\n');
        return;
      case 'text':
      case 'thinking':
        this.clearWait();
        this.sink.text(event.type, event.text);
        return;
      case 'tool_proposed': {
        const card = this.card(event.toolUseId, event.name, event.step);
        const target = event.target && { ...event.target, paths: event.target.paths?.map(this.showPath) };
        card.summary = targetSummary(event.name, target);
        const full = fullTargetSummary(event.name, target);
        if (full !== undefined) card.fullSummary = full;
        this.postCard(card);
        return;
      }
      case 'tool_approved':
        return this.update(event.toolUseId, (c) => {
          // A write stays 'asking' until its diff is accepted or rejected: the review is its approval.
          if (c.ask?.kind === 'review') return;
          c.status = 'running';
          delete c.ask;
          if (event.by === 'user') c.note = l10n.t('Approved by you.');
        });
      case 'tool_denied':
        return this.update(event.toolUseId, (c) => {
          c.status = 'refused';
          delete c.ask;
          // The core's reasons are English for the model; the two the user causes are said in the user's words.
          c.note =
            event.reason === 'the user denied this call'
              ? l10n.t('Denied: you declined this call.')
              : event.reason === 'the user stopped the turn'
                ? l10n.t('Denied: the turn was stopped.')
                : l10n.t('Denied: {0}', event.reason);
        });
      case 'tool_refused':
        return this.update(event.toolUseId, (c) => {
          c.status = 'refused';
          delete c.ask;
          c.note = event.shown ?? event.reason;
        });
      case 'tool_progress': {
        const card = this.info.tools.find((c) => c.id === event.toolUseId);
        if (!card) return;
        const text = (card.progress ?? '') + event.text;
        card.progress = text.length > PROGRESS_CHARS ? text.slice(-PROGRESS_CHARS) : text;
        this.progressDue.add(card.id);
        this.progressTimer ??= setTimeout(() => this.flushProgress(), PROGRESS_INTERVAL_MS);
        return;
      }
      case 'tool_result':
        return this.update(event.toolUseId, (c) => {
          const preview = resultPreview(event.content);
          // A refused or denied call still gets its (error) result for the model: the card stays 'refused'. A write
          // the user rejected in review is not 'done': its header says so.
          if (c.status !== 'refused')
            c.status = event.isError ? 'error' : rejectedInReview(event.details) ? 'rejected' : 'done';
          delete c.ask;
          delete c.progress;
          c.result = preview.text;
          if (preview.truncated) c.resultTruncated = true;
        });
      case 'usage': {
        const tokens = { ...event.usage };
        const existing = this.info.steps.find((s) => s.step === event.step);
        if (existing) existing.tokens = addTokens(existing.tokens, tokens);
        else this.info.steps.push({ step: event.step, tokens });
        const stepInfo = existing ?? this.info.steps[this.info.steps.length - 1];
        if (event.cost) stepInfo.cost = chatCostOf(event.cost, stepInfo.cost);
        this.info.tokens = { ...event.turn };
        // The answer's footer shows the turn's figures in the same four definitions (they add up to the steps');
        // the turn's counts hold estimates for a step whose usage the gateway did not report.
        this.parentUsage = {
          ...event.turn,
          ...(event.turnCost ? { cost: chatCostOf(event.turnCost) } : {}),
          ...(event.unreported || this.parentUsage?.notReported ? { notReported: true } : {}),
        };
        this.footer();
        const step = existing ?? this.info.steps[this.info.steps.length - 1];
        this.sink.post({
          type: 'agentUsage',
          conversationId: this.conversationId,
          messageId: this.message.id,
          step: { step: step.step, tokens: { ...step.tokens } },
          turn: { ...this.info.tokens },
        });
        return;
      }
      case 'rate_limited': {
        const until = this.sink.now() + event.waitMs;
        this.info.waitUntil = until;
        this.sink.post({ type: 'agentWait', conversationId: this.conversationId, messageId: this.message.id, until });
        return;
      }
      case 'caching_disabled':
        return this.note(event.reason);
      case 'context_trimmed':
        return this.note(
          event.results === 1
            ? l10n.t(
                "To fit the model's context window, 1 older tool result was shortened ({0} characters left out).",
                event.charsOmitted,
              )
            : l10n.t(
                "To fit the model's context window, {0} older tool results were shortened ({1} characters left out).",
                event.results,
                event.charsOmitted,
              ),
        );
      case 'turn_end': {
        this.clearWait();
        this.flushProgress();
        this.info.tokens = { ...event.usage };
        const end: AgentTurnEnd = { reason: event.reason, message: event.message, retry: RETRYABLE.has(event.reason) };
        this.info.end = end;
        // Cards still open when the turn ended (Stop during an approval) are closed, so no prompt stays live.
        this.closeOpenCards();
        for (const c of this.info.subagents ?? []) {
          if (c.status !== 'running') continue;
          c.status = 'stopped';
          c.message = c.message ?? l10n.t('The turn ended before this sub-agent finished.');
          this.postSubagent(c);
        }
        this.sink.post({ type: 'agentEnd', conversationId: this.conversationId, messageId: this.message.id, end });
        return;
      }
    }
  }

  /** Posts the cards whose output grew since the last post. */
  flushProgress(): void {
    if (this.progressTimer !== undefined) clearTimeout(this.progressTimer);
    this.progressTimer = undefined;
    const due = [...this.progressDue];
    this.progressDue.clear();
    for (const id of due) {
      const card = this.info.tools.find((c) => c.id === id);
      if (card) this.postCard(card);
    }
  }

  private clearWait(): void {
    if (this.info.waitUntil === undefined) return;
    delete this.info.waitUntil;
    this.sink.post({ type: 'agentWait', conversationId: this.conversationId, messageId: this.message.id, until: null });
  }

  /** A visible note of the turn (kept with the answer). */
  note(text: string): void {
    this.info.notes = [...(this.info.notes ?? []), text];
    this.sink.post({ type: 'agentNote', conversationId: this.conversationId, messageId: this.message.id, note: text });
  }

  /** Earlier turns were condensed before this turn's first request: the summary card. */
  condensed(condensed: AgentCondensed): void {
    this.info.condensed = condensed;
    this.sink.post({
      type: 'agentCondensed',
      conversationId: this.conversationId,
      messageId: this.message.id,
      condensed,
    });
  }

  private card(id: string, name: string, step: number, subagent?: string): AgentToolCard {
    let card = this.info.tools.find((c) => c.id === id);
    if (!card) {
      // Where the card stands in the answer: after the text streamed so far (text, card, text … as the model wrote it).
      // A sub-agent's call stands in its sub-agent's card instead.
      card =
        subagent === undefined
          ? { id, step, name, summary: name, status: 'proposed', textAt: this.message.text.length }
          : { id, step, name, summary: name, status: 'proposed', subagent };
      this.info.tools.push(card);
    }
    return card;
  }

  /** What a sub-agent did: its card (live), its calls (in its card, approvals as the agent's own), its cost. */
  subagent(report: SubagentReport): void {
    const list = (this.info.subagents ??= []);
    if (report.kind === 'start') {
      const card: AgentSubagentCard = {
        id: report.id,
        task: report.task,
        role: report.role,
        model: report.model,
        status: 'running',
        steps: 0,
        toolCalls: 0,
        tokens: { ...ZERO_TOKENS },
        ...(report.agent ? { agent: report.agent } : {}),
        ...(report.notes && report.notes.length > 0 ? { notes: report.notes } : {}),
      };
      list.push(card);
      this.postSubagent(card);
      return this.sink.save?.();
    }
    const card = list.find((c) => c.id === report.id);
    if (!card) return;
    if (report.kind === 'end') {
      delete card.waitUntil;
      card.status =
        report.reason === 'end_turn'
          ? 'done'
          : report.reason === 'stopped' || report.reason === 'daily_budget' || report.reason === 'step_budget'
            ? 'stopped'
            : 'error';
      card.message = report.message;
      card.result = resultPreview(report.result).text;
      if (report.modelRefused) card.modelRefused = true;
      this.closeOpenCards((c) => c.subagent === card.id);
      this.footer();
      this.postSubagent(card);
      return this.sink.save?.();
    }
    const event = report.event;
    switch (event.type) {
      case 'step_start':
        card.steps = event.step;
        delete card.waitUntil;
        return this.postSubagent(card);
      case 'rate_limited':
        // The child's requests go through the key's one client and its 429 handling: its waits are shown on its card.
        card.waitUntil = this.sink.now() + event.waitMs;
        return this.postSubagent(card);
      case 'usage':
        delete card.waitUntil;
        card.tokens = { ...event.turn };
        if (event.turnCost) card.cost = chatCostOf(event.turnCost);
        if (event.unreported) card.notReported = true;
        this.footer();
        return this.postSubagent(card);
      case 'tool_proposed':
        card.toolCalls++;
        this.card(event.toolUseId, event.name, event.step, card.id);
        this.postSubagent(card);
        return this.handle(event);
      case 'tool_approved':
      case 'tool_denied':
      case 'tool_refused':
      case 'tool_progress':
      case 'tool_result':
        return this.handle(event);
      default:
        // Its text goes back to the agent as its report (shown at its end); its waits and notes are its own.
        return;
    }
  }

  /** The answer's footer figures: the turn's own and its sub-agents', summed (tokens and cost). */
  private footer(): void {
    const children = this.info.subagents ?? [];
    const parent = this.parentUsage;
    if (!parent && children.every((c) => c.steps === 0)) return;
    let tokens: TokenCounts = parent ? { ...parent } : { ...ZERO_TOKENS };
    delete (tokens as ChatUsage).cost;
    delete (tokens as ChatUsage).notReported;
    for (const c of children) tokens = addTokens(tokens, c.tokens);
    const costs = [parent?.cost, ...children.map((c) => c.cost)].filter((c): c is ChatCost => c !== undefined);
    const usage: ChatUsage = { ...tokens };
    if (costs.length > 0) usage.cost = sumChatCosts(costs);
    if (parent?.notReported || children.some((c) => c.notReported)) usage.notReported = true;
    this.message.usage = usage;
  }

  private postSubagent(card: AgentSubagentCard): void {
    this.sink.post({
      type: 'agentSubagent',
      conversationId: this.conversationId,
      messageId: this.message.id,
      subagent: structuredClone(card),
      ...(this.message.usage ? { usage: structuredClone(this.message.usage) } : {}),
    });
  }

  /** Closes the cards still open (no prompt stays live after their turn or sub-agent ended). */
  private closeOpenCards(which: (card: AgentToolCard) => boolean = () => true): void {
    const l10n = this.l10n;
    for (const c of this.info.tools) {
      if (!which(c)) continue;
      if (c.status === 'proposed' || c.status === 'asking' || c.status === 'running') {
        c.status = 'refused';
        delete c.ask;
        c.note = c.note ?? l10n.t('The turn ended before this call finished.');
        this.postCard(c);
      }
    }
  }

  private update(id: string, change: (card: AgentToolCard) => void): void {
    const card = this.info.tools.find((c) => c.id === id);
    if (!card) return;
    change(card);
    this.postCard(card);
  }

  private postCard(card: AgentToolCard): void {
    // This post carries the latest output: no separate progress post for this card is due any more.
    this.progressDue.delete(card.id);
    this.sink.post({
      type: 'agentTool',
      conversationId: this.conversationId,
      messageId: this.message.id,
      tool: structuredClone(card),
    });
  }
}

/** A step's or a turn's cost for the chat: a second request of the same step adds to the first. */
function chatCostOf(cost: Cost | CostTotal, earlier?: ChatCost): ChatCost {
  const source = 'source' in cost ? cost.source : (cost.sources[0] ?? 'user');
  const partial = 'partial' in cost && cost.partial;
  const out: ChatCost = {
    amount: roundAmount((earlier?.amount ?? 0) + cost.amount),
    source: 'sources' in cost && cost.sources.length > 1 ? 'user' : source,
    estimate: cost.estimate || earlier?.estimate === true,
  };
  if (partial) out.partial = true;
  return out;
}

/** Costs added up: one source when they agree, else 'user' (as for a turn of several routes); estimates marked. */
function sumChatCosts(costs: readonly ChatCost[]): ChatCost {
  const sources = new Set(costs.map((c) => c.source));
  const out: ChatCost = {
    amount: roundAmount(costs.reduce((sum, c) => sum + c.amount, 0)),
    source: sources.size === 1 ? costs[0].source : 'user',
    estimate: costs.some((c) => c.estimate),
  };
  if (costs.some((c) => c.partial)) out.partial = true;
  return out;
}
