// Runs the chat's answers in the request slot (pure): an Ask answer (askAnswer.ts) or an agent turn (agentAnswer.ts)
// from begin to its end; how it ended goes on the message and to the page; a 429 before any content of an Ask answer
// waits in the slot. The Condense action runs here too, in the same slot, through the one condenser.
import { imageHashes } from '../store/imageStore';
import { DEFAULT_CONTEXT_WINDOW } from '../../agent';
import type { GatewayClient } from '../../gateway/types';
import type { Localizer } from '../../shared/l10n';
import type { ChatCost } from '../../shared/money';
import type { AgentCondensed, ChatMessage, ConversationSettings } from '../../shared/protocol/chat';
import { runAgentAnswer } from '../agent/agentAnswer';
import { instructionsFor } from './answerInstructions';
import { streamAsk } from '../ask/askAnswer';
import { answerWriter, type ChatOutput } from './chatOutput';
import { DEFAULT_CONDENSE_THRESHOLD } from '../condense/condense';
import { condense, type CondenseCut, type CondenseRun } from '../condense/condenser';
import type { Conversation } from './conversation';
import type { ConversationStore } from '../store/conversationStore';
import { nodeTimers } from './deltaBatcher';
import { RequestSlot, type ChatRequest, type SlotAnswer } from './requestSlot';
import { imageBytesOf, toMessageParams, type ImageBytes } from '../ask/requestBuilder';
import type { RecordedCost, SessionDeps } from './sessionDeps';
import { noClientError, noModelError } from './setupChecks';
import type { StreamOutcome } from '../ask/streamAnswer';

type Outcome = StreamOutcome | { status: 'stopped' };

/**
 * The costs the usage ledger recorded for the responses of one request's client, in order (its requests go one at a
 * time): what the chat shows is the figure the ledger holds, computed once, for the route actually called.
 */
function recordedCosts(): { listen: RecordedCost; take(): ChatCost | undefined } {
  let last: ChatCost | undefined;
  return {
    listen: (_record, cost) => {
      last = cost;
    },
    take: () => {
      const cost = last;
      last = undefined;
      return cost;
    },
  };
}

export class AnswerRunner {
  readonly slot: RequestSlot;
  private readonly timers;

  constructor(
    private readonly deps: SessionDeps,
    private readonly store: ConversationStore,
    private readonly out: ChatOutput,
    private readonly settingsOf: (conversation: Conversation) => ConversationSettings,
    private readonly l10n: Localizer,
  ) {
    this.timers = deps.timers ?? nodeTimers;
    this.slot = new RequestSlot({
      timers: this.timers,
      now: deps.now,
      defaultRetryMs: deps.defaultRetryMs,
      onBusy: (busy) => out.busy(busy),
      countdown: ({ conversation, message }, wait) => {
        if (!wait) delete message.error;
        else {
          // It goes out by itself (Stop cancels), so no Retry button that would race the wait.
          const card = deps.errorCard(wait.error);
          const actions = card.actions.filter((a) => a !== 'retry');
          message.error = { ...card, actions, retryAfterMs: wait.ms, queuedUntil: wait.until };
        }
        out.errorCard(conversation.id, message.id, message.error ?? null);
      },
    });
  }

  /** Streams `message` (a new answer, or with `prefill` the answer to go on from) in the slot. */
  run(conversation: Conversation, message: ChatMessage, prefill: boolean, waits = 0): void {
    message.status = 'streaming';
    delete message.error;
    this.out.updated(conversation.id, message);
    const request = this.slot.begin(conversation, message, waits);
    this.stream(request, prefill).catch((error) => this.deps.log?.error('chat answer failed', error));
  }

  /** Stops the running request (closing its socket) or cancels a waiting answer. */
  stop(): void {
    const waiting = this.slot.stop();
    if (!waiting) return;
    delete waiting.message.error;
    this.finish(waiting, { status: 'stopped' });
    this.out.busy(this.slot.busy);
  }

  /**
   * The Condense action's request (its card on `target`): resolves with a sentence to show when it failed, undefined
   * when done or stopped.
   */
  async condense(conversation: Conversation, target: ChatMessage, cut: CondenseCut): Promise<string | undefined> {
    const l10n = this.l10n;
    const request = this.slot.begin(conversation, target);
    try {
      const costs = recordedCosts();
      const client = await this.deps.getClient(costs.listen);
      if (!client || request.signal.aborted) return undefined;
      const settings = this.settingsOf(conversation);
      if (!settings.model) return noModelError(this.l10n).message;
      // As before an answer: the older questions' images are read, so the summary request names each one (after a
      // reload none is in memory yet, and an unread image reads as "no longer stored").
      await this.deps.images?.preload(imageHashes(conversation.messages));
      if (request.signal.aborted) return undefined;
      await condense(cut, this.condenseRun(request, client, settings.model, costs.take));
      return undefined;
    } catch (error) {
      if (request.signal.aborted) return undefined;
      this.deps.log?.error('chat: condensing failed', error);
      return l10n.t('Condensing failed: {0}', error instanceof Error ? error.message : String(error));
    } finally {
      this.slot.end(request);
    }
  }

  private async stream(request: ChatRequest, prefill: boolean): Promise<void> {
    const { conversation, message } = request;
    const settings = this.settingsOf(conversation);
    const write = answerWriter(this.out, request, this.deps.batchMs ?? 24, this.timers, this.deps.secrets);
    const shown = (): void => this.out.updated(conversation.id, message);
    const instructions = () => instructionsFor(this.deps.instructions, message, shown, this.deps.log);
    // Requests are built synchronously (Ask, agent history, condensing): the conversation's images are read first.
    await this.deps.images?.preload(imageHashes(conversation.messages));
    // An agent turn's 429 waits happen inside its loop: a billable turn is never sent again by itself.
    const agent = this.deps.agent;
    if (message.agent && agent) {
      const save = (): void => this.store.save(request.conversation);
      const images = this.images();
      const a = {
        agent,
        settings,
        images,
        instructions,
        out: this.out,
        write,
        now: this.deps.now,
        l10n: this.l10n,
        save,
      };
      return this.end(request, await runAgentAnswer(request, a), false);
    }
    const costs = recordedCosts();
    const client = await this.deps.getClient(costs.listen);
    if (request.signal.aborted) return this.end(request, { status: 'stopped' });
    if (!client)
      return this.end(request, { status: 'error', error: noClientError(this.l10n, this.deps.accessProblem) });
    if (!settings.model) return this.end(request, { status: 'error', error: noModelError(this.l10n) });
    const prompt = await instructions();
    if (request.signal.aborted) return this.end(request, { status: 'stopped' });
    const window = this.deps.contextWindow?.(settings.model, settings.maxTokens) ?? DEFAULT_CONTEXT_WINDOW;
    const outcome = await streamAsk(request, {
      client,
      settings,
      instructions: prompt,
      history: conversation.messages.slice(0, conversation.messages.indexOf(message) + (prefill ? 1 : 0)),
      images: this.images(),
      prefill,
      inputWindow: window - settings.maxTokens,
      threshold: this.deps.condenseThreshold?.() ?? DEFAULT_CONDENSE_THRESHOLD,
      condense: this.condenseRun(request, client, settings.model, costs.take),
      recordedCost: costs.take,
      onWait: (notice) => this.slot.clientWait(request, notice),
      write,
      log: this.deps.log,
    });
    this.end(request, outcome);
  }

  /** The stored images' bytes as requests read them (those read by the last preload; none without a store). */
  private images(): ImageBytes {
    return imageBytesOf(this.deps.images);
  }

  /** What a condensing in this request needs: its client and signal, its cost, and where its card goes. */
  private condenseRun(
    request: ChatRequest,
    client: GatewayClient,
    model: string,
    recordedCost: () => ChatCost | undefined,
  ): CondenseRun {
    const { conversation, message } = request;
    return {
      client,
      model,
      signal: request.signal,
      requestHistory: (older) =>
        this.deps.agent?.requestHistory?.(older, this.images()) ?? toMessageParams([...older], this.images()),
      costOf: recordedCost,
      apply: (condensed: AgentCondensed) => {
        if (message.agent) message.agent.condensed = condensed;
        else message.condensed = condensed;
        this.store.save(conversation);
        this.out.condensed(conversation.id, message.id, condensed);
      },
      progress: (running) => this.out.condensing(conversation.id, message.id, running),
    };
  }

  /** The request ended: an Ask answer refused with 429 before any content waits in the slot; else it is finished. */
  private end(request: ChatRequest, outcome: Outcome, mayWait = true): void {
    const resend = (prefill: boolean, waits: number): void =>
      this.run(request.conversation, request.message, prefill, waits);
    if (mayWait && outcome.status === 'error' && this.slot.waitIfRateLimited(request, outcome.error, resend)) return;
    this.finish(request, outcome);
    this.slot.end(request);
  }

  private finish({ conversation, message }: SlotAnswer, outcome: Outcome): void {
    message.status = outcome.status;
    if ('usage' in outcome && outcome.usage) message.usage = outcome.usage;
    if ('model' in outcome && outcome.model) message.model = outcome.model;
    if (outcome.status === 'complete') message.stopReason = outcome.stopReason;
    if (outcome.status === 'error' || outcome.status === 'cutOff') {
      message.error = this.deps.errorCard(outcome.error);
      this.out.errorCard(conversation.id, message.id, message.error);
    }
    this.out.finished(conversation.id, message);
    conversation.updatedAt = this.deps.now();
    this.store.save(conversation);
  }
}
