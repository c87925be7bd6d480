// The emulator's HTTP server: request ids, logging, dispatch to admin / files / API routes.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAdmin } from './admin';
import { authenticate, checkGroup } from './auth';
import { defaultConfig } from './config';
import { DIALECT_HEADER, dialectByName, dialectOf, type Dialect } from './dialects';
import { sendError, sendRateLimited } from './errors';
import { sendText } from './http';
import { applyRequestFaults, effectiveFaults } from './faults';
import type { Ctx, ErrorStyle } from './http';
import { findRoute, type RouteDef } from './router';
import { handleFile } from './routes/files';
import { EmulatorState, newId, routeAlias } from './state';
import type { Emulator, Faults, RequestLogEntry, StartOptions } from './types';

export const DEFAULT_ADMIN_TOKEN = 'emulator-admin';

/** Starts an emulator on 127.0.0.1 and a random port unless told otherwise. */
export async function startEmulator(opts: StartOptions = {}): Promise<Emulator> {
  const state = new EmulatorState(opts.config ?? defaultConfig());
  const adminToken = opts.adminToken ?? DEFAULT_ADMIN_TOKEN;
  const server = createServer((req, res) => {
    if (opts.onTiming) watchTiming(opts.onTiming, req, res);
    handle(state, adminToken, opts.log, req, res).catch((err: unknown) => {
      opts.log?.(`emulator: internal error: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'emulator internal error' } }));
    });
  });
  server.keepAliveTimeout = 5000;
  server.requestTimeout = 0; // a hanging request (fault) must stay open until the client gives up
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    adminToken,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    requests: () => state.log.map((e) => ({ ...e })),
    billableCount: (route?: string) => billable(state, route),
    setFaults: (key: string, f: Faults | null) => {
      if (f) state.faults.set(key, { ...f });
      else state.faults.delete(key);
    },
    reset: () => state.reset(),
    balance: (key: string) => state.keys.get(key)?.balance,
  };
}

export function billable(state: EmulatorState, route?: string): number {
  if (route === undefined) return [...state.counters.values()].reduce((a, b) => a + b, 0);
  return state.counters.get(routeAlias(route)) ?? 0;
}

function newCtx(state: EmulatorState, req: IncomingMessage, res: ServerResponse, requestId: string): Ctx {
  let origin = `http://${req.headers.host ?? 'localhost'}`;
  let url: URL;
  try {
    url = new URL(req.url ?? '/', origin);
  } catch {
    origin = 'http://localhost'; // a Host header that is not a host: still answer (404), never crash
    url = new URL((req.url ?? '/').replace(/[^\x21-\x7e]/g, ''), origin);
  }
  const entry: RequestLogEntry = {
    id: requestId,
    time: new Date().toISOString(),
    method: req.method ?? 'GET',
    path: url.pathname,
    route: 'unknown',
    status: 0,
    billable: false,
    durationMs: 0,
  };
  const style: ErrorStyle = url.pathname.includes('messages') ? 'messages' : 'openai';
  return { req, res, requestId, url, route: 'unknown', entry, state, style, faults: {}, origin };
}

async function handle(
  state: EmulatorState,
  adminToken: string,
  log: StartOptions['log'],
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const requestId = newId('req_emu_');
  res.setHeader('request-id', requestId);
  res.setHeader('x-request-id', requestId);
  const ctx = newCtx(state, req, res, requestId);
  if (ctx.url.pathname.startsWith('/admin/') || ctx.url.pathname === '/admin') {
    await handleAdmin(ctx, adminToken);
    return;
  }
  if (ctx.url.pathname.startsWith('/files/')) {
    handleFile(ctx);
    return;
  }
  trackEntry(ctx, log);
  if (!useDialect(ctx)) return;
  const apiPath = stripBasePath(state.config.basePath, ctx.url.pathname);
  if (apiPath !== undefined) ctx.url.pathname = apiPath;
  const { def, wrongMethod } =
    apiPath === undefined ? { def: undefined, wrongMethod: false } : findRoute(ctx.entry.method, apiPath);
  // A gateway of this dialect has no such route at all (a router without a model list).
  if (!def || ctx.dialect?.missingRoutes?.has(def.route) || !servesAccount(ctx, def)) {
    notFound(ctx, wrongMethod);
    return;
  }
  await serveRoute(ctx, def);
}

/** Account routes exist only on gateways of their shape; without a dialect the emulator answers new-api's. */
function servesAccount(ctx: Ctx, def: RouteDef): boolean {
  if (!def.account) return true;
  return (ctx.dialect ? ctx.dialect.account : 'new-api') === def.account;
}

/** Picks the request's dialect and its request-id headers; false when the dialect header named no dialect (400 sent). */
function useDialect(ctx: Ctx): boolean {
  return setDialect(
    ctx,
    () => dialectOf(ctx.req, ctx.state.dialect ?? ctx.state.config.dialect),
    DIALECT_HEADER,
    'invalid_dialect_header',
  );
}

/** Switches to the key's dialect; false when its route is missing there (404 sent) or the name is unknown (400). */
function useKeyDialect(ctx: Ctx, def: RouteDef, name: string): boolean {
  if (!setDialect(ctx, () => dialectByName(name), 'faults.dialect', 'invalid_dialect')) return false;
  if (ctx.dialect?.missingRoutes?.has(def.route)) {
    notFound(ctx, false);
    return false;
  }
  return true;
}

/**
 * Sets the dialect `pick` names and that dialect's request-id headers (in place of the default ones); false when
 * `pick` throws for an unknown name: then a 400 with `code`, the message prefixed by where the name came from.
 */
function setDialect(ctx: Ctx, pick: () => Dialect | undefined, source: string, code: string): boolean {
  try {
    ctx.dialect = pick();
  } catch (err) {
    ctx.req.resume();
    sendError(ctx, 400, `${source}: ${(err as Error).message}.`, code);
    return false;
  }
  const ids = ctx.dialect?.requestIdHeaders?.(ctx.requestId);
  if (ids) {
    ctx.res.removeHeader('request-id');
    ctx.res.removeHeader('x-request-id');
    for (const [name, value] of Object.entries(ids)) ctx.res.setHeader(name, value);
  }
  return true;
}

/** The path without the configured prefix, or undefined when the prefix is missing (then: 404). */
function stripBasePath(basePath: string, path: string): string | undefined {
  if (!basePath) return path;
  return path === basePath || path.startsWith(`${basePath}/`) ? path.slice(basePath.length) || '/' : undefined;
}

/** Reports when a request's headers arrived and when its reply was fully handed to the socket (benchmarks). */
function watchTiming(onTiming: NonNullable<StartOptions['onTiming']>, req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '';
  onTiming({ phase: 'received', path, at: performance.now() });
  res.once('finish', () => onTiming({ phase: 'finished', path, at: performance.now() }));
}

/** Adds the request to the log now (in-flight requests are visible) and completes the entry when it ends. */
function trackEntry(ctx: Ctx, log: StartOptions['log']): void {
  const started = Date.now();
  ctx.state.record(ctx.entry);
  ctx.res.on('close', () => {
    const e = ctx.entry;
    e.status = ctx.res.headersSent ? ctx.res.statusCode : 0;
    e.durationMs = Date.now() - started;
    if (!ctx.res.writableFinished && !ctx.serverDropped) e.aborted = true;
    log?.(
      `${e.method} ${e.path} ${e.status}${e.aborted ? ' aborted' : ''} ${e.id} key=${e.keyName ?? '-'} model=${e.model ?? '-'} ${e.durationMs}ms`,
    );
  });
}

function notFound(ctx: Ctx, wrongMethod: boolean): void {
  ctx.req.resume();
  const path = ctx.entry.path;
  const root = ctx.origin + ctx.state.config.basePath;
  if (wrongMethod) {
    sendError(ctx, 405, `Method ${ctx.entry.method} is not allowed on ${path}.`, 'method_not_allowed');
    return;
  }
  const doubled = path.includes('/v1/v1/')
    ? ' The path has /v1 twice: the base URL must not end in /v1 for Messages clients.'
    : '';
  sendError(
    ctx,
    404,
    `Not found: ${ctx.entry.method} ${path}.${doubled} Check the base URL: Messages clients use the site root (${root}); OpenAI-style clients use ${root}/v1. Routes: /v1/messages, /v1/models, /v1/images/generations[/async], /v1/images/edits[/async], /v1/images/tasks/<id>.`,
    'not_found',
  );
}

/** A gateway that refuses the request before anything else (Portkey without its header): true when it did. */
function refusedByDialect(ctx: Ctx): boolean {
  const refusal = ctx.dialect?.refuseRequest?.(ctx);
  if (!refusal) return false;
  ctx.req.resume();
  sendText(ctx, refusal.status, refusal.body, refusal.contentType, refusal.headers ?? {});
  return true;
}

async function serveRoute(ctx: Ctx, def: RouteDef): Promise<void> {
  ctx.route = ctx.entry.route = def.route;
  ctx.style = def.style;
  if (refusedByDialect(ctx)) return;
  const key = authenticate(ctx, ctx.dialect?.bearerOnly ? 'bearer' : def.auth);
  if (!key) return;
  ctx.key = key;
  let badFaultHeader = false;
  try {
    ctx.faults = effectiveFaults(ctx);
  } catch {
    badFaultHeader = true;
  }
  // A key answered in a dialect (faults.dialect): that gateway's shapes and missing routes (not billable).
  if (!badFaultHeader && ctx.faults.dialect && (!useKeyDialect(ctx, def, ctx.faults.dialect) || refusedByDialect(ctx)))
    return;
  // A route this gateway has but does not implement: refused before any processing, never billable.
  if (ctx.dialect?.notImplemented?.has(def.route)) {
    ctx.req.resume();
    sendError(ctx, 501, 'API not implemented', 'api_not_implemented');
    return;
  }
  if (def.billable) {
    ctx.entry.billable = true;
    ctx.state.countBillable(def.route);
  }
  if (badFaultHeader) {
    sendError(ctx, 400, 'x-emulator-fault: header must be a JSON object.', 'invalid_fault_header');
    return;
  }
  if (!(await applyRequestFaults(ctx))) return;
  if (!checkGroup(ctx)) return;
  const wait = ctx.state.takeRateSlot(key, Date.now());
  if (wait > 0) {
    sendRateLimited(
      ctx,
      wait,
      `Rate limit exceeded for this key: at most ${key.rateLimit!.requests} requests per ${key.rateLimit!.windowMs / 1000} s.`,
    );
    return;
  }
  await def.handler(ctx);
}
