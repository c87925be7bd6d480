// Async image tasks: submit, read and wait, tolerant of the id / status / result vocabularies of
// docs/gateway-protocol.md#async-image-tasks. The key only ever goes to the base URL's origin.
import { reportUsage, type ClientContext } from '../context';
import { GatewayError, isGatewayError } from '../errors/errors';
import { protocolError, readJson, send, type CallSpec, type Headers } from '../http';
import { editBody, imageFields, imagePost, imagesOf } from './images';
import { parseRetryAfter, sleep } from '../retry';
import type {
  ImageEditRequest,
  ImageRequest,
  ImageTask,
  ImageTaskRef,
  ImageTaskStatus,
  RequestOptions,
  WaitForTaskOptions,
} from '../types';
import { isObj, type Json } from '../json';

const PENDING = new Set([
  'queued',
  'pending',
  'submitted',
  'not_start',
  'processing',
  'in_progress',
  'running',
  'created',
  'starting',
  'waiting',
]);
const SUCCEEDED = new Set(['completed', 'succeeded', 'success', 'complete', 'done', 'finished']);
const FAILED = new Set(['failed', 'failure', 'error', 'cancelled', 'canceled', 'expired', 'timeout']);
const MAX_TRANSIENT_POLL_ERRORS = 5;

const strOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/** The task record of a reply: the body itself, or its `data` object when the gateway wraps it. */
function recordOf(raw: unknown): Json {
  if (!isObj(raw)) return {};
  const data = raw.data;
  if (isObj(data) && ('task_id' in data || 'status' in data || 'id' in data)) return { ...raw, ...data };
  return raw;
}

/** Task id: task_id ?? id ?? data (string) ?? result (string). */
export function taskIdOf(raw: unknown): string | undefined {
  const r = recordOf(raw);
  return strOf(r.task_id) ?? strOf(r.id) ?? strOf((raw as Json | null)?.data) ?? strOf(r.result);
}

/** 'pending' | 'succeeded' | 'failed' from the gateway's status word (case-insensitive). */
export function statusOf(word: string | undefined, hasImages: boolean): ImageTaskStatus {
  const w = (word ?? '').trim().toLowerCase();
  if (SUCCEEDED.has(w)) return 'succeeded';
  if (FAILED.has(w)) return 'failed';
  if (PENDING.has(w)) return 'pending';
  return hasImages ? 'succeeded' : 'pending';
}

/** Progress 0..100 from a number (0..1 read as a fraction) or "NN%". */
export function progressOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  if (!Number.isFinite(n)) return undefined;
  const pct = typeof value === 'number' && n > 0 && n < 1 ? n * 100 : n;
  return Math.max(0, Math.min(100, pct));
}

/** Normalises one task reply. */
export function taskOf(
  raw: unknown,
  fallbackId: string,
  baseUrl: string,
  headers: Headers = {},
  requestId?: string,
): ImageTask {
  const r = recordOf(raw);
  const result = r.result;
  const list =
    (isObj(result) ? (result.data ?? result.images) : undefined) ??
    (Array.isArray(r.data) ? r.data : undefined) ??
    // new-api's async variant can finish as {"data":{"url":…},"created":…}.
    (isObj(r.data) && !('status' in r.data) ? r.data : undefined) ??
    r.results ??
    r.images ??
    // Video-style tasks: output:[{url}].
    r.output ??
    r.image_url ??
    // Midjourney-style (new-api /mj/task/{id}/fetch): camelCase imageUrl.
    r.imageUrl ??
    r.result_url ??
    (typeof result === 'string' || Array.isArray(result) ? result : undefined);
  const images = imagesOf(list, baseUrl);
  const rawStatus = strOf(r.status) ?? strOf(r.state);
  const status = statusOf(rawStatus, images.length > 0);
  const task: ImageTask = { id: taskIdOf(raw) ?? fallbackId, status, images, raw };
  if (rawStatus !== undefined) task.rawStatus = rawStatus;
  const progress = progressOf(r.progress);
  if (progress !== undefined) task.progress = progress;
  if (status === 'failed') {
    task.error = errorText(r) ?? `The task ${rawStatus ?? 'failed'}.`;
    if (rawStatus?.toLowerCase() === 'expired') task.expired = true;
  }
  const expiresAt = timeOf(r.expires_at ?? r.expire_at ?? r.expiresAt);
  if (expiresAt !== undefined) task.expiresAt = expiresAt;
  const retryAfterMs = parseRetryAfter(headers);
  if (retryAfterMs !== undefined) task.retryAfterMs = retryAfterMs;
  if (requestId !== undefined) task.requestId = requestId;
  return task;
}

/** Epoch ms from Unix seconds, epoch ms or an ISO date. */
function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n)) return timeOf(n);
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

/** The failure reason in every spelling real gateways use (kept as sent). */
function errorText(r: Json): string | undefined {
  const e = r.error;
  if (isObj(e)) return strOf(e.message) ?? strOf(e.code);
  return (
    strOf(e) ??
    strOf(r.fail_reason) ??
    strOf(r.failReason) ??
    strOf(r.failure_reason) ??
    strOf(r.error_message) ??
    strOf(r.message)
  );
}

/**
 * An absolute poll URL from poll_url / Location, resolved against the base URL, or undefined when it
 * points to another origin (the key is never sent to another host).
 */
export function resolvePollUrl(baseUrl: string, candidate: string | undefined): string | undefined {
  if (!candidate || !baseUrl) return undefined;
  const base = new URL(baseUrl);
  let url: URL;
  try {
    const prefix = base.pathname.replace(/\/+$/, '');
    const rooted =
      candidate.startsWith('/') && !candidate.startsWith('//') && prefix !== '' && !candidate.startsWith(prefix + '/');
    url = new URL(rooted ? prefix + candidate : candidate, baseUrl + '/');
  } catch {
    return undefined;
  }
  return url.origin === base.origin && url.username === '' ? url.href : undefined;
}

/** POST /v1/images/generations/async or /v1/images/edits/async. */
export async function submitImageTask(
  ctx: ClientContext,
  kind: 'generation' | 'edit',
  req: ImageRequest | ImageEditRequest,
  options?: RequestOptions,
): Promise<ImageTaskRef> {
  const path = kind === 'edit' ? '/v1/images/edits/async' : '/v1/images/generations/async';
  const body = kind === 'edit' ? editBody(req as ImageEditRequest, ctx.editEncoding) : JSON.stringify(imageFields(req));
  const spec = imagePost(ctx, path, body, req.model, options);
  const ex = await send(ctx, spec);
  const raw = await readJson(ctx, spec, ex);
  const id = taskIdOf(raw);
  if (id === undefined) throw protocolError(ctx, spec, ex, 'the task reply has no task id');
  // An accepted task is billed when it is accepted (the images come later, by polling).
  reportUsage(ctx, { route: spec.route, model: req.model, images: { count: req.n ?? 1, size: req.size } });
  const r = recordOf(raw);
  const location = ex.headers['location'];
  const candidate = strOf(r.poll_url) ?? (Array.isArray(location) ? location[0] : location);
  const task = taskOf(raw, id, ctx.baseUrl, ex.headers, ex.requestId);
  const ref: ImageTaskRef = { id, status: task.status, raw };
  const pollUrl = resolvePollUrl(ctx.baseUrl, candidate);
  if (pollUrl !== undefined) ref.pollUrl = pollUrl;
  else if (candidate)
    ctx.logger?.warn(`Ignoring a poll URL on another host for task ${id}: the key is only sent to the base URL.`);
  if (task.retryAfterMs !== undefined) ref.retryAfterMs = task.retryAfterMs;
  if (ex.requestId !== undefined) ref.requestId = ex.requestId;
  return ref;
}

/** GET the task (poll URL when same-origin, else /v1/images/tasks/<id>); a 404 means expired. */
export async function getImageTask(
  ctx: ClientContext,
  id: string,
  options?: RequestOptions & { pollUrl?: string },
): Promise<ImageTask> {
  const url =
    resolvePollUrl(ctx.baseUrl, options?.pollUrl) ?? `${ctx.baseUrl}/v1/images/tasks/${encodeURIComponent(id)}`;
  const spec: CallSpec = {
    method: 'GET',
    route: `GET ${new URL(url).pathname}`,
    url,
    auth: 'bearer',
    signal: options?.signal,
  };
  try {
    const ex = await send(ctx, spec);
    const task = taskOf(await readJson(ctx, spec, ex), id, ctx.baseUrl, ex.headers, ex.requestId);
    // The failure reason and status are the server's text, shown and stored: they pass the redactor like error texts.
    if (task.error !== undefined) task.error = ctx.redact(task.error);
    if (task.rawStatus !== undefined) task.rawStatus = ctx.redact(task.rawStatus);
    return task;
  } catch (error) {
    if (!isGatewayError(error) || error.status !== 404) throw error;
    return {
      id,
      status: 'failed',
      expired: true,
      images: [],
      requestId: error.requestId,
      raw: undefined,
      error: 'The task was not found: it expired, or it belongs to another key.',
    };
  }
}

/**
 * Polls until the task succeeded or failed: Retry-After when sent, else backoff growing 1 s → 10 s. Ends
 * too when a read finds the task still pending after its own expires_at or after `options.deadline`: the
 * task is returned pending with `outcomeUnknown` (never polled forever; the caller says "check the console").
 */
export async function waitForImageTask(
  ctx: ClientContext,
  id: string,
  options: WaitForTaskOptions = {},
): Promise<ImageTask> {
  let polls = 0;
  let transientErrors = 0;
  for (;;) {
    let task: ImageTask;
    try {
      task = await getImageTask(ctx, id, options);
      transientErrors = 0;
    } catch (error) {
      if (!isTransient(error) || ++transientErrors > MAX_TRANSIENT_POLL_ERRORS) throw error;
      await sleep(
        pollDelay(ctx, polls++, (error as GatewayError).retryAfterMs),
        options.signal,
        `GET /v1/images/tasks/${id}`,
      );
      continue;
    }
    options.onUpdate?.(task);
    if (task.status !== 'pending') return task;
    const now = Date.now();
    if (
      (options.deadline !== undefined && now >= options.deadline) ||
      (task.expiresAt !== undefined && now >= task.expiresAt)
    )
      return { ...task, outcomeUnknown: true };
    await sleep(pollDelay(ctx, polls++, task.retryAfterMs), options.signal, `GET /v1/images/tasks/${id}`);
  }
}

function isTransient(error: unknown): boolean {
  return (
    isGatewayError(error) &&
    (error.kind === 'network' ||
      error.kind === 'timeout' ||
      error.kind === 'server' ||
      (error.kind === 'rate_limited' && error.retryAfterMs !== undefined && error.retryAfterMs <= 60_000))
  );
}

function pollDelay(ctx: ClientContext, polls: number, retryAfterMs: number | undefined): number {
  const floor = Math.min(250, ctx.pollBackoff.baseMs);
  if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, floor), ctx.maxRetryWaitMs);
  return Math.min(ctx.pollBackoff.maxMs, Math.round(ctx.pollBackoff.baseMs * 1.5 ** polls));
}
