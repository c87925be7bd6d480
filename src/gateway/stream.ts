// The streamed Messages reply: SSE parsed with eventsource-parser, events dispatched on their JSON
// `type` (some gateways omit `event:` lines), assembled into a Message. See docs/gateway-protocol.md#messages-stream.
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { reportUsage, type ClientContext } from './context';
import { unfinishedUsageReport } from './usageReport';
import { GatewayError, type GatewayErrorInit } from './errors';
import { kindForErrorType, upstreamOrigin, withoutStack } from './errorBody';
import { MessageAssembler } from './assemble';
import { bytesOf, fromBytes } from './byteText';
import { lastDelta, readChatContent, readTextDelta } from './fastDelta';
import { discardBody, protocolError, readJson, send, transportError, type CallSpec, type Exchange } from './http';
import { asMessage, normalizeToolInputs, toolInputError, withHeaderCost } from './messages';
import { ChatChunkReader } from './chatChunks';
import { messageOfCompletion, toChatRequest } from './chatMapping';
import { isMessagesRouteRefusal, type Dialect } from './dialect';
import { responsesOnlyError, type StreamPlan } from './dialectPlan';
import type {
  Message,
  MessagesRequest,
  MessageStream,
  RequestOptions,
  StreamCut,
  StreamEvent,
  ToolInputProblem,
} from './types';

const MAX_EVENT_BYTES = 32 * 1024 * 1024;
// Read once: a live-binding import is a property getter on every access in CommonJS output.
const LAST_DELTA = lastDelta;

interface Waiter {
  resolve(result: IteratorResult<StreamEvent>): void;
  reject(error: unknown): void;
}

/** Starts POST /v1/messages (or /v1/chat/completions, per `plan`) with stream: true. */
export function openMessageStream(
  ctx: ClientContext,
  request: MessagesRequest,
  options?: RequestOptions,
  plan: StreamPlan = { dialect: 'messages' },
): MessageStream {
  return new GatewayMessageStream(ctx, request, options, plan);
}

/** The call spec of a streamed request in a dialect. */
export function streamSpec(
  ctx: ClientContext,
  request: MessagesRequest,
  dialect: Dialect,
  signal: AbortSignal,
  onWait: RequestOptions['onWait'],
): CallSpec {
  const chat = dialect === 'chat-completions';
  return {
    method: 'POST',
    route: chat ? 'POST /v1/chat/completions' : 'POST /v1/messages',
    url: ctx.baseUrl + (chat ? '/v1/chat/completions' : '/v1/messages'),
    auth: chat ? 'bearer' : 'messages',
    body: JSON.stringify(chat ? toChatRequest(request, true) : { ...request, stream: true }),
    model: request.model,
    signal,
    accept: 'text/event-stream',
    onWait,
  };
}

class GatewayMessageStream implements MessageStream {
  private readonly controller = new AbortController();
  private readonly assembler = new MessageAssembler();
  private spec: CallSpec;
  /** Set while the reply is read as chat-completions chunks. */
  private chat: ChatChunkReader | undefined;
  private readonly done: Promise<Message>;
  private resolveDone!: (m: Message) => void;
  private rejectDone!: (e: GatewayError) => void;
  private settled = false;
  private usageReported = false;
  private failure: GatewayError | undefined;
  private exchange: Exchange | undefined;
  // Events kept for the iterator; dropped when only finalMessage() is wanted.
  private events: StreamEvent[] = [];
  private cursor = 0;
  private keepEvents = true;
  private iterating = false;
  private waiter: Waiter | undefined;
  /** Removes our listener from the caller's signal; called once the stream settles, on every path. */
  private detachOuter: () => void = noop;

  constructor(
    private readonly ctx: ClientContext,
    private readonly request: MessagesRequest,
    private readonly options: RequestOptions | undefined,
    private readonly plan: StreamPlan,
  ) {
    this.spec = streamSpec(
      ctx,
      request,
      plan.dialect === 'chat-completions' ? 'chat-completions' : 'messages',
      this.controller.signal,
      options?.onWait,
    );
    if (plan.dialect === 'chat-completions') this.chat = new ChatChunkReader();
    this.done = new Promise<Message>((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    this.done.catch(() => undefined); // rejections are delivered to whoever awaits finalMessage()
    const outer = options?.signal;
    if (outer?.aborted) this.controller.abort();
    else if (outer) {
      // Callers keep one signal for many streams (a chat session): a listener left behind per stream
      // would pile up (MaxListenersExceededWarning at 11) and keep every finished stream reachable.
      const onAbort = (): void => this.abort();
      outer.addEventListener('abort', onAbort, { once: true });
      this.detachOuter = () => outer.removeEventListener('abort', onAbort);
    }
    void this.run();
  }

  get requestId(): string | undefined {
    return this.exchange?.requestId;
  }

  finalMessage(): Promise<Message> {
    if (!this.iterating) {
      this.keepEvents = false;
      this.events = [];
    }
    return this.done;
  }

  currentMessage(): Message | undefined {
    return this.assembler.hasContent() ? this.withCost(this.assembler.snapshot()) : undefined;
  }

  abort(): void {
    if (this.settled) {
      if (this.exchange) discardBody(this.exchange.body);
      return;
    }
    this.controller.abort();
    if (this.exchange) discardBody(this.exchange.body);
    this.fail({ kind: 'aborted', message: `${this.spec.route} was cancelled.` });
  }

  private async run(): Promise<void> {
    if (this.plan.dialect === 'responses-only') {
      this.fail(responsesOnlyError(this.ctx, this.request.model), true);
      return;
    }
    try {
      this.exchange = await send(this.ctx, this.spec);
    } catch (error) {
      if (this.plan.fallback && !this.settled && error instanceof GatewayError && isMessagesRouteRefusal(error)) {
        // Refused before any processing (nothing generated, nothing billed): the same request, once, over
        // chat-completions. Never again for this stream, whatever that answers.
        this.spec = streamSpec(
          this.ctx,
          this.request,
          'chat-completions',
          this.controller.signal,
          this.options?.onWait,
        );
        this.chat = new ChatChunkReader();
        const fallback = this.plan.fallback;
        try {
          fallback.onFellBack(error);
        } catch {
          // A failing listener must not break the request.
        }
        try {
          this.exchange = await send(this.ctx, this.spec);
        } catch (second) {
          this.fail(second instanceof GatewayError ? second : transportError(this.ctx, this.spec, second), true);
          return;
        }
      } else {
        this.fail(error instanceof GatewayError ? error : transportError(this.ctx, this.spec, error), true);
        return;
      }
    }
    if (this.settled) {
      discardBody(this.exchange.body);
      return;
    }
    const contentType = String(this.exchange.headers['content-type'] ?? '');
    if (/json/i.test(contentType)) await this.readJsonReply(this.exchange);
    else if (/html/i.test(contentType)) this.failProtocol('a web page instead of an event stream (check the base URL)');
    else this.readEvents(this.exchange);
  }

  /** Some gateways ignore stream: true and answer with one JSON message. */
  private async readJsonReply(ex: Exchange): Promise<void> {
    try {
      const body = await readJson(this.ctx, this.spec, ex);
      const message = this.chat ? messageOfCompletion(body) : asMessage(body);
      if (!message) throw protocolError(this.ctx, this.spec, ex, 'expected an event stream or a message');
      const problems = normalizeToolInputs(message);
      if (problems.length) throw toolInputError(this.ctx, this.spec, ex, message, problems);
      this.settled = true;
      this.detachOuter();
      this.withCost(message);
      this.reportUsage(message);
      this.resolveDone(message);
      this.wake();
    } catch (error) {
      this.fail(error instanceof GatewayError ? error : transportError(this.ctx, this.spec, error), true);
    }
  }

  private readEvents(ex: Exchange): void {
    const parser: EventSourceParser = createParser({
      onEvent: (msg) => this.onEvent(msg),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.failProtocol('an event larger than 32 MB');
      },
      maxBufferSize: MAX_EVENT_BYTES,
    });
    const body = ex.body;
    body.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      try {
        parser.feed(bytesOf(chunk));
      } catch {
        this.failProtocol('an unreadable event');
      }
    });
    body.on('end', () => {
      if (this.settled) return;
      try {
        // Ending lines complete a last event sent without its blank line (or held back after a bare \r).
        parser.feed('\n\n');
      } catch {
        this.failProtocol('an unreadable event');
      }
      // A chat-completions stream is whole once its finish_reason arrived (usage and [DONE] may be missing).
      if (!this.settled && this.chat?.finished) this.finishChat();
      if (!this.settled)
        this.failCut(
          errorInit(
            protocolError(
              this.ctx,
              this.spec,
              ex,
              this.chat
                ? 'the stream ended without a finish_reason (the answer is cut off)'
                : 'the stream ended before message_stop (the answer is cut off)',
            ),
          ),
          'ended',
        );
    });
    body.on('error', (error) => {
      if (this.settled) return;
      // After a finish_reason only usage and [DONE] were still to come: the answer itself is whole.
      if (this.chat?.finished) {
        this.finishChat();
        return;
      }
      // The gateway was reached (HTTP 200) and had started answering: this is a cut answer, not an
      // unreachable gateway, whatever the socket error says.
      const e = transportError(this.ctx, this.spec, error, {
        status: ex.status,
        requestId: ex.requestId,
        outcomeUnknown: true,
      });
      this.failCut(errorInit(e), e.kind === 'timeout' ? 'stalled' : 'dropped');
    });
  }

  private onEvent(msg: EventSourceMessage): void {
    if (this.settled) return;
    if (this.chat) {
      this.onChatChunk(msg, this.chat);
      return;
    }
    // Fields arrive as byte strings (see byteText.ts).
    const bytes = readTextDelta(msg.data);
    if (bytes !== undefined && this.assembler.appendTextBytes(LAST_DELTA.index, bytes)) {
      if (this.keepEvents) {
        this.events.push({
          type: 'content_block_delta',
          index: LAST_DELTA.index,
          delta: { type: 'text_delta', text: fromBytes(bytes) },
        });
        this.wake();
      }
      return;
    }
    let ev: StreamEvent;
    try {
      ev = JSON.parse(fromBytes(msg.data)) as StreamEvent;
    } catch {
      return; // not JSON ([DONE], keep-alive words): nothing to assemble
    }
    if (typeof ev !== 'object' || ev === null) return;
    if (typeof ev.type !== 'string') {
      // LiteLLM writes an error after the stream started as a bare `data: {"error": {...}}` line: no
      // event line and no type. An `error` member is what makes it an error.
      if (msg.event === undefined && !Array.isArray(ev) && ev.error !== undefined && ev.error !== null)
        ev.type = 'error';
      else if (msg.event === undefined || Array.isArray(ev)) return;
      else ev.type = fromBytes(msg.event);
    }
    try {
      if (!this.assembler.apply(ev)) return;
    } catch {
      this.failProtocol(`an unreadable ${ev.type} event`);
      return;
    }
    if (this.keepEvents) {
      this.events.push(ev);
      this.wake();
    }
    if (this.assembler.error) this.failMidStream();
    else if (this.assembler.stopped) this.succeed();
  }

  private onChatChunk(msg: EventSourceMessage, reader: ChatChunkReader): void {
    const data = msg.data;
    // Hot path: a plain content delta to the text block already open (see fastDelta.ts#readChatContent).
    const textBlock = reader.textBlock;
    if (textBlock >= 0) {
      const bytes = readChatContent(data);
      if (bytes !== undefined && this.assembler.appendTextBytes(textBlock, bytes)) {
        if (this.keepEvents) {
          this.events.push({
            type: 'content_block_delta',
            index: textBlock,
            delta: { type: 'text_delta', text: fromBytes(bytes) },
          });
          this.wake();
        }
        return;
      }
    }
    if (data.length < 12 && data.trim() === '[DONE]') {
      // one-api writes [DONE] even after a failed upstream read: without a finish_reason the answer is cut.
      if (reader.finished) this.finishChat();
      else
        this.failCut(
          errorInit(
            protocolError(
              this.ctx,
              this.spec,
              this.exchange ?? {},
              '[DONE] arrived without a finish_reason (the answer is cut off)',
            ),
          ),
          'ended',
        );
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(fromBytes(data));
    } catch {
      return; // keep-alive words, comments sent as data
    }
    const events = reader.read(chunk);
    for (const ev of events) {
      try {
        this.assembler.apply(ev);
      } catch {
        this.failProtocol('an unreadable chunk');
        return;
      }
      if (this.keepEvents) this.events.push(ev);
    }
    if (events.length && this.keepEvents) this.wake();
    if (this.assembler.error) this.failMidStream();
  }

  /** The chat-completions answer is whole: the Messages end event, then the usual success path. */
  private finishChat(): void {
    const stop: StreamEvent = { type: 'message_stop' };
    this.assembler.apply(stop);
    if (this.keepEvents) this.events.push(stop);
    this.succeed();
  }

  private succeed(): void {
    // Tool inputs are read by block index until message_stop (fragments may follow a block's stop);
    // one that is not a JSON object now is an error the caller sees, with the raw text kept.
    const problems = this.assembler.toolInputProblems();
    if (problems.length) {
      const e = toolInputError(this.ctx, this.spec, this.exchange ?? {}, this.assembler.snapshot(), problems);
      this.fail({ kind: 'protocol', outcomeUnknown: false, message: e.message });
      return;
    }
    this.settled = true;
    this.detachOuter();
    this.exchange?.finish();
    this.exchange?.body.resume(); // drain whatever follows message_stop so the socket can be reused
    const message = this.withCost(this.assembler.snapshot());
    this.reportUsage(message);
    this.resolveDone(message);
    this.wake();
  }

  /** LiteLLM's cost header, copied to usage.cost (see withHeaderCost). */
  private withCost(message: Message): Message {
    return this.exchange ? withHeaderCost(message, this.exchange.headers) : message;
  }

  /** Once per stream that got an answer (complete, or cut after message_start: the gateway may have billed it). */
  /** `unfinished`: a stopped or cut answer, whose output the gateway has not counted yet (estimated from its text). */
  private reportUsage(message: Message | undefined, unfinished = false): void {
    if (this.usageReported || !message) return;
    this.usageReported = true;
    const { usage, estimated } = unfinished
      ? unfinishedUsageReport(message)
      : { usage: message.usage, estimated: false };
    reportUsage(this.ctx, {
      route: this.spec.route,
      dialect: this.chat ? 'chat-completions' : 'messages',
      model: message.model || (this.spec.model ?? ''),
      usage,
      ...(estimated ? { outputEstimated: true } : {}),
    });
  }

  private failMidStream(): void {
    const e = this.assembler.error ?? {};
    const serverMessage = e.message === undefined ? undefined : this.ctx.redact(withoutStack(e.message));
    this.fail({
      kind: kindForErrorType(e.type),
      serverCode: e.type,
      serverMessage,
      upstream: upstreamOrigin(e),
      message: this.ctx.redact(
        `${this.spec.route}: the gateway reported an error mid-stream: ${e.type ?? 'error'}${serverMessage ? `: ${serverMessage}` : ''}`,
      ),
    });
  }

  private failProtocol(why: string): void {
    this.fail(errorInit(protocolError(this.ctx, this.spec, this.exchange ?? {}, why)));
  }

  /** A 200 stream that stopped before message_stop: how far it got; its outcome (billing) is unknown. */
  private failCut(init: Omit<GatewayErrorInit, 'route'>, how: StreamCut['how']): void {
    const partial = this.currentMessage();
    let characters = 0;
    for (const b of partial?.content ?? []) {
      const r = b as { text?: unknown; thinking?: unknown };
      if (typeof r.text === 'string') characters += r.text.length;
      if (typeof r.thinking === 'string') characters += r.thinking.length;
    }
    const outputTokens = this.assembler.reportedOutputTokens;
    this.fail({
      ...init,
      outcomeUnknown: true,
      cut: { characters, how, ...(outputTokens !== undefined ? { outputTokens } : {}) },
    });
  }

  /** Settles with an error, attaching the partial message; `ready` errors are used as they are. */
  private fail(init: Omit<GatewayErrorInit, 'route'> | GatewayError, ready = false): void {
    if (this.settled) return;
    this.settled = true;
    this.detachOuter();
    const problems: ToolInputProblem[] = [];
    const partial = this.assembler.hasContent() ? this.withCost(this.assembler.snapshot(problems)) : undefined;
    this.reportUsage(partial, true);
    const error =
      ready && init instanceof GatewayError
        ? init
        : new GatewayError({
            ...(init instanceof GatewayError ? errorInit(init) : init),
            route: this.spec.route,
            model: this.spec.model,
            requestId: this.exchange?.requestId,
            status: init.status ?? this.exchange?.status,
            partial,
            toolInputProblems: problems,
          });
    this.failure = error;
    if (this.exchange) discardBody(this.exchange.body);
    this.exchange?.finish(error);
    this.rejectDone(error);
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = undefined;
    this.pull(w);
  }

  private pull(w: Waiter): void {
    if (this.cursor < this.events.length) {
      const value = this.events[this.cursor++];
      if (this.cursor > 1024 && this.cursor * 2 > this.events.length) {
        this.events = this.events.slice(this.cursor);
        this.cursor = 0;
      }
      w.resolve({ value, done: false });
    } else if (this.failure) {
      w.reject(this.failure);
    } else if (this.settled) {
      w.resolve({ value: undefined, done: true });
    } else {
      this.waiter = w;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    this.iterating = true;
    this.keepEvents = true;
    return {
      next: () => new Promise<IteratorResult<StreamEvent>>((resolve, reject) => this.pull({ resolve, reject })),
      return: () => {
        // Leaving the loop early means the answer is not wanted: stop generating (and billing).
        if (!this.settled) this.abort();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

function errorInit(e: GatewayError): Omit<GatewayErrorInit, 'route'> {
  return {
    kind: e.kind,
    message: e.message,
    status: e.status,
    requestId: e.requestId,
    retryAfterMs: e.retryAfterMs,
    outcomeUnknown: e.outcomeUnknown,
    model: e.model,
    serverMessage: e.serverMessage,
    serverCode: e.serverCode,
    cut: e.cut,
    upstream: e.upstream,
    toolInputProblems: e.toolInputProblems,
  };
}

function noop(): void {
  /* no caller signal to detach from */
}
