// The key's balance where the gateway offers one (docs/gateway-protocol.md#balance-and-cost). Pure: the
// parsers read each known shape, readBalance() tries the known routes in a fixed order with free GETs, and
// BalanceMemory decides when to ask again (once per key and base URL, at most every few minutes, or after a balance
// error) and remembers which route answered, or that none did, so a gateway without one is never asked again.
import type { ClientContext } from './context';
import { discardBody, readCapped, send, type CallSpec } from './http';
import type { Balance, BalanceRoute, ProbeResult, RequestOptions } from './types';

export type { Balance, BalanceRoute, ProbeResult } from './types';
import { english, type Localizer } from '../shared/l10n';
import { isObj } from './json';

/** The fixed order of the probe: the most common gateway family first. */
export const BALANCE_ROUTES: readonly BalanceRoute[] = ['new-api', 'new-api-v1', 'openrouter', 'litellm'];

/** new-api / one-api report an unlimited token as this amount. */
export const UNLIMITED_AMOUNT = 100_000_000;

const PATHS: Record<BalanceRoute, string> = {
  'new-api': '/dashboard/billing/subscription',
  'new-api-v1': '/v1/dashboard/billing/subscription',
  // OpenRouter's Messages base URL is https://openrouter.ai/api, so its /api/v1/key is <base>/v1/key.
  openrouter: '/v1/key',
  litellm: '/key/info',
};
const USAGE_PATHS: Partial<Record<BalanceRoute, string>> = {
  'new-api': '/dashboard/billing/usage',
  'new-api-v1': '/v1/dashboard/billing/usage',
};
// Billing answers are a few hundred bytes; anything larger is not one.
const BALANCE_BODY_CAP = 64 * 1024;

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};
const round = (n: number): number => Math.round(n * 1e6) / 1e6;

/**
 * new-api / one-api: `subscription.hard_limit_usd` is the key's total (remaining + used, in one-api and new-api
 * today), `usage.total_usage` the used amount × 100. Without the usage answer the limit is shown as it is.
 */
export function parseNewApi(subscription: unknown, usage: unknown): Omit<Balance, 'route'> | undefined {
  if (!isObj(subscription)) return undefined;
  const limit = num(subscription.hard_limit_usd);
  if (limit === undefined || (subscription.object !== undefined && subscription.object !== 'billing_subscription'))
    return undefined;
  if (limit >= UNLIMITED_AMOUNT) return { unlimited: true };
  const total = isObj(usage) ? num(usage.total_usage) : undefined;
  if (total === undefined) return { limit, remaining: limit, unlimited: false };
  const used = round(total / 100);
  return { limit, used, remaining: round(limit - used), unlimited: false };
}

/** OpenRouter `GET /api/v1/key`: {data:{limit, usage, limit_remaining}}; a null limit is unlimited. */
export function parseOpenRouter(body: unknown): Omit<Balance, 'route'> | undefined {
  const data = isObj(body) && isObj(body.data) ? body.data : undefined;
  if (!data || !('usage' in data || 'limit' in data)) return undefined;
  const used = num(data.usage);
  const limit = num(data.limit);
  if (limit === undefined) return { used, unlimited: true };
  return {
    limit,
    used,
    remaining: num(data.limit_remaining) ?? (used !== undefined ? round(limit - used) : limit),
    unlimited: false,
  };
}

/** LiteLLM `GET /key/info`: {key, info:{spend, max_budget}}; a null max_budget is unlimited. */
export function parseLiteLlm(body: unknown): Omit<Balance, 'route'> | undefined {
  const info = isObj(body) && isObj(body.info) ? body.info : undefined;
  if (!info || !('spend' in info)) return undefined;
  const used = num(info.spend);
  const limit = num(info.max_budget);
  if (limit === undefined) return { used, unlimited: true };
  return { limit, used, remaining: round(limit - (used ?? 0)), unlimited: false };
}

/**
 * Asks the gateway for the balance: the remembered route only, or (route undefined) every known route in order
 * until one answers. A 404, an HTML page, a non-JSON or unknown body, or a refusal means "not offered here".
 * Probes never retry and leave no support record (a missing billing route is not a connection problem).
 */
export async function readBalance(
  ctx: ClientContext,
  route: BalanceRoute | undefined,
  options?: RequestOptions,
): Promise<ProbeResult> {
  const quiet: ClientContext = { ...ctx, maxRetries: 0, onSupportRecord: undefined };
  for (const r of route ? [route] : BALANCE_ROUTES) {
    const first = await getJson(quiet, PATHS[r], options);
    if (first.kind === 'failed') return first;
    if (first.kind === 'none') continue;
    let parsed: Omit<Balance, 'route'> | undefined;
    if (r === 'openrouter') parsed = parseOpenRouter(first.body);
    else if (r === 'litellm') parsed = parseLiteLlm(first.body);
    else {
      const usagePath = USAGE_PATHS[r]!;
      const usage = parseNewApi(first.body, undefined) ? await getJson(quiet, usagePath, options) : undefined;
      if (usage?.kind === 'failed') return usage;
      parsed = parseNewApi(first.body, usage?.kind === 'json' ? usage.body : undefined);
    }
    if (parsed) return { kind: 'balance', balance: { route: r, ...parsed } };
  }
  return { kind: 'none' };
}

// Cancelled, unreachable, timed out, rate limited, a server error or a refused key: nothing learned about the route.
const FAILED_KINDS = new Set(['aborted', 'network', 'timeout', 'rate_limited', 'server', 'auth']);

async function getJson(
  ctx: ClientContext,
  path: string,
  options?: RequestOptions,
): Promise<{ kind: 'json'; body: unknown } | { kind: 'none' } | { kind: 'failed' }> {
  const spec: CallSpec = {
    method: 'GET',
    route: `GET ${path}`,
    url: ctx.baseUrl + path,
    auth: 'bearer',
    signal: options?.signal,
  };
  let ex;
  try {
    ex = await send(ctx, spec);
  } catch (error) {
    const e = error as { kind?: string; status?: number };
    // Cancelled, unreachable, timed out, rate limited or a server error: nothing learned about the route.
    // A 401 says the key was not accepted, not that the route is missing. No status at all: nothing was
    // answered (e.g. request headers the client refused to send).
    return FAILED_KINDS.has(e.kind ?? '') || e.status === undefined ? { kind: 'failed' } : { kind: 'none' };
  }
  const type = String(ex.headers['content-type'] ?? '');
  if (!/json/i.test(type)) {
    discardBody(ex.body);
    ex.finish();
    return { kind: 'none' };
  }
  try {
    const text = await readCapped(ex.body, BALANCE_BODY_CAP, 'throw');
    ex.finish();
    return { kind: 'json', body: JSON.parse(text) as unknown };
  } catch {
    ex.finish();
    return { kind: 'none' };
  }
}

/** How often the balance is read again without a balance error. */
export const BALANCE_REFRESH_MS = 5 * 60_000;

export interface BalanceEntry {
  /** The route that answered; null: none did (never asked again for this key and base URL). */
  route: BalanceRoute | null;
  balance?: Balance;
  checkedAt: number;
}

export type ProbeFn = (route: BalanceRoute | undefined) => Promise<ProbeResult>;

/**
 * What is known per key fingerprint + base URL, and the one rule of when to probe: never when a probe is running
 * (callers share it), never when no route answered before, else when the last answer is older than
 * BALANCE_REFRESH_MS or a balance error asked for a refresh.
 */
export class BalanceMemory {
  private readonly entries = new Map<string, BalanceEntry>();
  private readonly running = new Map<string, Promise<Balance | undefined>>();
  private readonly stale = new Set<string>();

  /**
   * `saved`: what an earlier window knew (its `onChange` output), so the status bar has the last balance after a
   * reload without a request; `onChange`: called with every entry after each probe, to keep them.
   */
  constructor(
    private readonly now: () => number = Date.now,
    saved: ReadonlyArray<[string, BalanceEntry]> = [],
    private readonly onChange?: (entries: Array<[string, BalanceEntry]>) => void,
  ) {
    for (const [k, entry] of saved) if (validEntry(entry)) this.entries.set(k, entry);
  }

  /** The last balance known, without network. */
  peek(fingerprint: string, baseUrl: string): Balance | undefined {
    return this.entries.get(keyOf(fingerprint, baseUrl))?.balance;
  }

  /** True when no known route answered for this key and base URL. */
  unavailable(fingerprint: string, baseUrl: string): boolean {
    return this.entries.get(keyOf(fingerprint, baseUrl))?.route === null;
  }

  /** A balance error happened: the next get() reads again (once). */
  invalidate(fingerprint: string, baseUrl: string): void {
    this.stale.add(keyOf(fingerprint, baseUrl));
  }

  /**
   * The balance, probing only when the rule above says so; `fresh`: read now when a route is known or none was tried
   * (Check Connection, whose report says the figures were just read: a cached one would be labelled as new).
   */
  async get(
    fingerprint: string,
    baseUrl: string,
    probe: ProbeFn,
    options?: { fresh?: boolean },
  ): Promise<Balance | undefined> {
    const k = keyOf(fingerprint, baseUrl);
    const running = this.running.get(k);
    if (running) return running;
    const entry = this.entries.get(k);
    const due =
      !entry || options?.fresh === true || this.stale.has(k) || this.now() - entry.checkedAt >= BALANCE_REFRESH_MS;
    if (entry?.route === null || !due) return entry?.balance;
    this.stale.delete(k);
    const task = probe(entry?.route ?? undefined)
      .then((result) => {
        if (result.kind === 'balance')
          this.entries.set(k, { route: result.balance.route, balance: result.balance, checkedAt: this.now() });
        // A remembered route that stopped answering is forgotten (the next get() searches every route again).
        else if (result.kind === 'none' && entry?.route) this.entries.delete(k);
        else if (result.kind === 'none') this.entries.set(k, { route: null, checkedAt: this.now() });
        this.onChange?.([...this.entries]);
        return this.entries.get(k)?.balance;
      })
      .finally(() => this.running.delete(k));
    this.running.set(k, task);
    return task;
  }
}

const keyOf = (fingerprint: string, baseUrl: string): string => `${fingerprint} ${baseUrl}`;

/** An entry kept by an earlier window, checked before use (globalState is ours, but may be from an older version). */
function validEntry(entry: unknown): entry is BalanceEntry {
  const e = entry as Partial<BalanceEntry> | undefined;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.checkedAt === 'number' &&
    (e.route === null || (typeof e.route === 'string' && BALANCE_ROUTES.includes(e.route))) &&
    (e.balance === undefined || (typeof e.balance === 'object' && e.balance !== null))
  );
}

/**
 * The sentence a balance refusal (402, or a 403 about quota) adds to its card: the last figures only when they agree
 * with the refusal (nothing left). A figure that says there is balance left was read before the refusal and is stale:
 * quoting it ("100 left of 100" under "not enough balance") contradicts the card, so the card says it is read again.
 */
export function balanceNoteAfterRefusal(balance: Balance | undefined, l10n: Localizer = english): string {
  const left = balance && !balance.unlimited ? (balance.remaining ?? balance.limit) : undefined;
  if (balance && left !== undefined && left <= 0)
    return l10n.t('Last balance the gateway reported: {0}.', describeBalance(balance, l10n));
  return l10n.t('The balance is read again now; the status bar tooltip shows it.');
}

/** The balance in one line, as the gateway states it (its unit: never called dollars here). */
export function describeBalance(b: Balance, l10n: Localizer = english): string {
  const f = (n: number): string => String(Math.round(n * 10_000) / 10_000);
  if (b.unlimited) return b.used !== undefined ? l10n.t('unlimited (used {0})', f(b.used)) : l10n.t('unlimited');
  const remaining = b.remaining ?? b.limit ?? 0;
  if (b.limit !== undefined && b.used !== undefined)
    return l10n.t('{0} left of {1} (used {2})', f(remaining), f(b.limit), f(b.used));
  return l10n.t('{0} left', f(remaining));
}

/** Which route the figures came from, for the tooltip and Check Connection. */
export const BALANCE_ROUTE_PATHS: Record<BalanceRoute, string> = {
  'new-api': 'GET /dashboard/billing/subscription',
  'new-api-v1': 'GET /v1/dashboard/billing/subscription',
  openrouter: 'GET /v1/key',
  litellm: 'GET /key/info',
};

/**
 * The entries to store (globalState is one per machine): this window's, plus those another window stored since
 * `loadedAt` for keys this window does not hold. An older stored entry this window lacks was loaded here and then
 * dropped (its route stopped answering), so it stays dropped. For a key both hold, the newer check wins.
 */
export function mergeBalanceEntries(
  stored: unknown,
  mine: ReadonlyArray<[string, BalanceEntry]>,
  loadedAt: number,
): Array<[string, BalanceEntry]> {
  const merged = new Map(mine);
  for (const item of Array.isArray(stored) ? stored : []) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string' || !validEntry(item[1])) continue;
    const [key, entry] = item as [string, BalanceEntry];
    const own = merged.get(key);
    if (own ? entry.checkedAt > own.checkedAt : entry.checkedAt > loadedAt) merged.set(key, entry);
  }
  return [...merged];
}
