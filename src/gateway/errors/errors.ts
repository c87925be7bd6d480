// The one error type of the gateway client. Every failure of every route becomes a GatewayError.
import type { GatewayErrorKind, Message, StreamCut, SupportRecord, ToolInputProblem } from '../types';

export interface GatewayErrorInit {
  kind: GatewayErrorKind;
  /** Route as 'METHOD /v1/path' (never the full URL with a query, never a key). */
  route: string;
  message: string;
  status?: number;
  requestId?: string;
  retryAfterMs?: number;
  /** True when the request may have been processed (and charged) although no answer arrived. */
  outcomeUnknown?: boolean;
  model?: string;
  /** The server's own message, when its body had one. */
  serverMessage?: string;
  /** The server's own code or error type (e.g. INSUFFICIENT_BALANCE, rate_limit_error). */
  serverCode?: string;
  /** For streams: the message assembled before the failure. */
  partial?: Message;
  /** Tool inputs that could not be read as JSON objects (raw text kept); their blocks in `partial` hold {}. */
  toolInputProblems?: ToolInputProblem[];
  /** Set when a 200 stream was cut mid-way: the gateway was reached, the outcome (billing) is unknown. */
  cut?: StreamCut;
  /** Why the error is thought to come from the gateway's upstream provider, not from the gateway itself. */
  upstream?: string;
  cause?: unknown;
}

export class GatewayError extends Error {
  readonly kind: GatewayErrorKind;
  readonly route: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly outcomeUnknown: boolean;
  readonly model?: string;
  readonly serverMessage?: string;
  readonly serverCode?: string;
  readonly partial?: Message;
  readonly toolInputProblems?: ToolInputProblem[];
  readonly cut?: StreamCut;
  readonly upstream?: string;
  readonly timestamp: string;

  constructor(init: GatewayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'GatewayError';
    this.kind = init.kind;
    this.route = init.route;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.model = init.model;
    this.serverMessage = init.serverMessage;
    this.serverCode = init.serverCode;
    this.partial = init.partial;
    if (init.toolInputProblems?.length) this.toolInputProblems = init.toolInputProblems;
    if (init.cut) this.cut = init.cut;
    if (init.upstream) this.upstream = init.upstream;
    this.timestamp = new Date().toISOString();
  }

  /** Exactly the five fields support may see: timestamp, route, model, HTTP status, request id. */
  supportRecord(): SupportRecord {
    const record: SupportRecord = { timestamp: this.timestamp, route: this.route };
    if (this.model !== undefined) record.model = this.model;
    if (this.status !== undefined) record.status = this.status;
    if (this.requestId !== undefined) record.requestId = this.requestId;
    return record;
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return (
    value instanceof GatewayError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { name?: unknown }).name === 'GatewayError' &&
      'kind' in value)
  );
}

/** The fields of an error, to build another one from it (a stream's failure with its partial). */
export function errorInit(e: GatewayError): Omit<GatewayErrorInit, 'route'> {
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

/**
 * A stream whose tool inputs could not be read, for readers of the events outside the client (VS Code's chat provider
 * maps them itself): the same kind and words as the client's own check.
 */
export function unusableToolInputError(problems: ToolInputProblem[], route = 'POST /v1/messages'): GatewayError {
  const list = problems.map((p) => `"${p.name ?? 'tool'}": ${p.reason}`).join('; ');
  return new GatewayError({
    kind: 'protocol',
    route,
    toolInputProblems: problems,
    message: `${route}: unusable tool input: ${list}.`,
  });
}
