// The chat session controller (pure: everything VS Code-specific comes in through SessionDeps): the commands of the
// chat view, its conversations and its snapshot. Answers and condensing run through AnswerRunner in the one request
// slot (requestSlot.ts); the page is told through ChatOutput's named methods.
import type {
  AgentAvailability,
  ChatAttachment,
  ChatMessage,
  ChatMode,
  ChatSnapshot,
} from '../../shared/protocol/chat';
import type { ConversationSettings, ModelOption } from '../../shared/protocol/chat';
import { CONTINUABLE_END_REASONS } from '../../shared/protocol/chat';
import { english, type Localizer } from '../../shared/l10n';
import { turnIdsOf } from '../agent/agentPort';
import { AnswerRunner } from './answerRunner';
import { pageOutput, type ChatOutput } from './chatOutput';
import { CONTEXT_CHANGES, contextUse } from '../condense/contextMeter';
import { DEFAULT_CONTEXT_WINDOW } from '../../agent';
import { CONDENSE_KEEP_TURNS, DEFAULT_CONDENSE_THRESHOLD } from '../condense/condense';
import { planCondense } from '../condense/condenser';
import { appendMessage, findMessage, truncateFrom, type Conversation } from './conversation';
import { listedModelChange, modeSettings, newAgentTurn, usesAgent } from './conversationMode';
import { ConversationStore } from '../store/conversationStore';
import { planTask } from '../agent/planText';
import { imageHashes } from '../store/imageStore';
import { imageBytesOf } from '../ask/requestBuilder';
import type { SessionDeps } from './sessionDeps';

/** A model list of the active key: which one (key, base URL, fetch time) and every id it names, of any kind. */
export interface ModelList {
  id: string;
  ids: ReadonlySet<string>;
}

export class SessionController {
  readonly store: ConversationStore;
  private readonly answers: AnswerRunner;
  private readonly out: ChatOutput;
  private models: ModelOption[] = [];
  private modelsProblem: string | undefined;
  /** The active key's own list the models come from; undefined when they are not one. */
  private modelList: ModelList | undefined;
  private attachments: ChatAttachment[] = [];
  private readonly l10n: Localizer;

  constructor(private readonly deps: SessionDeps) {
    this.l10n = deps.l10n ?? english;
    // After what changes the open conversation's size (or its model), the context meter is told again.
    this.out = pageOutput(
      (m) => {
        deps.post(m);
        if (CONTEXT_CHANGES.has(m.type)) this.postContext();
      },
      deps.setBusy,
      deps.secrets,
    );
    this.store = new ConversationStore(
      deps.storage,
      deps.newId,
      deps.now,
      (e) => deps.log?.error('chat history write failed', e),
      this.l10n,
      (message) => deps.log?.warn(`chat: ${message}`),
    );
    this.answers = new AnswerRunner(deps, this.store, this.out, (c) => this.settingsOf(c), this.l10n);
  }

  /** The context meter's figures for the open conversation (contextMeter.ts). */
  private postContext(): void {
    const conversation = this.store?.active;
    if (!conversation) return;
    const settings = this.settingsOf(conversation);
    const window = this.deps.contextWindow?.(settings.model, settings.maxTokens) ?? DEFAULT_CONTEXT_WINDOW;
    const threshold = this.deps.condenseThreshold?.() ?? DEFAULT_CONDENSE_THRESHOLD;
    // The window the meter names: the same with any max tokens (0: the listed input limit, else the whole window).
    const shown = this.deps.contextWindow?.(settings.model, 0) ?? DEFAULT_CONTEXT_WINDOW;
    const use = contextUse(conversation.messages, settings, imageBytesOf(this.deps.images), window, threshold, shown);
    this.deps.post({ type: 'context', conversationId: conversation.id, ...use });
  }

  async load(): Promise<void> {
    await this.store.load();
    // Other windows write the same history: what they make, answer or delete shows here too.
    this.stopFollowing = this.store.follow(() => this.showOutsideChange());
    // Records of turns and images no conversation names any more (deleted before deletions dropped them, or in
    // another window) are dropped once per load, under the history's lock with every conversation file on disk
    // read: another window's conversation is never taken for gone.
    await this.store.withAllOnDisk(async (all) => {
      const messages = all.flatMap((c) => c.messages);
      try {
        this.deps.agent?.keepOnly?.(turnIdsOf(messages));
      } catch (error) {
        this.deps.log?.error('chat: pruning agent turn records failed', error);
      }
      await this.deps.images
        ?.removeOrphans(imageHashes(messages), this.deps.now())
        .catch((e) => this.deps.log?.error('chat: images', e));
    });
  }

  /** The attachments the next question takes (the host counts their images against the per-question limit). */
  get pending(): readonly ChatAttachment[] {
    return this.attachments;
  }

  get busy(): boolean {
    return this.answers.slot.busy;
  }

  snapshot(): ChatSnapshot {
    // The message text already holds the batched deltas; post them first so none arrives twice after the snapshot.
    this.answers.slot.flush();
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
      approvals: this.deps.approvals?.(),
    };
  }

  agentAvailability(): AgentAvailability {
    const l10n = this.l10n;
    return (
      this.deps.agent?.availability() ?? {
        ok: false,
        reason: l10n.t('Agent mode is not available in this window.'),
      }
    );
  }

  /** Switches the active conversation between Ask, Agent and Plan; returns a refusal to show, if any. */
  setMode(mode: ChatMode): string | undefined {
    const l10n = this.l10n;
    const conversation = this.store.active;
    if (this.answers.slot.holds(conversation.id))
      return l10n.t('A reply is still in progress. Stop it before switching modes.');
    if (mode === 'agent' || mode === 'plan') {
      // Plan mode reads the workspace through the agent's tools: it needs what Agent mode needs (a trusted workspace).
      const available = this.agentAvailability();
      if (!available.ok) {
        this.out.mode(conversation.id, conversation.mode ?? 'ask');
        return available.reason;
      }
      conversation.mode = mode;
    } else {
      delete conversation.mode;
    }
    this.store.save(conversation);
    this.out.mode(conversation.id, mode);
    // Ask and Agent may default to different models (modelGateway.agent.defaultModel).
    this.out.settings(conversation.id, this.settingsOf(conversation));
    this.out.conversations(this.store.summaries(), conversation.id);
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
    return this.setMode('agent') ?? this.send(planTask(target.text, this.l10n));
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
    this.out.restored(conversation.id, messageId);
  }

  /**
   * The chat models; `list`: the active key's own list they come from, undefined when they are not one (no list
   * route, declared ids only, a failed fetch). A new list (a key switch, a refresh, the start) moves the open
   * conversation off a model it does not name (keepToListedModel).
   */
  setModels(models: ModelOption[], problem?: string, list?: ModelList): void {
    const newList = list !== undefined && list.id !== this.modelList?.id;
    this.models = models;
    this.modelsProblem = problem;
    this.modelList = list;
    this.out.models(models, problem);
    // The effective model of a conversation without its own may just have become the first chat model.
    const conversation = this.store.active;
    const notice = newList ? this.keepToListedModel(conversation) : undefined;
    this.out.settings(conversation.id, this.settingsOf(conversation), notice);
  }

  /**
   * A conversation's model the active key's list does not name falls back to what a first start picks
   * (conversationMode.ts#listedModelChange); returns the composer's notice, or undefined when nothing changed.
   */
  private keepToListedModel(conversation: Conversation): string | undefined {
    if (this.modelList === undefined) return undefined;
    const change = listedModelChange(conversation, this.deps.defaults(), this.models, this.modelList.ids);
    if (!change) return undefined;
    const { model: _was, ...overrides } = conversation.overrides;
    conversation.overrides = change.own === undefined ? overrides : { ...overrides, model: change.own };
    this.store.save(conversation);
    this.deps.log?.info(`chat: "${change.from}" is not in the active key's model list; now "${change.to}".`);
    const l10n = this.l10n;
    return l10n.t(
      '"{0}" is not in the model list of the active key: this conversation now uses "{1}".',
      change.from,
      change.to,
    );
  }

  addAttachment(attachment: ChatAttachment): void {
    this.attachments = [...this.attachments, attachment];
    this.out.attachments(this.attachments);
  }

  removeAttachment(id: string): void {
    this.attachments = this.attachments.filter((a) => a.id !== id);
    this.out.attachments(this.attachments);
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
    if (this.answers.slot.holds(id)) this.stop();
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
    const l10n = this.l10n;
    const conversation = this.store.active;
    conversation.overrides = { ...conversation.overrides, ...change };
    this.store.save(conversation);
    const unknownModel = change.model && this.models.length > 0 && !this.models.some((m) => m.id === change.model);
    const warning = unknownModel
      ? l10n.t('"{0}" is not in the model list of your key: it may not be callable.', change.model as string)
      : undefined;
    this.out.settings(conversation.id, this.settingsOf(conversation), warning);
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
    this.out.attachments([]);
    this.append(conversation, user);
    this.answer(conversation);
    return undefined;
  }

  regenerate(messageId: string): string | undefined {
    return this.resend(messageId, 'assistant');
  }

  editAndResend(messageId: string, text: string): string | undefined {
    return this.resend(messageId, 'user', text);
  }

  /** Asks the model to go on from an answer that stopped (max_tokens, stopped, cut off): the answer is the prefill. */
  continueAnswer(messageId: string): string | undefined {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    const conversation = this.store.active;
    const last = conversation.messages[conversation.messages.length - 1];
    if (!last || last.id !== messageId || last.role !== 'assistant' || !last.text.trim())
      return l10n.t('Only the last answer can be continued.');
    if (last.agent && usesAgent(conversation.mode) && CONTINUABLE_END_REASONS.includes(last.agent.end?.reason ?? '')) {
      // A turn cut by a budget goes on from where it stopped: its transcript is sent again, then "Continue".
      const refusal = this.agentRefusal(conversation);
      if (refusal) return refusal;
      this.append(conversation, this.message('user', l10n.t('Continue')));
      this.answer(conversation, true);
      return undefined;
    }
    if (last.agent || usesAgent(conversation.mode))
      return l10n.t('An agent turn is not continued: send a new message (or Retry) instead.');
    last.text = last.text.trimEnd();
    this.answers.run(conversation, last, true);
    return undefined;
  }

  /** Stops the running request (closing its socket) or cancels a queued answer. */
  stop(): void {
    this.answers.stop();
  }

  /** The error card's Retry: a new request for the same question (never automatic after 5xx or timeout). */
  retry(messageId: string): string | undefined {
    return this.regenerate(messageId);
  }

  dispose(): void {
    this.stop();
    this.stopFollowing();
  }

  private stopFollowing: () => void = () => undefined;

  /** Another window changed the history: the list always; the open conversation too while no answer runs here. */
  private showOutsideChange(): void {
    if (this.busy) this.out.conversations(this.store.summaries(), this.store.active.id);
    else this.deps.post({ type: 'snapshot', snapshot: this.snapshot() });
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
    const { cut } = planCondense(conversation.messages);
    const target = [...conversation.messages].reverse().find((m) => m.role === 'assistant');
    if (!cut || !target)
      return l10n.t(
        'Nothing to condense yet: the last {0} questions and their answers are always kept whole.',
        CONDENSE_KEEP_TURNS,
      );
    return this.answers.condense(conversation, target, cut);
  }

  /** The path of one instruction file an answer of the active conversation was sent with (for opening it). */
  instructionFile(messageId: string, index: number): string | undefined {
    return findMessage(this.store.active, messageId)?.instructions?.files[index]?.path;
  }

  // ---- internals ----

  /** Regenerate (an answer) and edit-and-resend (a question, with `text`): the history from there is replaced. */
  private resend(messageId: string, role: 'assistant' | 'user', text?: string): string | undefined {
    const l10n = this.l10n;
    if (this.busy) return l10n.t('A reply is still in progress. Stop it first.');
    const conversation = this.store.active;
    const target = findMessage(conversation, messageId);
    if (!target || target.role !== role)
      return role === 'assistant'
        ? l10n.t('Only an answer can be regenerated.')
        : l10n.t('Only a question can be edited.');
    const refusal = this.agentRefusal(conversation);
    if (refusal) return refusal;
    this.truncate(conversation, messageId);
    if (text !== undefined) {
      const user = this.message('user', text);
      if (target.attachments) user.attachments = target.attachments;
      this.append(conversation, user);
    }
    this.answer(conversation);
    return undefined;
  }

  /** Agent mode needs a trusted workspace: say why instead of silently answering without tools. */
  private agentRefusal(conversation: Conversation): string | undefined {
    if (!usesAgent(conversation.mode)) return undefined;
    const available = this.agentAvailability();
    return available.ok ? undefined : available.reason;
  }

  /** `continued`: the user's Continue after a budget stop (the turn goes on past the daily budget). */
  private answer(conversation: Conversation, continued = false): void {
    const assistant = this.message('assistant', '');
    assistant.status = 'streaming';
    if (usesAgent(conversation.mode) && this.deps.agent)
      assistant.agent = newAgentTurn(conversation.mode, assistant.id, continued);
    this.append(conversation, assistant);
    this.answers.run(conversation, assistant, false);
  }

  private settingsOf(conversation: Conversation): ConversationSettings {
    return modeSettings(conversation, this.deps.defaults(), this.models);
  }

  private message(role: ChatMessage['role'], text: string): ChatMessage {
    return { id: this.deps.newId(), role, text, status: 'complete', createdAt: this.deps.now() };
  }

  private append(conversation: Conversation, message: ChatMessage): void {
    appendMessage(conversation, message, this.deps.now());
    this.store.save(conversation);
    this.out.appended(conversation.id, message);
    this.out.conversations(this.store.summaries(), this.store.active.id);
  }

  private truncate(conversation: Conversation, messageId: string): void {
    const from = conversation.messages.findIndex((m) => m.id === messageId);
    const turnIds = from < 0 ? [] : turnIdsOf(conversation.messages.slice(from));
    truncateFrom(conversation, messageId);
    // Regenerate and edit-and-resend replace these answers for good: what their turns did is not sent again.
    this.forgetTurns(turnIds);
    this.store.save(conversation);
    this.out.truncated(conversation.id, messageId);
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

  /** The active conversation, all of it; one opened under a key that does not list its model is moved first. */
  private postSnapshot(): void {
    const conversation = this.store.active;
    const notice = this.keepToListedModel(conversation);
    this.out.snapshot(this.snapshot());
    if (notice) this.out.settings(conversation.id, this.settingsOf(conversation), notice);
  }
}
