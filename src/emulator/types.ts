// Public types of the local gateway emulator. Pure Node: no `vscode` import, no dependency on src/gateway
// (the emulator is an independent witness of the protocol, not a mirror of our client).
import type { SeenImage } from './imageSize';

/** Fault switches, per key (admin API / setFaults) or per request (header `x-emulator-fault: <json>`). */
export interface Faults {
  /** Wait this long before answering (headers). */
  delayMs?: number;
  /** Never answer: the request stays open until the client gives up. */
  hang?: boolean;
  /** Streaming: destroy the socket after this many SSE events. */
  dropAfterEvents?: number;
  /** Streaming: send an `error` event after this many SSE events, then end the stream. */
  errorAfterEvents?: number;
  /** Error type of that event, default 'overloaded_error'. */
  errorType?: string;
  /** Streaming: pings and errors are sent as bare `data:` lines without an `event:` line (a gateway quirk). */
  noEventLines?: boolean;
  /** Answer with this HTTP status instead of serving the request (5xx bursts, 429 storms). */
  status?: number;
  /** With `status`: only for the next N requests of the key (per-key faults). Unset = every request. */
  count?: number;
  /** Retry-After seconds sent with `status` (429/503). */
  retryAfter?: number;
  /** The error (from `status`, default 502) is an HTML page as a proxy/CDN would send it. */
  htmlError?: boolean;
  /** GET /v1/models answers 404, as on gateways that serve the Messages route but have no model list. */
  noModelList?: boolean;
  /** Streaming speed override; 0 = as fast as possible. */
  tokensPerSecond?: number;
  /** Async image tasks of this key take this long. */
  taskDurationMs?: number;
  /** Async image tasks of this key end as `failed`. */
  taskFails?: boolean;
  /**
   * While set, this key's async image tasks answer `processing` whatever their age (read at each poll): a test holds a
   * task pending across a step that a loaded machine could outlast, then clears it to let the task complete.
   */
  taskHeld?: boolean;
  /** Write every response in pieces of this many bytes (splits UTF-8 characters and SSE lines across chunks). */
  chunkBytes?: number;
  /** Every model is refused as not available to this key (in the dialect's words: new-api 503 model_not_found, …). */
  modelUnavailable?: boolean;
  /** POST /v1/responses, streaming: `response.failed` after the response was created. */
  responseFailed?: boolean;
  /** Answer this key's requests in a gateway dialect (src/emulator/dialects), e.g. for host tests that share one emulator. */
  dialect?: string;
}

export type Protocol = 'messages' | 'images';

/** Route names used in the request log, the counters and group permissions. */
export type RouteName =
  | 'messages'
  | 'chat.completions'
  | 'responses'
  | 'completions'
  | 'fim.completions'
  | 'models'
  | 'model.info'
  | 'images.generations'
  | 'images.edits'
  | 'images.generations.async'
  | 'images.edits.async'
  | 'images.tasks'
  | 'billing.subscription'
  | 'billing.usage'
  | 'key'
  | 'key.info'
  | 'files'
  | 'unknown';

export interface KeyConfig {
  key: string;
  name: string;
  group: string;
  balance: number;
  /** Charged so far (the account routes report it). */
  spent?: number;
  revoked?: boolean;
  /** Per-key rate limit: at most `requests` per `windowMs` (sliding window). */
  rateLimit?: { requests: number; windowMs: number };
  /** Faults active for this key from the start. */
  faults?: Faults;
}

export interface GroupConfig {
  /** A disabled group answers 403 GROUP_DISABLED to everything. Default true. */
  enabled?: boolean;
  /** Visible model id → upstream model id (a key of `models`). */
  models: Record<string, string>;
  /** Routes this group may call (`models` and `images.tasks` are always allowed). */
  routes: RouteName[];
}

/**
 * What a listed model is when it is neither a Messages nor an image model (dialects hint it in their lists; calls are
 * refused). `responses`: served on POST /v1/responses only (chat-completions answers OpenAI's 404 for it).
 */
export type OtherModelKind = 'embedding' | 'audio' | 'video' | 'rerank' | 'moderation' | 'responses';

export interface UpstreamModel {
  protocol: Protocol;
  /** A model that is neither chat nor image: listed with its gateway's hints, refused on the Messages and image routes. */
  kind?: OtherModelKind;
  displayName?: string;
  /** A scripted agent model (src/emulator/models/agentScript.ts): it also summarises tool_results without directives. */
  agent?: boolean;
  /**
   * Prices published in the model list, per million tokens (and per image), sent as OpenRouter's `pricing` object
   * (USD per token, as strings). A reply or fill of the model is charged at these prices (billing.ts#replyPrice).
   */
  listPrices?: { input: number; output: number; image?: number };
  /** A coder model: serves fill-in-the-middle on /v1/completions (with suffix) and /v1/fim/completions (coder.ts). */
  fim?: boolean;
  /** false: the channel behind this model has no Claude Messages conversion (new-api's dialect refuses /v1/messages for it). */
  messagesConversion?: boolean;
  /**
   * A reasoning model (src/emulator/models/reasoningModel.ts): it reasons on every reply and answers 400 when a tool-calling
   * turn's earlier reasoning does not come back (DeepSeek's thinking mode; Responses reasoning items).
   */
  thinks?: boolean;
  /** false: the model reads no images (a request carrying one gets a 400; LiteLLM's /model/info says supports_vision). */
  vision?: boolean;
  /** The whole context window in tokens, published in the model list as OpenRouter's `context_length`. */
  contextWindow?: number;
}

export interface Prices {
  /** Charged per reply (any chat route) of a model the list prices not (listPrices), at request time. */
  message: number;
  /** Base price of one image at up to 1 megapixel, quality 'medium'. */
  image: number;
  /** Multiplier per quality; unknown qualities cost 1. */
  quality: Record<string, number>;
  /** Per reference (source) image of an edit. */
  referenceImage: number;
  /** Added once per edit request. */
  edit: number;
}

export interface EmulatorConfig {
  keys: KeyConfig[];
  groups: Record<string, GroupConfig>;
  models: Record<string, UpstreamModel>;
  prices: Prices;
  /** The coder model's answer time on the fill-in-the-middle routes (ms; default 0). */
  completions?: { latencyMs?: number };
  messages: {
    /** Name of the version header (default 'anthropic-version'); a request without it gets 400. */
    versionHeader: string;
    acceptedVersions: string[];
    /** Streaming speed; 0 = as fast as possible. */
    tokensPerSecond: number;
    /** Prompt-cache accounting of cache_control breakpoints (default: 1,024 tokens minimum, 5 minutes). */
    promptCache?: { minTokens?: number; ttlMs?: number };
  };
  images: {
    defaultSize: string;
    minSide: number;
    maxSide: number;
    maxN: number;
  };
  tasks: {
    durationMs: number;
    retryAfterSec: number;
    /** A task (and its files) can be read this long after creation; then 404. */
    ttlMs: number;
  };
  /** Request bodies above this many bytes get 413. */
  maxBodyBytes: number;
  /** Gateway dialect for every request (src/emulator/dialects): 'new-api', 'one-api', 'sub2api', 'litellm', 'router',
   *  'html-proxy'; unset or 'default' keeps the emulator's own shapes. A request's `x-emulator-dialect` header wins. */
  dialect?: string;
  /**
   * Path prefix in front of /v1 (a gateway behind a proxy path, e.g. '/proxy/gw'); '' = none.
   * With a prefix, API routes are served only under it. /admin and /files stay at the root.
   */
  basePath: string;
}

export interface RequestLogEntry {
  id: string;
  time: string;
  method: string;
  path: string;
  route: RouteName;
  keyName?: string;
  model?: string;
  status: number;
  billable: boolean;
  stream?: boolean;
  aborted?: boolean;
  durationMs: number;
  /** SSE events written (streaming replies): stops growing once the client is gone. */
  events?: number;
  /** Amount charged to the key's balance by this request. */
  charged?: number;
  /** Upstream model id the visible id mapped to. */
  upstreamModel?: string;
  /** Token usage reported by a Messages reply; inputCostTokens weighs cache writes 1.25× and reads 0.1×. */
  usage?: { input: number; cacheWrite: number; cacheRead: number; output: number; inputCostTokens: number };
  /** The images a chat request carried, every message's in order (format, pixel size, bytes, a hash of the bytes). */
  images?: SeenImage[];
  /** A Messages request's max_tokens, as sent. */
  maxTokens?: number;
  /** An image generation or edit request's size, quality and count, as sent. */
  imageRequest?: { size?: string; quality?: string; n?: number };
}

export interface StartOptions {
  port?: number;
  host?: string;
  config?: EmulatorConfig;
  adminToken?: string;
  log?: (line: string) => void;
  /** Benchmarks: called when a request's headers arrive and when its reply is fully written (performance.now() ms). */
  onTiming?: (t: { phase: 'received' | 'finished'; path: string; at: number }) => void;
}

export interface Emulator {
  /** Site root, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  port: number;
  adminToken: string;
  close(): Promise<void>;
  requests(): RequestLogEntry[];
  /** Billable requests received (any outcome), for one route (name like 'messages' or path like '/v1/messages') or all. */
  billableCount(route?: string): number;
  setFaults(key: string, faults: Faults | null): void;
  /** Log, counters, faults, tasks and keys back to the config. */
  reset(): void;
  /** Current balance of a key (undefined for an unknown key). */
  balance(key: string): number | undefined;
}
