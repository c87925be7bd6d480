// The admin JSON API under /admin (the "console"): keys, balances, faults, request log, counters, reset.

import { readJsonBody } from './access';
import { dialectByName } from './dialects';
import { header, sendJson, type Ctx } from './http';
import type { Faults } from './types';

type Body = Record<string, unknown>;
type AdminHandler = (ctx: Ctx, body: Body) => void;

const adminError = (ctx: Ctx, status: number, message: string): void => sendJson(ctx, status, { error: { message } });

const GET_ROUTES: Record<string, (ctx: Ctx) => void> = {
  '/admin/requests': (ctx) => sendJson(ctx, 200, { requests: ctx.state.log }),
  '/admin/counters': (ctx) => {
    const billable = Object.fromEntries(ctx.state.counters);
    sendJson(ctx, 200, { billable, totalBillable: Object.values(billable).reduce((a, b) => a + b, 0) });
  },
  '/admin/keys': (ctx) => sendJson(ctx, 200, { keys: [...ctx.state.keys.values()] }),
};

const POST_ROUTES: Record<string, AdminHandler> = {
  '/admin/keys': (ctx, b) => {
    if (typeof b.group !== 'string') return adminError(ctx, 400, 'group is required');
    try {
      const k = ctx.state.addKey({
        group: b.group,
        name: str(b.name),
        balance: num(b.balance),
        key: str(b.key),
        rateLimit: b.rateLimit as { requests: number; windowMs: number } | undefined,
      });
      sendJson(ctx, 200, { key: k.key, name: k.name });
    } catch (err) {
      adminError(ctx, 400, (err as Error).message);
    }
  },
  '/admin/keys/revoke': (ctx, b) =>
    withKey(ctx, b, (k) => {
      k.revoked = true;
    }),
  '/admin/keys/balance': (ctx, b) => {
    if (typeof b.balance !== 'number') return adminError(ctx, 400, 'balance must be a number');
    withKey(ctx, b, (k) => {
      k.balance = b.balance as number;
    });
  },
  '/admin/faults': (ctx, b) => {
    if (typeof b.key !== 'string') return adminError(ctx, 400, 'key is required');
    if (b.faults === null || b.faults === undefined) ctx.state.faults.delete(b.key);
    else if (typeof b.faults === 'object' && !Array.isArray(b.faults))
      ctx.state.faults.set(b.key, { ...(b.faults as Faults) });
    else return adminError(ctx, 400, 'faults must be an object or null');
    sendJson(ctx, 200, { ok: true });
  },
  // The gateway dialect of every following request (a name of src/emulator/dialects, or null for the config's).
  '/admin/dialect': (ctx, b) => {
    const name = b.dialect === null || b.dialect === undefined ? undefined : str(b.dialect);
    try {
      dialectByName(name);
    } catch (err) {
      return adminError(ctx, 400, (err as Error).message);
    }
    ctx.state.dialect = name;
    sendJson(ctx, 200, { ok: true, dialect: name ?? null });
  },
  '/admin/reset': (ctx) => {
    ctx.state.reset();
    sendJson(ctx, 200, { ok: true });
  },
};

function withKey(ctx: Ctx, b: Body, change: (k: { revoked?: boolean; balance: number }) => void): void {
  const k = typeof b.key === 'string' ? ctx.state.keys.get(b.key) : undefined;
  if (!k) return adminError(ctx, 404, 'unknown key');
  change(k);
  sendJson(ctx, 200, { ok: true, name: k.name, balance: k.balance, revoked: k.revoked === true });
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export async function handleAdmin(ctx: Ctx, token: string): Promise<void> {
  if (header(ctx.req, 'authorization') !== `Bearer ${token}`) {
    ctx.req.resume();
    return adminError(ctx, 401, 'admin token required: Authorization: Bearer <admin token>');
  }
  const path = ctx.url.pathname.replace(/\/$/, '');
  if (ctx.req.method === 'GET' && GET_ROUTES[path]) return GET_ROUTES[path](ctx);
  if (ctx.req.method === 'POST' && POST_ROUTES[path]) {
    const body = await readJsonBody(ctx);
    if (body) POST_ROUTES[path](ctx, body);
    return;
  }
  ctx.req.resume();
  adminError(ctx, 404, `unknown admin route ${ctx.req.method} ${path}`);
}
