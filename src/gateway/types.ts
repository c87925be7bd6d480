// Public types of the gateway client. Pure: no `vscode` import (see docs/architecture.md#layers).
// Field names of request and response bodies follow the wire format (snake_case) on purpose:
// they are sent and received as they are.

import type { Dispatcher } from 'undici';
import type { Dialect, DialectDecision, DialectKnowledge } from './dialects/dialect';
import type { ImageEditRequest, ImageRequest, ImageResult, ImageTask, ImageTaskRef } from './images/imageTypes';
/** A model's reasoning effort (setting modelGateway.models.reasoning; reasoning.ts says how each dialect sends it). */
export type ReasoningEffort = 'low' | 'medium' | 'high' | 'off';

export type { Dialect, DialectDecision, DialectKnowledge, DialectReason } from './dialects/dialect';

import type { CompletionMode } from './completion/completionMode';

/** What the host knows about each model's dialect, and where it keeps what a refusal taught (dialect.ts). */
export interface DialectSource {
  /** The user's override and the model list's endpoint types for this model, and what was learned before. */
  knowledge(model: string): DialectKnowledge;
  /**
   * A refusal of a dialect's route before any processing made the client send the same request in `dialect`:
   * remember it (per key fingerprint + base URL + model) and tell the user once (it is called each time that
   * happens: two requests may race).
   */
  learned(model: string, dialect: Dialect, evidence: { status?: number; serverMessage?: string; from?: Dialect }): void;
}

/** Where the client reports what it does. The host adapter redacts; the client never passes a key to it. */
export interface Logger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

export interface GatewayClientOptions {
  /** Site root as the user typed it; normalised with normalizeBaseUrl(). */
  baseUrl: string;
  apiKey: string;
  /**
   * Other secrets to remove from every text this client returns (the other stored keys, secret header values),
   * read at each use. The client's own key is always removed.
   */
  secrets?: () => Iterable<string>;
  /** Name of the version header on POST /v1/messages. Default 'anthropic-version'. */
  versionHeader?: string;
  /** Value of the version header. Default '2023-06-01'. */
  version?: string;
  /** No answer (headers, or the next body chunk) within this many ms: a `timeout` error. Default 120 000. */
  timeoutMs?: number;
  /** Retries of safe operations (GET) after 5xx / network errors, and of any request after 429. Default 2. */
  maxRetries?: number;
  /** A 429 asking to wait longer than this is returned as `rate_limited` with retryAfterMs, not slept. Default 60 000. */
  maxRetryWaitMs?: number;
  /** Proxy or test dispatcher. */
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** How edit routes send source images. Default 'json' (data URLs). */
  editEncoding?: 'json' | 'multipart';
  /** Called once per finished HTTP exchange (success or failure) with the five support fields only. */
  onSupportRecord?: (record: SupportRecord) => void;
  /**
   * Called once per billable response that got an answer (a message, complete or cut; images; an accepted image
   * task) with what it used: for the local usage ledger. Never with prompt or answer text.
   */
  onUsage?: (record: UsageRecord) => void;
  /**
   * The user's own headers (name → value), sent on every route (models, chat in each dialect, images, tasks,
   * balance). They never replace the key's auth header, the version header or the body's framing: a name
   * that would makes every call fail with a `bad_request` naming it (requestHeaders.ts).
   */
  headers?: Record<string, string>;
  /** Like `headers`, but secrets: their values are redacted from every text like the key. Win over `headers`. */
  secretHeaders?: Record<string, string>;
  /** Sent as the User-Agent header when set. */
  userAgent?: string;
  /** Backoff between GET retries after 5xx / network errors (and 429 without Retry-After). Default 500 ms → 8 s. */
  retryBackoff?: { baseMs?: number; maxMs?: number };
  /** Poll interval of waitForImageTask when the gateway sends no Retry-After. Default 1 s growing to 10 s. */
  pollBackoff?: { baseMs?: number; maxMs?: number };
  /** Per-model dialect knowledge; without it every model starts on Messages and learns from refusals. */
  dialects?: DialectSource;
  /** The reasoning effort per model (setting modelGateway.models.reasoning); undefined or 'off': none sent. */
  reasoning?: (model: string) => ReasoningEffort | undefined;
}

// ---- Account (src/gateway/balance.ts) ----

/** Which family of billing routes answered. */
export type BalanceRoute = 'new-api' | 'new-api-v1' | 'openrouter' | 'litellm';

/** The gateway's own figures, in its display unit (USD or quota units: never converted here). */
export interface Balance {
  route: BalanceRoute;
  /** What is left; undefined when the gateway states no limit. */
  remaining?: number;
  /** The limit the gateway states (new-api: hard_limit_usd; OpenRouter: limit; LiteLLM: max_budget). */
  limit?: number;
  /** Spent so far, as the gateway counts it. */
  used?: number;
  /** The gateway says the key has no limit (new-api's 100,000,000, OpenRouter's limit null, LiteLLM's max_budget null). */
  unlimited: boolean;
}

/** What one probe found: a balance, "no such route here", or a failure that says nothing about the route. */
export type ProbeResult = { kind: 'balance'; balance: Balance } | { kind: 'none' } | { kind: 'failed' };

/**
 * What a billable request is for: our chat, an agent step (our chat's agent mode or @gateway's), VS Code's chat (@gateway
 * asked, our models in its picker), a sub-agent's step (src/agent/subagents.ts), condensing a conversation, a code
 * completion. Images are told by their route.
 */
export type UsageKind = 'chat' | 'agent' | 'subagent' | 'vscode-chat' | 'condense' | 'completion';

/** What one billable response used (GatewayClientOptions.onUsage). */
export interface UsageRecord {
  route: string;
  /** The wire dialect of a message response (absent: Messages, or an image route). */
  dialect?: Dialect;
  /** What the request was for (RequestOptions.usageKind; 'completion': src/gateway/completion/fim.ts); absent: not said. */
  kind?: UsageKind;
  model: string;
  /** Messages: the usage object as the gateway reported it (usage.cost: the billed cost, when reported). */
  usage?: Usage;
  /** A stopped or cut answer: its output tokens in `usage` are estimated from the text received (none reported). */
  outputEstimated?: boolean;
  /** Image routes: how many images were asked for and returned, and their size ("1024x1024"). */
  images?: { count: number; size?: string };
}

/** The only facts support may ever receive (docs/gateway-protocol.md#support-facts). */
export interface SupportRecord {
  timestamp: string;
  route: string;
  model?: string;
  status?: number;
  requestId?: string;
}

export type GatewayErrorKind =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  | 'bad_request'
  | 'server'
  | 'timeout'
  | 'network'
  | 'protocol'
  | 'aborted';

export interface RequestOptions {
  signal?: AbortSignal;
  /** What the request is for, told to onUsage with its usage (the ledger's kind column). */
  usageKind?: UsageKind;
  /**
   * Told about every wait before the request goes out (a 429's Retry-After, a retry's backoff), so the user can see
   * it; abort `signal` to cancel.
   */
  onWait?: WaitListener;
}

/** One entry of GET /v1/models: `id` is promised, everything else is kept as sent. */
export interface ModelInfo {
  id: string;
  [field: string]: unknown;
}

// ---- Messages ----

export type Role = 'user' | 'assistant';

/** A prompt-cache breakpoint: the prefix up to and including the marked block is cached (docs/gateway-protocol.md). */
export interface CacheControl {
  type: 'ephemeral';
}
export interface TextBlockParam {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}
export interface ImageBlockParam {
  type: 'image';
  // The four formats every vision API takes (the same union as @anthropic-ai/sdk's Base64ImageSource).
  source: { type: 'base64'; media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'; data: string };
  cache_control?: CacheControl;
}
export interface ToolUseBlockParam {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}
export interface ToolResultBlockParam {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<TextBlockParam | ImageBlockParam>;
  is_error?: boolean;
  cache_control?: CacheControl;
}
/**
 * An assistant's reasoning, sent back within the turn that produced it: Messages' thinking with its signature,
 * chat-completions' `reasoning_content` (no signature), or a Responses reasoning item (its summary as the text,
 * its `encrypted_content` as the signature). Earlier turns leave it out (src/chat/agent/agentHistory.ts).
 */
export interface ThinkingBlockParam {
  type: 'thinking';
  thinking: string;
  signature?: string;
}
export type ContentBlockParam =
  TextBlockParam | ImageBlockParam | ToolUseBlockParam | ToolResultBlockParam | ThinkingBlockParam;

export interface MessageParam {
  role: Role;
  content: string | ContentBlockParam[];
}

export interface ToolDefinition {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: MessageParam[];
  system?: string | TextBlockParam[];
  temperature?: number;
  stop_sequences?: string[];
  tools?: ToolDefinition[];
  tool_choice?: { type: 'auto' | 'any' | 'none' } | { type: 'tool'; name: string };
  thinking?: { type: 'enabled'; budget_tokens: number };
  metadata?: Record<string, unknown>;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /**
   * The cost the gateway billed for this response, when it says: OpenRouter's usage.cost, or LiteLLM's
   * x-litellm-response-cost header (copied here by the client). Not part of the Messages API.
   */
  cost?: number;
}

export interface TextBlock {
  type: 'text';
  text: string;
  citations?: unknown[];
}
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
}
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}
export interface ToolUseBlock {
  type: 'tool_use' | 'server_tool_use';
  id: string;
  name: string;
  input: unknown;
}
/** Block types this client does not know are kept as sent. */
export interface OtherBlock {
  type: string;
  [field: string]: unknown;
}
export type ContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | OtherBlock;

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded'
  | (string & {});

export interface Message {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: Usage;
}

/** A tool_use block whose streamed input is not a JSON object (malformed, or cut by max_tokens or a drop). */
export interface ToolInputProblem {
  /** Block index in the message. */
  index: number;
  id?: string;
  name?: string;
  /** The concatenated partial_json exactly as received. */
  raw: string;
  /** Why it is unusable (parser message). */
  reason: string;
}

/** How far a 200 stream got before it was cut (the gateway was reached and had started answering). */
export interface StreamCut {
  /** Characters of text and thinking received. */
  characters: number;
  /** Output tokens the gateway reported in a message_delta before the cut, when it reported any. */
  outputTokens?: number;
  /** 'ended': closed without message_stop; 'dropped': the connection broke; 'stalled': no data in time. */
  how: 'ended' | 'dropped' | 'stalled';
}

/** A raw SSE event of the Messages stream, as parsed from its JSON data (`type` decides its shape). */
export interface StreamEvent {
  type: string;
  [field: string]: unknown;
}

/**
 * A streamed Messages reply. Iterate it for raw events (each once), or just await finalMessage().
 * Errors (HTTP, mid-stream `error` events, a stream cut before message_stop) are GatewayErrors whose
 * `partial` holds the message assembled so far.
 */
export interface MessageStream extends AsyncIterable<StreamEvent> {
  /** Resolves with the assembled message after message_stop; rejects with a GatewayError. */
  finalMessage(): Promise<Message>;
  /** The message assembled so far (a snapshot; usable during and after the stream). */
  currentMessage(): Message | undefined;
  /** Closes the socket at once; pending reads reject with kind 'aborted'. */
  abort(): void;
  /** Request id from the response headers, once they arrived. */
  readonly requestId: string | undefined;
}

// ---- Images (imageTypes.ts) ----

export type {
  ImageQuality,
  ImageRequest,
  ImageInput,
  ImageEditRequest,
  GeneratedImage,
  ImageResult,
  ImageTaskStatus,
  ImageTaskRef,
  ImageTask,
} from './images/imageTypes';

export interface WaitForTaskOptions extends RequestOptions {
  onUpdate?(task: ImageTask): void;
  /** Poll URL from the submission, if any. */
  pollUrl?: string;
  /** Epoch ms after which a still-pending task is returned with `outcomeUnknown` instead of being polled again. */
  deadline?: number;
}

export interface GatewayClient {
  /** Normalised site root. */
  readonly baseUrl: string;
  /** GET /v1/models (paginated where the gateway paginates). */
  listModels(options?: RequestOptions): Promise<ModelInfo[]>;
  /** The dialect a model is called with now, and why (no network). */
  dialectFor?(model: string): DialectDecision;
  /** POST /v1/messages (or /v1/chat/completions or /v1/responses, per the model's dialect) without streaming. */
  createMessage(request: MessagesRequest, options?: RequestOptions): Promise<Message>;
  /** POST /v1/messages (or /v1/chat/completions or /v1/responses, per the model's dialect) with stream: true. */
  streamMessage(request: MessagesRequest, options?: RequestOptions): MessageStream;
  /** POST /v1/images/generations. */
  generateImage(request: ImageRequest, options?: RequestOptions): Promise<ImageResult>;
  /** POST /v1/images/edits. */
  editImage(request: ImageEditRequest, options?: RequestOptions): Promise<ImageResult>;
  /** POST /v1/images/generations/async or /v1/images/edits/async. */
  submitImageTask(kind: 'generation', request: ImageRequest, options?: RequestOptions): Promise<ImageTaskRef>;
  submitImageTask(kind: 'edit', request: ImageEditRequest, options?: RequestOptions): Promise<ImageTaskRef>;
  /** GET /v1/images/tasks/<id>. */
  getImageTask(id: string, options?: RequestOptions & { pollUrl?: string }): Promise<ImageTask>;
  /** Polls until succeeded or failed, honouring Retry-After, backing off otherwise. */
  waitForImageTask(id: string, options?: WaitForTaskOptions): Promise<ImageTask>;
  /** One code completion (fill-in-the-middle or the chat fill): no retries, no 429 wait, abort closes the socket. */
  completeCode?(request: CodeCompletionRequest, options?: RequestOptions): Promise<CodeCompletion>;
  /** Free GETs of the known billing routes (all in order, or only `route`): see balance.ts. */
  readBalance(route?: BalanceRoute, options?: RequestOptions): Promise<ProbeResult>;
}

/**
 * A wait on the gateway's behalf, told to the caller so the user sees it (a countdown) and can cancel
 * (abort the request's signal). Called with the wait when it starts, and once more with `ms: 0` when it ends.
 */
export interface WaitNotice {
  ms: number;
  /** Epoch ms at which the request goes out. */
  until: number;
  route: string;
  /** 'rate_limited': a 429 asked for it (this request's or another one's of the same client); 'backoff': a retry after a failure. */
  reason: 'rate_limited' | 'backoff';
  /** For 'rate_limited': an error describing the 429 (for the same card as a visible queue). */
  error?: Error & { kind: GatewayErrorKind; status?: number };
}

export type WaitListener = (notice: WaitNotice) => void;

/** One code completion asked while typing (src/gateway/completion/fim.ts). */
export interface CodeCompletionRequest {
  model: string;
  /** How to ask (completionMode.ts decides it on the host's side). */
  mode: CompletionMode;
  /** A refusal of the fill-in-the-middle route (404/405/501 about the route) may send the chat fill once. */
  allowChatFallback?: boolean;
  /** Told once, before the chat fill is sent, that the fill-in-the-middle route was refused (remember it then). */
  onFellBack?: (refusal: { status?: number }) => void;
  prefix: string;
  suffix: string;
  maxTokens: number;
  stop?: string[];
  temperature?: number;
  /** Single line (stop at the end of the line) or a block. */
  singleLine: boolean;
  /** For the chat fill's header: the workspace-relative path and the language id. */
  path?: string;
  language?: string;
  /** Snippets of other files (with their path headers), put before the prefix. */
  context?: string;
  /** Completion timeout (ms); default 15 s. */
  timeoutMs?: number;
}

export interface CodeCompletion {
  /** The text to insert at the cursor (may be empty: the model had nothing to add). */
  text: string;
  /** How it was asked in the end (the chat fill after a refusal). */
  mode: CompletionMode;
  route: string;
  model: string;
  usage: Usage;
  /** Set when the fill-in-the-middle route was refused and the chat fill answered instead (remember it). */
  fellBack?: { status?: number };
  /** Bytes of the request body sent (the last attempt). */
  bytesSent: number;
}
