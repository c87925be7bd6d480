// The chat session controller (pure: everything VS Code-specific comes in through SessionDeps).
// Owns the conversations, runs one answer at a time, queues after 429, and posts deltas, never whole conversations.
import type { ProjectInstructions } from '../agent/instructions';
import type { UsageRecord } from '../gateway/types';
import type { ChatCost } from '../shared/money';
import type { GatewayClient, Logger, MessageParam } from '../gateway/types';
import { DEFAULT_CONTEXT_WINDOW, estimateTokens } from '../agent';
import {
  CONDENSE_KEEP_TURNS,
  condensedHistory,
  condensePoint,
  DEFAULT_CONDENSE_THRESHOLD,
  manualCondensePoint,
  overThreshold,
  requestSummary,
  summaryMessages,
  type CondensedHistory,
} from './condense';
import type { WaitNotice } from '../gateway/retry';
import type {
  AgentAvailability,
  AgentTurnInfo,
  ChatAttachment,
  ChatMessage,
  ChatMode,
  ChatSnapshot,
  ConversationSettings,
  ErrorCard,
  HostToWebviewMessage,
  ModelOption,
  PendingChangeView,
} from '../shared/protocol/chat';
import type { AgentEventSink } from './agentEvents';
import { appendMessage, effectiveSettings, findMessage, truncateFrom, type Conversation } from './conversation';
import { ConversationStore } from './conversationStore';
import { ChatSetupError } from './errorCard';
import { english, type Localizer } from '../shared/l10n';
import { DeltaBatcher, nodeTimers, type Timers } from './deltaBatcher';
import type { HistoryStorage } from './history';
import { imageHashes, type ImageStore } from './imageStore';
import { buildMessagesRequest, toMessageParams, useImageData } from './requestBuilder';
import { consumeStream, type StreamOutcome } from './streamAnswer';

export interface SessionDeps {
  storage: HistoryStorage;
  /** A client, or undefined after telling the user what is missing. */
  getClient(): Promise<GatewayClient | undefined>;
  /** Why there is no client, in the user's words (a workspace base URL that was not allowed is not "no key"). */
  accessProblem?(): string;
  /** Turns an error into the inline card (the spec's reaction as actions). */
  errorCard(error: unknown): ErrorCard;
  /** The settings of a conversation without its own; `agentModel`: the model of Agent conversations, when set. */
  defaults(): ConversationSettings & { agentModel?: string };
  post(message: HostToWebviewMessage): void;
  setBusy(busy: boolean): void;
  newId(): string;
  now(): number;
  timers?: Timers;
  log?: Logger;
  /** Host-side delta batching interval. */
  batchMs?: number;
  /** Wait after a 429 that named no Retry-After. */
  defaultRetryMs?: number;
  /** Agent mode (absent: Ask only). */
  agent?: AgentRunner;
  /** What a response cost (AccountService.costOf); absent: tokens only. */
  costOf?(record: UsageRecord): ChatCost | undefined;
  /** The user's language for refusals, warnings and setup errors (vscode.l10n; English when absent). */
  l10n?: Localizer;
  /** The project instructions (AGENTS.md, …, the user's setting) as of now, sent with Ask, Agent and Plan answers. */
  instructions?(): Promise<ProjectInstructions>;
  /** The model's context window (input + max_tokens), from the model list; default DEFAULT_CONTEXT_WINDOW. */
  contextWindow?(model: string, maxTokens: number): number;
  /** modelGateway.agent.condenseThreshold (Ask answers condense past it too); default DEFAULT_CONDENSE_THRESHOLD. */
  condenseThreshold?(): number;
  /** The chat's images (stored by hash); absent: image attachments are sent as a note that they are gone. */
  images?: ImageStore;
}

export interface AgentRunContext {
  conversationId: string;
  /** The answer being written; its `agent` record is the turn's state. */
  message: ChatMessage & { agent: AgentTurnInfo };
  /** The conversation before the answer (ends with the question). */
  history: ChatMessage[];
  /** agent, or plan (read-only tools; the answer ends in a checklist plan). */
  mode: 'agent' | 'plan';
  /** The project instructions' text for the system prompt ('' when none). */
  instructions: string;
  settings: ConversationSettings;
  /** Stop: closes the request and cancels the running tool. */
  signal: AbortSignal;
  sink: AgentEventSink;
}

export interface AgentRunOutcome {
  status: 'complete' | 'stopped' | 'error';
  error?: unknown;
  model?: string;
}

/** The agent side as the session sees it (src/chat/agentTurn.ts runs turns through src/agent and src/agentHost). */
export interface AgentRunner {
  availability(): AgentAvailability;
  run(context: AgentRunContext): Promise<AgentRunOutcome>;
  changes(): PendingChangeView[];
  /** Drops what is stored about these turns (their tool-call transcripts): their answers are gone from the history. */
  forget?(turnIds: readonly string[]): void;
  /** Deletes the rest of what these turns stored (their checkpoints): their conversation was deleted. */
  discard?(turnIds: readonly string[]): void;
  /** Drops what is stored about every turn not in this list (called once the history is loaded). */
  keepOnly?(turnIds: readonly string[]): void;
  /** The request messages of these history messages (agent turns with their tool calls), to condense them. */
  requestHistory?(messages: readonly ChatMessage[]): MessageParam[];
}

/** The task Act on this plan sends in Agent mode: the plan as the model wrote it (the user sees this question). */
export function planTask(answer: string, l10n: Localizer = english): string {
  return `${l10n.t('Act on this plan:')}\n\n${planOf(answer)}`;
}

const CHECKLIST_ITEM = /^\s*(?:[-*]|\d+[.)])\s+\[[ xX]\]\s/;

/**
 * The plan in a Plan-mode answer: its last checklist (with the heading line just above it), or the whole answer
 * when it has none. What the model said while reading files before it is left out of the task.
 */
export function planOf(answer: string): string {
  const lines = answer.trim().split('\n');
  let end = lines.length - 1;
  while (end >= 0 && !CHECKLIST_ITEM.test(lines[end])) end--;
  if (end < 0) return answer.trim();
  let start = end;
  while (start > 0 && (CHECKLIST_ITEM.test(lines[start - 1]) || /^\s+\S/.test(lines[start - 1]))) start--;
  if (start > 0 && /^\s*(#{1,6}\s|\*\*|\S.*:\s*$)/.test(lines[start - 1])) start--;
  return lines.slice(start).join('\n').trim();
}

/** The history as requests see it: the summary (as the first exchange) and the messages it does not cover. */
function withSummary(h: CondensedHistory): ChatMessage[] {
  return [...(h.summary ? summaryMessages(h.summary) : []), ...h.rest];
}

/** The agent turns among these messages (their answers' turn ids). */
function turnIdsOf(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => (m.role === 'assistant' && m.agent ? [m.agent.turnId] : []));
}

/** A checkpoint id from a message id (letters, digits, _ and - only). */
export function turnIdOf(messageId: string): string {
  return `turn-${messageId.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 128);
}

interface ActiveAnswer {
  conversation: Conversation;
  message: ChatMessage;
  stop(): void;
  stopped: boolean;
  /** Sends deltas not posted yet (before a snapshot, which already holds them). */
  flush(): void;
}

interface QueuedAnswer {
  conversation: Conversation;
  message: ChatMessage;
  timer: unknown;
  prefill: boolean;
}

export class SessionController {
  readonly store: ConversationStore;
  private active: ActiveAnswer | undefined;
  private queued: QueuedAnswer | undefined;
  private models: ModelOption[] = [];
  private modelsProblem: string | undefined;
  private attachments: ChatAttachment[] = [];
  private readonly timers: Timers;
  private readonly l10n: Localizer;

  constructor(private readonly deps: SessionDeps) {
    this.timers = deps.timers ?? nodeTimers;
    this.l10n = deps.l10n ?? english;
    this.store = new ConversationStore(
      deps.storage,
      deps.newId,
      deps.now,
      (e) => deps.log?.error('chat history write failed', e),
      this.l10n,
    );
    const images = deps.images;
    if (images) useImageData((hash) => images.base64(hash));
  }

  async load(): Promise<void> {
    await this.store.load();
    // Records of turns no conversation holds any more (deleted before deletions dropped them, or in another
    // window) are dropped once per load: the conversations are in memory already, so this reads nothing more.
    try {
      this.deps.agent?.keepOnly?.(turnIdsOf(this.store.all().flatMap((c) => c.messages)));
    } catch (error) {
      this.deps.log?.error('chat: pruning agent turn records failed', error);
    }
    const used = imageHashes(this.store.all().flatMap((c) => c.messages));
    this.deps.images?.removeOrphans(used, this.deps.now()).catch((e) => this.deps.log?.error('chat: images', e));
  }

  /** The attachments the next question takes (the host counts their images against the per-question limit). */
  get pending(): readonly ChatAttachment[] {
    return this.attachments;
  }

  get busy(): boolean {
    return this.active !== undefined || this.queued !== undefined;
  }

  snapshot(): ChatSnapshot {
    // The message text already holds the batched deltas; post them first so none arrives twice after the snapshot.
    this.active?.flush();
    const conversation = this.store.active;
    return {
      conversations: this.store.summaries(),
      activeId: conversation.id,
      messages: conversation.messages,
      settings: this.settingsOf(conversation),
      models: this.models,
      modelsProblem: this.modelsProblem,
      busy: this.busy,
      attachments: this.attachments,
      mode: conversation.mode ?? 'ask',
      agent: this.agentAvailability(),
      changes: this.deps.agent?.changes() ?? [],
    };
  }

  agentAvailability(): AgentAvailability {
    const l10n = this.l10n;
    return (
      this.deps.agent?.availability() ?? { ok: false, reason: l10n.t('Agent mode is not available in this window.') }
    );
  }

  /** Switches the active conversation between Ask, Agent and Plan; returns a refusal to show, if any. */
  setMode(mode: ChatMode): string | undefined {
    const conversation = this.store.active;
    const l10n = this.l10n;
    if (this.active?.conversation === conversation || this.queued?.conversation === conversation)
      return l10n.t('A reply is still in progress. Stop it before switching modes.');
    if (mode === 'agent' || mode === 'plan') {
      // Plan mode reads the workspace through the agent's tools: it needs what Agent mode needs (a trusted workspace).
      const available = this.agentAvailability();
      if (!available.ok) {
        this.deps.post({ type: 'mode', conversationId: conversation.id, mode: conversation.mode ?? 'ask' });
        return available.reason;
      }
      conversation.mode = mode;
    } else {
      delete conversation.mode;
    }
    this.store.save(conversation);
    this.deps.post({ type: 'mode', conversationId: conversation.id, mode });
    // Ask and Agent may default to different models (modelGateway.agent.defaultModel).
    this.deps.post({ type: 'settings', conversationId: conversation.id, settings: this.settingsOf(conversation) });
    this.deps.post({ type: 'conversations', conversations: this.store.summaries(), activeId: conversation.id });
    return undefined;
  }

  /**
   * Act on this plan: the conversation switches to Agent mode and the plan of this Plan-mode answer goes out as
   * the task (a new, visible question; the user clicked for it). Refused while busy or for any other answer.
   */
  actOnPlan(messageId: string): string | undefined {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    const target = findMessage(this.store.active, messageId);
    if (!target || target.role !== 'assistant' || target.agent?.mode !== 'plan' || !target.text.trim())
      return l10n.t('Only a Plan-mode answer can be acted on.');
    const refusal = this.setMode('agent');
    if (refusal) return refusal;
    return this.send(planTask(target.text, l10n));
  }

  /** The checkpoint of an agent answer in the active conversation (for Restore). */
  agentTurn(messageId: string): string | undefined {
    return findMessage(this.store.active, messageId)?.agent?.turnId;
  }

  /** Records that the workspace was restored to before this answer's turn. */
  markRestored(messageId: string): void {
    const conversation = this.store.active;
    const message = findMessage(conversation, messageId);
    if (!message?.agent) return;
    message.agent.restored = true;
    this.store.save(conversation);
    this.deps.post({ type: 'agentRestored', conversationId: conversation.id, messageId });
  }

  setModels(models: ModelOption[], problem?: string): void {
    this.models = models;
    this.modelsProblem = problem;
    this.deps.post({ type: 'models', models, problem });
    // The effective model of a conversation without its own may just have become the first chat model.
    const conversation = this.store.active;
    this.deps.post({ type: 'settings', conversationId: conversation.id, settings: this.settingsOf(conversation) });
  }

  addAttachment(attachment: ChatAttachment): void {
    this.attachments = [...this.attachments, attachment];
    this.deps.post({ type: 'attachments', attachments: this.attachments });
  }

  removeAttachment(id: string): void {
    this.attachments = this.attachments.filter((a) => a.id !== id);
    this.deps.post({ type: 'attachments', attachments: this.attachments });
  }

  // ---- conversations ----

  newConversation(): void {
    this.store.create();
    this.postSnapshot();
  }

  selectConversation(id: string): boolean {
    if (!this.store.select(id)) return false;
    this.postSnapshot();
    return true;
  }

  deleteConversation(id: string): boolean {
    if (this.active?.conversation.id === id || this.queued?.conversation.id === id) this.stop();
    const turnIds = turnIdsOf(this.store.get(id)?.messages ?? []);
    const images = imageHashes(this.store.get(id)?.messages ?? []);
    if (!this.store.delete(id)) return false;
    this.forgetTurns(turnIds);
    const kept = imageHashes([...this.store.all().flatMap((c) => c.messages), { attachments: this.attachments }]);
    this.deps.images?.release(images, kept).catch((e) => this.deps.log?.error('chat: removing images failed', e));
    // Deleting a conversation deletes everything stored for it: the copies of files its turns changed too.
    try {
      if (turnIds.length > 0) this.deps.agent?.discard?.(turnIds);
    } catch (error) {
      this.deps.log?.error('chat: deleting agent turn checkpoints failed', error);
    }
    this.postSnapshot();
    return true;
  }

  setSettings(change: Partial<ConversationSettings>): void {
    const conversation = this.store.active;
    conversation.overrides = { ...conversation.overrides, ...change };
    this.store.save(conversation);
    const settings = this.settingsOf(conversation);
    const unknownModel = change.model && this.models.length > 0 && !this.models.some((m) => m.id === change.model);
    const l10n = this.l10n;
    const warning = unknownModel
      ? l10n.t('"{0}" is not in the model list of your key: it may not be callable.', change.model as string)
      : undefined;
    this.deps.post({ type: 'settings', conversationId: conversation.id, settings, warning });
  }

  // ---- answers ----

  /** Sends a question (with the pending attachments). Refused while another answer runs or waits. */
  send(text: string): string | undefined {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    if (!text.trim() && this.attachments.length === 0) return l10n.t('Nothing to send.');
    const conversation = this.store.active;
    const refusal = this.agentRefusal(conversation);
    if (refusal) return refusal;
    const user = this.message('user', text);
    if (this.attachments.length > 0) user.attachments = this.attachments;
    this.attachments = [];
    this.deps.post({ type: 'attachments', attachments: [] });
    this.append(conversation, user);
    this.answer(conversation);
    return undefined;
  }

  regenerate(messageId: string): string | undefined {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    const conversation = this.store.active;
    const target = findMessage(conversation, messageId);
    if (!target || target.role !== 'assistant') return l10n.t('Only an answer can be regenerated.');
    const refusal = this.agentRefusal(conversation);
    if (refusal) return refusal;
    this.truncate(conversation, messageId);
    this.answer(conversation);
    return undefined;
  }

  editAndResend(messageId: string, text: string): string | undefined {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    const conversation = this.store.active;
    const target = findMessage(conversation, messageId);
    if (!target || target.role !== 'user') return l10n.t('Only a question can be edited.');
    const refusal = this.agentRefusal(conversation);
    if (refusal) return refusal;
    this.truncate(conversation, messageId);
    const user = this.message('user', text);
    if (target.attachments) user.attachments = target.attachments;
    this.append(conversation, user);
    this.answer(conversation);
    return undefined;
  }

  /** Asks the model to go on from an answer that stopped (max_tokens, stopped, cut off): the answer is the prefill. */
  continueAnswer(messageId: string): string | undefined {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    const conversation = this.store.active;
    const last = conversation.messages[conversation.messages.length - 1];
    if (!last || last.id !== messageId || last.role !== 'assistant' || !last.text.trim())
      return l10n.t('Only the last answer can be continued.');
    if (last.agent || conversation.mode === 'agent' || conversation.mode === 'plan')
      return l10n.t('An agent turn is not continued: send a new message (or Retry) instead.');
    last.text = last.text.trimEnd();
    this.run(conversation, last, true);
    return undefined;
  }

  /** Stops the running answer (closing its socket) or cancels a queued one. */
  stop(): void {
    if (this.active) {
      this.active.stopped = true;
      this.active.stop();
    }
    if (this.queued) {
      const { conversation, message, timer } = this.queued;
      this.timers.clearTimeout(timer);
      this.queued = undefined;
      delete message.error;
      this.finish(conversation, message, { status: 'stopped' });
    }
  }

  /** The error card's Retry: a new request for the same question (never automatic after 5xx or timeout). */
  retry(messageId: string): string | undefined {
    return this.regenerate(messageId);
  }

  dispose(): void {
    this.stop();
  }

  // ---- internals ----

  /** Agent mode needs a trusted workspace: say why instead of silently answering without tools. */
  private agentRefusal(conversation: Conversation): string | undefined {
    if (conversation.mode !== 'agent' && conversation.mode !== 'plan') return undefined;
    const available = this.agentAvailability();
    return available.ok ? undefined : available.reason;
  }

  private answer(conversation: Conversation): void {
    const assistant = this.message('assistant', '');
    assistant.status = 'streaming';
    if ((conversation.mode === 'agent' || conversation.mode === 'plan') && this.deps.agent)
      assistant.agent = {
        turnId: turnIdOf(assistant.id),
        tools: [],
        steps: [],
        ...(conversation.mode === 'plan' ? { mode: 'plan' as const } : {}),
      };
    this.append(conversation, assistant);
    this.run(conversation, assistant, false);
  }

  private run(conversation: Conversation, message: ChatMessage, prefill: boolean): void {
    message.status = 'streaming';
    delete message.error;
    this.deps.post({ type: 'messageUpdated', conversationId: conversation.id, message });
    const answer = this.begin(conversation, message);
    this.stream(answer, prefill).catch((error) => this.deps.log?.error('chat answer failed', error));
  }

  /** The active request (an answer or a condensing) for `message`: busy until it ends, Stop reaches it. */
  private begin(conversation: Conversation, message: ChatMessage): ActiveAnswer {
    const answer: ActiveAnswer = {
      conversation,
      message,
      stopped: false,
      stop: () => undefined,
      flush: () => undefined,
    };
    this.active = answer;
    this.deps.setBusy(true);
    this.deps.post({ type: 'busy', busy: true });
    return answer;
  }

  private async stream(answer: ActiveAnswer, prefill: boolean): Promise<void> {
    const { conversation, message } = answer;
    await this.deps.images?.preload(imageHashes(conversation.messages));
    if (message.agent && this.deps.agent)
      return this.streamAgent(answer, message as ChatMessage & { agent: AgentTurnInfo }, this.deps.agent);
    const settings = this.settingsOf(conversation);
    const history = conversation.messages.slice(0, conversation.messages.indexOf(message) + (prefill ? 1 : 0));
    const client = await this.deps.getClient();
    if (answer.stopped) return this.settle(answer, { status: 'stopped' });
    const l10n = this.l10n;
    if (!client)
      return this.settle(answer, {
        status: 'error',
        error: new ChatSetupError(this.deps.accessProblem?.() ?? l10n.t('No API key or base URL is configured.'), [
          'replaceKey',
          'openBaseUrlSetting',
        ]),
      });
    if (!settings.model) {
      return this.settle(answer, {
        status: 'error',
        error: new ChatSetupError(
          l10n.t('No chat model is available for your key. Refresh the model list or type a model id.'),
          ['refreshModels'],
        ),
      });
    }
    const instructions = await this.instructionsFor(answer);
    if (answer.stopped) return this.settle(answer, { status: 'stopped' });
    const sent = prefill ? history : await this.askHistory(answer, history, settings, instructions, client);
    if (answer.stopped) return this.settle(answer, { status: 'stopped' });
    const stream = client.streamMessage(buildMessagesRequest(sent, settings, instructions), {
      onWait: (notice) => this.showWait(answer, notice),
    });
    answer.stop = () => stream.abort();
    if (answer.stopped) stream.abort();
    const batcher = this.deltaBatcher(answer);
    const outcome = await consumeStream(
      stream,
      (kind, text) => {
        if (kind === 'text') message.text += text;
        else message.thinking = (message.thinking ?? '') + text;
        batcher.push(kind, text);
      },
      () => answer.stopped,
    );
    batcher.flush();
    if (message.model === undefined) message.model = settings.model;
    const raw = stream.currentMessage()?.usage;
    if ('usage' in outcome && outcome.usage && raw) {
      const cost = this.deps.costOf?.({
        route: 'POST /v1/messages',
        model: outcome.model || settings.model,
        usage: raw,
      });
      if (cost) outcome.usage.cost = cost;
    }
    this.settle(answer, outcome);
  }

  /**
   * The history an Ask answer sends: the latest summary instead of the turns it covers; past the threshold of the
   * model's window, the older turns condensed first (one request Stop ends; its card on this answer). A failed
   * condensing request is logged and the answer goes out with the history as it was.
   */
  private async askHistory(
    answer: ActiveAnswer,
    history: ChatMessage[],
    settings: ConversationSettings,
    instructions: string,
    client: GatewayClient,
  ): Promise<ChatMessage[]> {
    const base = condensedHistory(history);
    const whole = withSummary(base);
    const window = this.deps.contextWindow?.(settings.model, settings.maxTokens) ?? DEFAULT_CONTEXT_WINDOW;
    const threshold = this.deps.condenseThreshold?.() ?? DEFAULT_CONDENSE_THRESHOLD;
    const estimate = estimateTokens(buildMessagesRequest(whole, settings, instructions));
    const point = overThreshold(estimate, window - settings.maxTokens, threshold)
      ? condensePoint(base.rest)
      : undefined;
    if (!point) return whole;
    try {
      const done = await this.condenseInto(answer, base, point, settings.model, client);
      return done ? withSummary(done) : whole;
    } catch (error) {
      if (!answer.stopped) this.deps.log?.error('chat: condensing failed', error);
      return whole;
    }
  }

  /**
   * One condensing request: the turns of `base.rest` through `point` (and the earlier summary) into a summary, kept
   * on `answer.message` and shown as its card. Stop closes the request and keeps nothing (undefined).
   */
  private async condenseInto(
    answer: ActiveAnswer,
    base: CondensedHistory,
    point: string,
    model: string,
    client: Pick<GatewayClient, 'streamMessage'>,
  ): Promise<CondensedHistory | undefined> {
    const cut = base.rest.findIndex((m) => m.id === point) + 1;
    const older = base.rest.slice(0, cut);
    const params = this.deps.agent?.requestHistory?.(older) ?? toMessageParams(older);
    const controller = new AbortController();
    answer.stop = () => controller.abort();
    if (answer.stopped) return undefined;
    const reply = await requestSummary(client, model, params, base.summary, controller.signal);
    if (answer.stopped) return undefined;
    const raw = reply.usage;
    const cost = raw ? this.deps.costOf?.({ route: 'POST /v1/messages', model, usage: raw }) : undefined;
    const condensed = { through: point, summary: reply.summary, tokens: reply.tokens, ...(cost ? { cost } : {}) };
    const { conversation, message } = answer;
    if (message.agent) message.agent.condensed = condensed;
    else message.condensed = condensed;
    this.store.save(conversation);
    this.deps.post({ type: 'agentCondensed', conversationId: conversation.id, messageId: message.id, condensed });
    return { summary: reply.summary, rest: base.rest.slice(cut) };
  }

  /**
   * The Condense action: the older turns of the active conversation summarised now, in one request Stop ends (with
   * nothing changed); the card goes on the last answer. The last CONDENSE_KEEP_TURNS questions and their answers
   * stay whole. Resolves with a sentence to show when it was refused or failed, undefined when done or stopped.
   */
  async condense(): Promise<string | undefined> {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    const conversation = this.store.active;
    const base = condensedHistory(conversation.messages);
    const point = manualCondensePoint(base.rest);
    const target = [...conversation.messages].reverse().find((m) => m.role === 'assistant');
    if (!point || !target)
      return l10n.t(
        'Nothing to condense yet: the last {0} questions and their answers are always kept whole.',
        CONDENSE_KEEP_TURNS,
      );
    const answer = this.begin(conversation, target);
    try {
      const client = await this.deps.getClient();
      if (!client || answer.stopped) return undefined;
      const settings = this.settingsOf(conversation);
      if (!settings.model)
        return l10n.t('No chat model is available for your key. Refresh the model list or type a model id.');
      await this.condenseInto(answer, base, point, settings.model, client);
      return undefined;
    } catch (error) {
      if (answer.stopped) return undefined;
      this.deps.log?.error('chat: condensing failed', error);
      return l10n.t('Condensing failed: {0}', error instanceof Error ? error.message : String(error));
    } finally {
      this.active = undefined;
      this.deps.setBusy(false);
      this.deps.post({ type: 'busy', busy: false });
    }
  }

  /**
   * Reads the project instructions for this answer, records which files it uses (shown as "Using AGENTS.md") and
   * returns their prompt text. A failure to read them is logged and the answer goes out without them.
   */
  private async instructionsFor(answer: ActiveAnswer): Promise<string> {
    if (!this.deps.instructions) return '';
    let found: ProjectInstructions;
    try {
      found = await this.deps.instructions();
    } catch (error) {
      this.deps.log?.error('chat: reading the project instructions failed', error);
      return '';
    }
    const { conversation, message } = answer;
    const files = found.sources.map((s) => ({
      name: s.name,
      path: s.path,
      ...(s.truncated ? { truncated: true } : {}),
      ...(s.omitted ? { omitted: true } : {}),
    }));
    if (files.length > 0 || found.notes.length > 0) {
      message.instructions = { files, ...(found.notes.length > 0 ? { notes: found.notes } : {}) };
      this.deps.post({ type: 'messageUpdated', conversationId: conversation.id, message });
    } else delete message.instructions;
    return found.prompt;
  }

  /** The path of one instruction file an answer of the active conversation was sent with (for opening it). */
  instructionFile(messageId: string, index: number): string | undefined {
    return findMessage(this.store.active, messageId)?.instructions?.files[index]?.path;
  }

  /** Batches an answer's text and thinking deltas into about one streamDelta message per frame; answer.flush sends what waits. */
  private deltaBatcher(answer: ActiveAnswer): DeltaBatcher {
    const { conversation, message } = answer;
    const batcher = new DeltaBatcher(
      ({ text, thinking }) => {
        this.deps.post({
          type: 'streamDelta',
          conversationId: conversation.id,
          messageId: message.id,
          ...(text ? { text } : {}),
          ...(thinking ? { thinking } : {}),
        });
      },
      this.deps.batchMs ?? 24,
      this.timers,
    );
    answer.flush = () => batcher.flush();
    return batcher;
  }

  /**
   * One agent turn. Its 429 waits happen inside the loop (shown as a countdown), so the outcome never goes
   * through the Ask queue: a billable turn is never sent again by itself.
   */
  private async streamAgent(
    answer: ActiveAnswer,
    message: ChatMessage & { agent: AgentTurnInfo },
    agent: AgentRunner,
  ): Promise<void> {
    const { conversation } = answer;
    const settings = this.settingsOf(conversation);
    const controller = new AbortController();
    answer.stop = () => controller.abort();
    if (answer.stopped) controller.abort();
    const batcher = this.deltaBatcher(answer);
    const history = conversation.messages.slice(0, conversation.messages.indexOf(message));
    let outcome: AgentRunOutcome;
    try {
      const instructions = await this.instructionsFor(answer);
      outcome = await agent.run({
        conversationId: conversation.id,
        message,
        history,
        mode: message.agent.mode === 'plan' ? 'plan' : 'agent',
        instructions,
        settings,
        signal: controller.signal,
        sink: {
          // Text streamed so far goes out before a card, so the answer reads in the order it happened.
          post: (m) => {
            batcher.flush();
            this.deps.post(m);
          },
          text: (kind, text) => {
            if (kind === 'text') message.text += text;
            else message.thinking = (message.thinking ?? '') + text;
            batcher.push(kind, text);
          },
          now: this.deps.now,
        },
      });
    } catch (error) {
      outcome = { status: 'error', error };
    }
    batcher.flush();
    if (this.active === answer) this.active = undefined;
    if (message.model === undefined) message.model = outcome.model ?? settings.model;
    const status = answer.stopped ? 'stopped' : outcome.status;
    const l10n = this.l10n;
    this.finish(
      conversation,
      message,
      status === 'error'
        ? {
            status: 'error',
            error: outcome.error ?? new Error(message.agent.end?.message ?? l10n.t('The agent turn failed.')),
          }
        : status === 'stopped'
          ? { status: 'stopped' }
          : { status: 'complete', stopReason: null },
    );
  }

  private settle(answer: ActiveAnswer, outcome: StreamOutcome | { status: 'stopped' }): void {
    this.active = undefined;
    const { conversation, message } = answer;
    if ((outcome.status === 'error' || outcome.status === 'cutOff') && this.queueIfRateLimited(answer, outcome)) return;
    this.finish(conversation, message, outcome);
  }

  private finish(
    conversation: Conversation,
    message: ChatMessage,
    outcome: StreamOutcome | { status: 'stopped' },
  ): void {
    message.status = outcome.status;
    if ('usage' in outcome && outcome.usage) message.usage = outcome.usage;
    if ('model' in outcome && outcome.model) message.model = outcome.model;
    if (outcome.status === 'complete') message.stopReason = outcome.stopReason;
    if (outcome.status === 'error' || outcome.status === 'cutOff') {
      message.error = this.deps.errorCard(outcome.error);
      this.deps.post({
        type: 'errorCard',
        conversationId: conversation.id,
        messageId: message.id,
        card: message.error,
      });
    }
    this.deps.post({
      type: 'streamFinished',
      conversationId: conversation.id,
      messageId: message.id,
      status: message.status as Exclude<ChatMessage['status'], 'streaming' | 'queued'>,
      usage: message.usage,
      stopReason: message.stopReason,
      model: message.model,
    });
    conversation.updatedAt = this.deps.now();
    this.store.save(conversation);
    this.deps.setBusy(this.busy);
    this.deps.post({ type: 'busy', busy: this.busy });
  }

  /**
   * The client waits before sending (a 429's Retry-After, retried by the client itself): the same countdown
   * card as a queued answer, so no wait is silent; Stop aborts the stream and with it the wait.
   */
  private showWait(answer: ActiveAnswer, notice: WaitNotice): void {
    if (this.active !== answer || answer.stopped) return;
    const { conversation, message } = answer;
    if (notice.ms <= 0) {
      if (!message.error?.queuedUntil) return;
      delete message.error;
      this.deps.post({ type: 'errorCard', conversationId: conversation.id, messageId: message.id, card: null });
      return;
    }
    const card = this.deps.errorCard(notice.error ?? notice);
    message.error = {
      ...card,
      actions: card.actions.filter((a) => a !== 'retry'),
      retryAfterMs: notice.ms,
      queuedUntil: notice.until,
    };
    this.deps.post({ type: 'errorCard', conversationId: conversation.id, messageId: message.id, card: message.error });
  }

  /** 429 before any content: wait for Retry-After, then send again by itself (one request at a time). */
  private queueIfRateLimited(answer: ActiveAnswer, outcome: { status: 'error' | 'cutOff'; error: unknown }): boolean {
    const error = outcome.error as { kind?: unknown; retryAfterMs?: unknown };
    if (outcome.status !== 'error' || error?.kind !== 'rate_limited') return false;
    const { conversation, message } = answer;
    const waitMs =
      typeof error.retryAfterMs === 'number' && error.retryAfterMs >= 0
        ? error.retryAfterMs
        : (this.deps.defaultRetryMs ?? 10_000);
    const prefill = message.text.length > 0;
    message.status = 'queued';
    const card = this.deps.errorCard(outcome.error);
    // Queued: it goes out by itself (Stop cancels), so no Retry button that would race the queue.
    message.error = {
      ...card,
      actions: card.actions.filter((a) => a !== 'retry'),
      retryAfterMs: waitMs,
      queuedUntil: this.deps.now() + waitMs,
    };
    this.deps.post({ type: 'errorCard', conversationId: conversation.id, messageId: message.id, card: message.error });
    const timer = this.timers.setTimeout(() => {
      if (this.queued?.message !== message) return;
      this.queued = undefined;
      this.deps.post({ type: 'errorCard', conversationId: conversation.id, messageId: message.id, card: null });
      this.run(conversation, message, prefill);
    }, waitMs);
    this.queued = { conversation, message, timer, prefill };
    return true;
  }

  private settingsOf(conversation: Conversation): ConversationSettings {
    const { agentModel, ...defaults } = this.deps.defaults();
    if (conversation.mode === 'agent' && agentModel) defaults.model = agentModel;
    const settings = effectiveSettings(conversation, defaults);
    if (!settings.model && this.models.length > 0) settings.model = this.models[0].id;
    return settings;
  }

  private message(role: ChatMessage['role'], text: string): ChatMessage {
    return { id: this.deps.newId(), role, text, status: 'complete', createdAt: this.deps.now() };
  }

  private append(conversation: Conversation, message: ChatMessage): void {
    appendMessage(conversation, message, this.deps.now());
    this.store.save(conversation);
    this.deps.post({ type: 'messageAppended', conversationId: conversation.id, message });
    this.deps.post({ type: 'conversations', conversations: this.store.summaries(), activeId: this.store.active.id });
  }

  private truncate(conversation: Conversation, messageId: string): void {
    const from = conversation.messages.findIndex((m) => m.id === messageId);
    const turnIds = from < 0 ? [] : turnIdsOf(conversation.messages.slice(from));
    truncateFrom(conversation, messageId);
    // Regenerate and edit-and-resend replace these answers for good: what their turns did is not sent again.
    this.forgetTurns(turnIds);
    this.store.save(conversation);
    this.deps.post({ type: 'messagesTruncated', conversationId: conversation.id, fromMessageId: messageId });
  }

  /** The agent side drops its records of these turns (a privacy matter too: deleting a chat deletes what it did). */
  private forgetTurns(turnIds: readonly string[]): void {
    if (turnIds.length === 0) return;
    try {
      this.deps.agent?.forget?.(turnIds);
    } catch (error) {
      this.deps.log?.error('chat: forgetting agent turns failed', error);
    }
  }

  private postSnapshot(): void {
    this.deps.post({ type: 'snapshot', snapshot: this.snapshot() });
  }
}
