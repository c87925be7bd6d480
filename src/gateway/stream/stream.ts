// The streamed reply in any dialect: SSE parsed with eventsource-parser; Messages events dispatched on their JSON
// `type` (some gateways omit `event:` lines), other dialects' events read into Messages events by their reader
// (dialectCall.ts), all assembled into a Message. See docs/gateway-protocol.md#messages-stream.
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { reportUsage, type ClientContext } from '../context';
import { unfinishedUsageReport } from '../usageReport';
import { errorInit, GatewayError, type GatewayErrorInit } from '../errors/errors';
import { kindForErrorType, upstreamOrigin, withoutStack } from '../errors/errorBody';
import { MessageAssembler } from './assemble';
import { bytesOf, fromBytes } from './byteText';
import { discardBody, protocolError, readJson, transportError, type CallSpec, type Exchange } from '../http';
import { normalizeToolInputs, toolInputError, withHeaderCost } from './messages';
import type { ChunkReader } from '../dialects/chatChunks';
import type { Dialect } from '../dialects/dialect';
import type { StreamPlan } from '../dialects/dialectPlan';
import { callSpec, sendPlanned, wireOf } from '../dialects/dialectCall';
import { EventQueue } from './eventQueue';
import { EventFeed } from './eventFeed';
import type {
  Message,
  MessagesRequest,
  MessageStream,
  RequestOptions,
  StreamCut,
  StreamEvent,
  ToolInputProblem,
} from '../types';

const MAX_EVENT_BYTES = 32 * 1024 * 1024;
/** From this size an event's data goes to the reader's parseLarge, if it has one. */
const LARGE_EVENT_BYTES = 16 * 1024;

/** Starts the request in the model's dialect (per `plan`) with stream: true. */
export function openMessageStream(
  ctx: ClientContext,
  request: MessagesRequest,
  options?: RequestOptions,
  plan: StreamPlan = { dialect: 'messages', fallbacks: [], listed: false, pinned: true },
): MessageStream {
  return new GatewayMessageStream(ctx, request, options, plan);
}

class GatewayMessageStream implements MessageStream {
  private readonly controller = new AbortController();
  private readonly assembler = new MessageAssembler();
  private spec: CallSpec;
  private dialect: Dialect;
  /** The dialect's event reader, once the reply's headers arrived. */
  private reader: ChunkReader | undefined;
  private readonly done: Promise<Message>;
  private resolveDone!: (m: Message) => void;
  private rejectDone!: (e: GatewayError) => void;
  private settled = false;
  private usageReported = false;
  private failure: GatewayError | undefined;
  private exchange: Exchange | undefined;
  // Events kept for the iterator; dropped when only finalMessage() is wanted.
  private readonly queue = new EventQueue(() => ({ settled: this.settled, failure: this.failure }));
  private iterating = false;
  /** Removes our listener from the caller's signal; called once the stream settles, on every path. */
  private detachOuter: () => void = noop;

  constructor(
    private readonly ctx: ClientContext,
    private readonly request: MessagesRequest,
    private readonly options: RequestOptions | undefined,
    private readonly plan: StreamPlan,
  ) {
    this.dialect = plan.dialect;
    this.spec = callSpec(ctx, request, plan.dialect, true, this.sendOptions());
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
    if (!this.iterating) this.queue.drop();
    return this.done;
  }

  private sendOptions(): RequestOptions {
    return { signal: this.controller.signal, onWait: this.options?.onWait };
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
    try {
      const sent = await sendPlanned(
        this.ctx,
        this.request,
        this.plan,
        true,
        this.sendOptions(),
        (spec, dialect) => {
          this.spec = spec;
          this.dialect = dialect;
        },
        () => !this.settled,
        this.spec,
      );
      this.exchange = sent.exchange;
      this.reader = wireOf(sent.dialect).reader();
    } catch (error) {
      this.fail(error instanceof GatewayError ? error : transportError(this.ctx, this.spec, error), true);
      return;
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
      const message = wireOf(this.dialect).whole(body);
      if (!message) throw protocolError(this.ctx, this.spec, ex, 'expected an event stream or a message');
      const problems = normalizeToolInputs(message);
      if (problems.length) throw toolInputError(this.ctx, this.spec, ex, message, problems);
      this.settled = true;
      this.detachOuter();
      this.withCost(message);
      this.reportUsage(message);
      this.resolveDone(message);
      this.queue.wake();
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
    const feed = new EventFeed(
      parser,
      this.reader ?? { fastBlock: -1 },
      (block, bytes) => this.takeText(block, bytes),
      () => this.failProtocol('an event larger than 32 MB'),
      MAX_EVENT_BYTES,
    );
    const body = ex.body;
    body.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      try {
        feed.feed(bytesOf(chunk));
      } catch {
        this.failProtocol('an unreadable event');
      }
    });
    body.on('end', () => {
      if (this.settled) return;
      try {
        feed.end();
      } catch {
        this.failProtocol('an unreadable event');
      }
      // A chat-completions stream is whole once its finish_reason arrived (usage and [DONE] may be missing).
      if (!this.settled && this.reader?.finished) this.finishChat();
      if (!this.settled)
        this.failCut(
          errorInit(
            protocolError(
              this.ctx,
              this.spec,
              ex,
              this.reader?.cutWhy ?? 'the stream ended before its end event (the answer is cut off)',
            ),
          ),
          'ended',
        );
    });
    body.on('error', (error) => {
      if (this.settled) return;
      // After a finish_reason only usage and [DONE] were still to come: the answer itself is whole.
      if (this.reader?.finished) {
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
    if (this.settled || !this.reader) return;
    const reader = this.reader;
    const data = msg.data;
    // Hot path: a plain text delta to a text block already open (see fastDelta.ts).
    const bytes = reader.fastText(data);
    if (bytes !== undefined && this.takeText(reader.fastBlock, bytes)) return;
    if (reader.doneEnds && data.length < 12 && data.trim() === '[DONE]') {
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
    if (reader.ignores?.(data)) return;
    let chunk: unknown;
    try {
      chunk = (data.length >= LARGE_EVENT_BYTES ? reader.parseLarge?.(data) : undefined) ?? JSON.parse(fromBytes(data));
    } catch {
      return; // not JSON ([DONE], keep-alive words, comments sent as data): nothing to assemble
    }
    const events = reader.read(chunk, msg.event === undefined ? undefined : fromBytes(msg.event));
    let applied = false;
    for (const ev of events) {
      try {
        // Ignored events (ping, unknown ones, anything after the end) are not handed on.
        if (!this.assembler.apply(ev)) continue;
      } catch {
        this.failProtocol(`an unreadable ${String(ev.type)} event`);
        return;
      }
      this.queue.push(ev);
      applied = true;
    }
    if (applied) this.queue.wake();
    if (this.assembler.error) this.failMidStream();
    else if (this.assembler.stopped) this.succeed();
  }

  /** A plain text delta (as a byte string) to the open text block `block`; false when the general path must read it. */
  private takeText(block: number, bytes: string): boolean {
    if (this.settled || !this.assembler.appendTextBytes(block, bytes)) return false;
    if (this.queue.keep) {
      this.queue.push({
        type: 'content_block_delta',
        index: block,
        delta: { type: 'text_delta', text: fromBytes(bytes) },
      });
      this.queue.wake();
    }
    return true;
  }

  /** The chat-completions answer is whole: the Messages end event, then the usual success path. */
  private finishChat(): void {
    const stop: StreamEvent = { type: 'message_stop' };
    this.assembler.apply(stop);
    this.queue.push(stop);
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
    this.queue.wake();
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
      dialect: this.dialect,
      model: message.model || (this.spec.model ?? ''),
      usage,
      ...(this.options?.usageKind ? { kind: this.options.usageKind } : {}),
      ...(estimated ? { outputEstimated: true } : {}),
    });
  }

  private failMidStream(): void {
    const e = this.assembler.error ?? {};
    const serverMessage = e.message === undefined ? undefined : this.ctx.redact(withoutStack(e.message));
    this.fail({
      kind: kindForErrorType(e.type),
      serverCode: e.type === undefined ? undefined : this.ctx.redact(e.type),
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
    this.queue.wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    this.iterating = true;
    this.queue.keep = true;
    return {
      next: () => this.queue.next(),
      return: () => {
        // Leaving the loop early means the answer is not wanted: stop generating (and billing).
        if (!this.settled) this.abort();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

function noop(): void {
  /* no caller signal to detach from */
}
