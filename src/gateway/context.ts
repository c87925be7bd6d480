// The per-client state every route shares (options resolved to defaults, redactor, 429 queue).
import type { Dispatcher } from 'undici';
import { normalizeBaseUrl } from '../shared/baseUrl';
import { createRedactor, type Redactor } from '../shared/secretRedaction';
import { checkRequestHeaders } from './requestHeaders';
import { RateLimitQueue, type BackoffOptions } from './retry';
import { RATE_LIMIT_PROFILES } from './rateLimitPolicy';
import type { Dialect } from './dialects/dialect';
import type { DialectSource, GatewayClientOptions, Logger, ReasoningEffort, SupportRecord, UsageRecord } from './types';

export interface ClientContext {
  baseUrl: string;
  /** Set when the configured base URL cannot be used: every call fails with it. */
  baseUrlProblem?: string;
  apiKey: string;
  versionHeader: string;
  version: string;
  timeoutMs: number;
  maxRetries: number;
  maxRetryWaitMs: number;
  dispatcher?: Dispatcher;
  logger?: Logger;
  onSupportRecord?: (record: SupportRecord) => void;
  onUsage?: (record: UsageRecord) => void;
  userAgent?: string;
  /** The user's headers (lower-case names), added to every request. */
  requestHeaders: Record<string, string>;
  /** Set when the user's headers would replace one the client owns: every call fails with it. */
  requestHeadersProblem?: string;
  editEncoding: 'json' | 'multipart';
  redact: Redactor;
  queue: RateLimitQueue;
  backoff: BackoffOptions;
  pollBackoff: BackoffOptions;
  dialects?: DialectSource;
  /** What refusals taught this client (also told to `dialects`, which may persist it). */
  learnedDialects: Map<string, Dialect>;
  /** The reasoning effort the user set for a model (GatewayClientOptions.reasoning). */
  reasoning?: (model: string) => ReasoningEffort | undefined;
}

/** Tells onUsage (a failing listener never breaks a request). */
export function reportUsage(ctx: ClientContext, record: UsageRecord): void {
  try {
    ctx.onUsage?.(record);
  } catch (error) {
    ctx.logger?.warn(`Usage listener failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Resolves client options to a context with every default filled in. */
export function createContext(options: GatewayClientOptions): ClientContext {
  const normalized = normalizeBaseUrl(options.baseUrl);
  const versionHeader = (options.versionHeader ?? '').trim() || 'anthropic-version';
  const secretHeaders = options.secretHeaders ?? {};
  const checked = checkRequestHeaders({ ...options.headers, ...secretHeaders }, versionHeader);
  return {
    baseUrl: normalized.baseUrl,
    baseUrlProblem: normalized.problem,
    apiKey: options.apiKey.trim(),
    versionHeader,
    version: (options.version ?? '').trim() || '2023-06-01',
    timeoutMs: options.timeoutMs ?? 120_000,
    // The client's 429 profile (gateway/rateLimitPolicy.ts); maxRetries also bounds the retries of reads.
    maxRetries: options.maxRetries ?? RATE_LIMIT_PROFILES.client.maxWaits,
    maxRetryWaitMs: options.maxRetryWaitMs ?? RATE_LIMIT_PROFILES.client.maxWaitMs,
    dispatcher: options.dispatcher,
    logger: options.logger,
    onSupportRecord: options.onSupportRecord,
    onUsage: options.onUsage,
    userAgent: options.userAgent,
    requestHeaders: checked.headers,
    requestHeadersProblem: checked.problem,
    editEncoding: options.editEncoding ?? 'json',
    redact: createRedactor(options.apiKey, options.secrets, () => Object.values(secretHeaders)),
    queue: new RateLimitQueue(),
    backoff: { baseMs: options.retryBackoff?.baseMs ?? 500, maxMs: options.retryBackoff?.maxMs ?? 8_000 },
    pollBackoff: { baseMs: options.pollBackoff?.baseMs ?? 1_000, maxMs: options.pollBackoff?.maxMs ?? 10_000 },
    dialects: options.dialects,
    learnedDialects: new Map(),
    reasoning: options.reasoning,
  };
}
