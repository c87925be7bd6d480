// One call spec and one fallback path for every dialect (docs/gateway-protocol.md#dialects): a dialect is a
// route, an auth style, a request mapping, a whole-reply mapping and a stream reader — a new dialect is a new
// entry here plus its mapping and reader, not new branches in stream.ts or messages.ts.
import type { ClientContext } from '../context';
import { GatewayError } from '../errors/errors';
import { send, type CallSpec, type Exchange } from '../http';
import { nextDialect, type Dialect } from './dialect';
import { ROUTES, type StreamPlan } from './dialectPlan';
import { messageOfCompletion, toChatRequest } from './chatMapping';
import { messageOfResponse, toResponsesRequest } from './responsesMapping';
import { ChatChunkReader, type ChunkReader } from './chatChunks';
import { ResponsesEventReader } from './responsesEvents';
import { MessagesEventReader } from './messagesEvents';
import { asMessage } from '../stream/messages';
import {
  REASONING_REJECTED_SENTENCE,
  openAiEffort,
  reasoningRejected,
  thinkingBudget,
  type ReasoningEffort,
} from './reasoning';
import type { AuthStyle } from '../http';
import { DIALECT_TABLE } from '../../shared/dialects';
import type { Message, MessagesRequest, RequestOptions } from '../types';

type Json = Record<string, unknown>;

/** What a dialect is on the wire besides its route (shared/dialects.ts): its auth, mappings and reader. */
interface Wire {
  auth: AuthStyle;
  body(request: MessagesRequest, stream: boolean, effort: ReasoningEffort | undefined): Json;
  /** A whole (non-streamed) reply as a Message, or undefined when it is not one. */
  whole(body: unknown): Message | undefined;
  /** Why a whole reply is not one, in words. */
  notWhole: string;
  /** The stream's event reader. */
  reader(): ChunkReader;
}

/** One entry per dialect of the table (shared/dialects.ts): the compiler asks for a new dialect's. */
const WIRES: Record<Dialect, Wire> = {
  messages: {
    auth: 'messages',
    body(request, stream, effort) {
      const budget = request.thinking ? undefined : thinkingBudget(effort, request.max_tokens);
      if (budget === undefined) return { ...request, stream };
      // Extended thinking takes no temperature other than 1.
      const { temperature: _dropped, ...rest } = request;
      return { ...rest, stream, thinking: { type: 'enabled', budget_tokens: budget } };
    },
    whole: asMessage,
    notWhole: 'the reply is not a message (no content array)',
    reader: () => new MessagesEventReader(),
  },
  'chat-completions': {
    auth: 'bearer',
    body(request, stream, effort) {
      const body = toChatRequest(request, stream);
      const e = openAiEffort(effort);
      if (e) body.reasoning_effort = e;
      return body;
    },
    whole: messageOfCompletion,
    notWhole: 'the reply is not a chat completion (no choices)',
    reader: () => new ChatChunkReader(),
  },
  responses: {
    auth: 'bearer',
    body: (request, stream, effort) => toResponsesRequest(request, stream, effort),
    whole: messageOfResponse,
    notWhole: 'the reply is not a response (no output array)',
    reader: () => new ResponsesEventReader(),
  },
};

/** The reader and reply mapping of a dialect. */
export function wireOf(dialect: Dialect): Pick<Wire, 'whole' | 'notWhole' | 'reader'> {
  return WIRES[dialect];
}

function effortOf(ctx: ClientContext, model: string): ReasoningEffort | undefined {
  try {
    return ctx.reasoning?.(model);
  } catch {
    return undefined; // a failing source sends no effort
  }
}

/** The call spec of a request in a dialect (streamed or whole). */
export function callSpec(
  ctx: ClientContext,
  request: MessagesRequest,
  dialect: Dialect,
  stream: boolean,
  options: RequestOptions | undefined,
): CallSpec {
  const wire = WIRES[dialect];
  return {
    method: 'POST',
    route: ROUTES[dialect],
    url: ctx.baseUrl + DIALECT_TABLE[dialect].path,
    auth: wire.auth,
    body: JSON.stringify(wire.body(request, stream, effortOf(ctx, request.model))),
    model: request.model,
    signal: options?.signal,
    onWait: options?.onWait,
    ...(stream ? { accept: 'text/event-stream' } : {}),
  };
}

export interface Sent {
  exchange: Exchange;
  dialect: Dialect;
  spec: CallSpec;
}

/**
 * Sends the request in the plan's dialect; when that route is refused before any processing (dialect.ts#nextDialect),
 * the same request once on each next dialect the plan allows (or on Responses when the answer points there), telling
 * the plan. `onSpec` hears each spec before it is
 * sent (the stream keeps it for its errors); `wanted` is asked before a fallback (a stopped stream sends no more);
 * `first` is the plan's first spec when the caller built it already.
 * Throws what the last send threw.
 */
export async function sendPlanned(
  ctx: ClientContext,
  request: MessagesRequest,
  plan: StreamPlan,
  stream: boolean,
  options: RequestOptions | undefined,
  onSpec: (spec: CallSpec, dialect: Dialect) => void = () => undefined,
  wanted: () => boolean = () => true,
  first?: CallSpec,
): Promise<Sent> {
  let dialect = plan.dialect;
  const tried: Dialect[] = [];
  // The first spec may be built already (the stream keeps one for its errors): the body is serialised once.
  let ready = first;
  for (;;) {
    const spec = ready ?? callSpec(ctx, request, dialect, stream, options);
    ready = undefined;
    onSpec(spec, dialect);
    tried.push(dialect);
    try {
      return { exchange: await send(ctx, spec), dialect, spec };
    } catch (error) {
      const to =
        error instanceof GatewayError && wanted()
          ? nextDialect(dialect, plan.fallbacks, error, { ...plan, tried })
          : undefined;
      if (to === undefined) throw withReasoningSentence(ctx, request.model, error);
      try {
        plan.onFellBack?.(dialect, to, error as GatewayError);
      } catch {
        // A failing listener must not break the request.
      }
      dialect = to;
    }
  }
}

/** A 400 that rejects the reasoning effort this client sent gets one sentence saying so (it is not retried). */
function withReasoningSentence(ctx: ClientContext, model: string, error: unknown): unknown {
  if (!(error instanceof GatewayError) || !effortOf(ctx, model) || effortOf(ctx, model) === 'off') return error;
  if (!reasoningRejected(error.status, error.serverMessage)) return error;
  error.message = `${error.message} ${REASONING_REJECTED_SENTENCE}`;
  return error;
}
