// The chat's one request at a time (pure): an answer, an agent turn or a condensing holds the slot from begin to end;
// Stop aborts its one AbortController. A 429 wait is the slot's too: the client's own wait before sending again shows
// its countdown, and an Ask answer refused with 429 before any content waits in the slot (still busy) until it goes
// out again by itself. Every exit goes through end(), which reports whether the chat is still busy.
import type { WaitNotice } from '../../gateway/types';
import { RATE_LIMIT_PROFILES, rateLimitWait } from '../../gateway/rateLimitPolicy';
import type { ChatMessage } from '../../shared/protocol/chat';
import type { Conversation } from './conversation';
import type { Timers } from './deltaBatcher';

/**
 * How often one answer waits out a 429 and goes out again by itself (the chat's profile, gateway/rateLimitPolicy.ts;
 * the client's own retries are off for the chat: one owner of waiting). After that, Retry is the user's call.
 */
export const MAX_RATE_LIMIT_WAITS = RATE_LIMIT_PROFILES.chat.maxWaits;

/** The request holding the slot. */
export interface ChatRequest {
  readonly conversation: Conversation;
  /** The answer it writes (a condensing: the answer its card goes on). */
  readonly message: ChatMessage;
  /** Aborted by Stop: closes the socket, ends a wait, cancels a running tool. */
  readonly signal: AbortSignal;
  /** How many 429 waits this answer already had (each ended in sending it again). */
  readonly waits: number;
  /** Sends the deltas not posted yet (before a snapshot, which already holds them); set by whoever streams. */
  flush(): void;
}

interface Running extends ChatRequest {
  abort(): void;
}

/** An answer and its conversation (a request that waits, or waited). */
export type SlotAnswer = Pick<ChatRequest, 'conversation' | 'message'>;

export interface RequestSlotOptions {
  timers: Timers;
  now(): number;
  /** Told when the slot is taken (true) and after each end (whether a wait still holds it). */
  onBusy(busy: boolean): void;
  /** Shows the countdown card of a 429 wait on the answer (`wait`), or clears it (undefined). */
  countdown(answer: SlotAnswer, wait?: { error: unknown; ms: number; until: number }): void;
  /** The wait after a 429 that named no Retry-After (default: the chat's profile, gateway/rateLimitPolicy.ts). */
  defaultRetryMs?: number;
}

export class RequestSlot {
  private running: Running | undefined;
  private waiting: (SlotAnswer & { timer: unknown }) | undefined;

  constructor(private readonly o: RequestSlotOptions) {}

  get busy(): boolean {
    return this.running !== undefined || this.waiting !== undefined;
  }

  /** True when a request of this conversation runs or waits. */
  holds(conversationId: string): boolean {
    return this.running?.conversation.id === conversationId || this.waiting?.conversation.id === conversationId;
  }

  begin(conversation: Conversation, message: ChatMessage, waits = 0): ChatRequest {
    const controller = new AbortController();
    const request: Running = {
      conversation,
      message,
      signal: controller.signal,
      waits,
      abort: () => controller.abort(),
      flush: () => undefined,
    };
    this.running = request;
    this.o.onBusy(true);
    return request;
  }

  /** The request is over (call after posting how it ended): the slot is free unless an answer waits. */
  end(request: ChatRequest): void {
    if (this.running === request) this.running = undefined;
    this.o.onBusy(this.busy);
  }

  /** Flushes the running request's deltas. */
  flush(): void {
    this.running?.flush();
  }

  /** Stop: aborts the running request; returns the waiting answer, cancelled (the caller ends it as stopped). */
  stop(): SlotAnswer | undefined {
    this.running?.abort();
    const waiting = this.waiting;
    if (!waiting) return undefined;
    this.o.timers.clearTimeout(waiting.timer);
    this.waiting = undefined;
    return { conversation: waiting.conversation, message: waiting.message };
  }

  /** The client waits before sending again (a 429's Retry-After): its countdown, cleared when the wait is over. */
  clientWait(request: ChatRequest, notice: WaitNotice): void {
    if (request.signal.aborted) return;
    if (notice.ms > 0) this.o.countdown(request, { error: notice.error ?? notice, ms: notice.ms, until: notice.until });
    else if (request.message.error?.queuedUntil) this.o.countdown(request);
  }

  /**
   * A 429 before any content: the answer waits in the slot for Retry-After (its countdown shown), then `resend`
   * sends it again (with its count of waits). False (nothing done) for any other error, once the answer waited
   * MAX_RATE_LIMIT_WAITS times, or for a longer wait than the chat's profile sits through: then it ends with its card,
   * and Retry is the user's.
   */
  waitIfRateLimited(request: ChatRequest, cause: unknown, resend: (prefill: boolean, waits: number) => void): boolean {
    const profile = {
      ...RATE_LIMIT_PROFILES.chat,
      defaultWaitMs: this.o.defaultRetryMs ?? RATE_LIMIT_PROFILES.chat.defaultWaitMs,
    };
    const ms = rateLimitWait(cause, request.waits + 1, profile);
    if (ms === undefined) return false;
    const { conversation, message } = request;
    const prefill = message.text.length > 0;
    message.status = 'queued';
    this.o.countdown(request, { error: cause, ms, until: this.o.now() + ms });
    if (this.running === request) this.running = undefined;
    const timer = this.o.timers.setTimeout(() => {
      if (this.waiting?.message !== message) return;
      this.waiting = undefined;
      this.o.countdown({ conversation, message });
      resend(prefill, request.waits + 1);
    }, ms);
    this.waiting = { conversation, message, timer };
    return true;
  }
}
