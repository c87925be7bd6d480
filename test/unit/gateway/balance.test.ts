// The balance: each gateway family's shape parsed, the probe order against the emulator's dialects (real sockets),
// and the memory's rule of when to ask again (one probe sequence per key and base URL, every 5 minutes at most).
import assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import {
  BALANCE_REFRESH_MS,
  BalanceMemory,
  balanceNoteAfterRefusal,
  type BalanceEntry,
  parseLiteLlm,
  parseNewApi,
  parseOpenRouter,
  type ProbeResult,
} from '../../../src/gateway/balance';
import { defaultConfig, startEmulator, type Emulator } from '../../../src/emulator';
import { DEMO } from '../emulator/helpers';
import { startHttpServer } from '../../support/httpServer';

describe('balance: shapes', () => {
  it('new-api / one-api: remaining is the limit minus total_usage / 100', () => {
    assert.deepEqual(
      parseNewApi({ object: 'billing_subscription', hard_limit_usd: 25 }, { object: 'list', total_usage: 550 }),
      { limit: 25, used: 5.5, remaining: 19.5, unlimited: false },
    );
  });
  it('new-api without a usage answer shows the limit as the gateway states it', () => {
    assert.deepEqual(parseNewApi({ hard_limit_usd: 7 }, undefined), { limit: 7, remaining: 7, unlimited: false });
  });
  it('new-api: 100,000,000 is an unlimited token', () => {
    assert.deepEqual(parseNewApi({ hard_limit_usd: 100000000 }, { total_usage: 12 }), { unlimited: true });
  });
  it('a body of another shape is not a balance', () => {
    assert.equal(parseNewApi({ object: 'list', data: [] }, undefined), undefined);
    assert.equal(parseNewApi('<html>', undefined), undefined);
    assert.equal(parseOpenRouter({ detail: 'Not Found' }), undefined);
    assert.equal(parseLiteLlm({ data: { usage: 1 } }), undefined);
  });
  it('OpenRouter: limit_remaining, and a null limit is unlimited', () => {
    assert.deepEqual(parseOpenRouter({ data: { limit: 10, usage: 2.5, limit_remaining: 7.5 } }), {
      limit: 10,
      used: 2.5,
      remaining: 7.5,
      unlimited: false,
    });
    assert.deepEqual(parseOpenRouter({ data: { limit: null, usage: 3 } }), { used: 3, unlimited: true });
  });
  it('LiteLLM: max_budget minus spend, and no budget is unlimited', () => {
    assert.deepEqual(parseLiteLlm({ key: 'x', info: { spend: 1.25, max_budget: 5 } }), {
      limit: 5,
      used: 1.25,
      remaining: 3.75,
      unlimited: false,
    });
    assert.deepEqual(parseLiteLlm({ info: { spend: 0.5, max_budget: null } }), { used: 0.5, unlimited: true });
  });
});

describe('balance: probing the emulator', () => {
  const started: Emulator[] = [];
  after(async () => Promise.all(started.map((e) => e.close())));
  async function emulatorOf(dialect: string): Promise<Emulator> {
    const config = defaultConfig();
    config.dialect = dialect;
    const emu = await startEmulator({ config });
    started.push(emu);
    return emu;
  }
  const probe = async (emu: Emulator): Promise<ProbeResult> =>
    createGatewayClient({ baseUrl: emu.url, apiKey: DEMO }).readBalance();

  it('the emulator default answers in the new-api shape, with the demo key balance', async () => {
    const emu = await emulatorOf('default');
    const result = await probe(emu);
    assert.deepEqual(result, {
      kind: 'balance',
      balance: { route: 'new-api', limit: 100, used: 0, remaining: 100, unlimited: false },
    });
    assert.deepEqual(
      emu.requests().map((r) => r.path),
      ['/dashboard/billing/subscription', '/dashboard/billing/usage'],
    );
  });

  it('one-api reports what was spent', async () => {
    const emu = await emulatorOf('one-api');
    const client = createGatewayClient({ baseUrl: emu.url, apiKey: DEMO });
    const reply = await client.createMessage({
      model: 'claude-demo-haiku',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const result = await client.readBalance();
    assert.equal(result.kind, 'balance');
    // The reply's tokens at claude-demo-haiku's listed 1 / 5 per million: what the answer's price said.
    const cost = (reply.usage.input_tokens + reply.usage.output_tokens * 5) / 1e6;
    if (result.kind === 'balance') {
      assert.ok(Math.abs((result.balance.used ?? 0) - cost) < 1e-6, `${result.balance.used} vs ${cost}`);
      assert.ok(Math.abs((result.balance.remaining ?? 0) - (100 - cost)) < 1e-6);
    }
  });

  it('OpenRouter and LiteLLM: their own routes, after the routes before them said "not here"', async () => {
    const or = await emulatorOf('openrouter');
    assert.deepEqual(await probe(or), {
      kind: 'balance',
      balance: { route: 'openrouter', limit: 100, used: 0, remaining: 100, unlimited: false },
    });
    assert.deepEqual(
      or.requests().map((r) => r.path),
      ['/dashboard/billing/subscription', '/v1/dashboard/billing/subscription', '/v1/key'],
    );
    const lite = await emulatorOf('litellm');
    const result = await probe(lite);
    assert.equal(result.kind === 'balance' && result.balance.route, 'litellm');
    assert.equal(lite.requests().length, 4);
  });

  for (const dialect of ['router', 'sub2api', 'html-proxy']) {
    it(`${dialect}: no balance route, each route asked once`, async () => {
      const emu = await emulatorOf(dialect);
      assert.deepEqual(await probe(emu), { kind: 'none' });
      assert.equal(emu.requests().length, 4);
    });
  }

  it('an HTML page with status 200 (a web app at the base URL) is "not offered", not an error', async () => {
    const server = await startHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Console</title>');
    });
    try {
      assert.deepEqual(await createGatewayClient({ baseUrl: server.url, apiKey: DEMO }).readBalance(), {
        kind: 'none',
      });
    } finally {
      await server.close();
    }
  });

  it('an unreachable gateway is a failure, not "no route" (so it is asked again later)', async () => {
    const emu = await emulatorOf('default');
    const url = emu.url;
    await emu.close();
    const result = await createGatewayClient({ baseUrl: url, apiKey: DEMO, maxRetries: 3 }).readBalance();
    assert.deepEqual(result, { kind: 'failed' });
  });
});

describe('balance: when to ask again', () => {
  const BALANCE = { kind: 'balance', balance: { route: 'new-api', remaining: 5, unlimited: false } } as const;
  function counter(result: ProbeResult): {
    calls: Array<string | undefined>;
    probe: (r?: string) => Promise<ProbeResult>;
  } {
    const calls: Array<string | undefined> = [];
    return { calls, probe: async (r) => (calls.push(r), result) };
  }

  it('once per key and base URL, again after 5 minutes (with the remembered route) or after a balance error', async () => {
    let now = 1_000;
    const memory = new BalanceMemory(() => now);
    const { calls, probe } = counter(BALANCE);
    assert.equal((await memory.get('fp1', 'http://gw', probe))?.remaining, 5);
    await memory.get('fp1', 'http://gw', probe);
    assert.deepEqual(calls, [undefined]);
    await memory.get('fp2', 'http://gw', probe);
    assert.equal(calls.length, 2);
    now += BALANCE_REFRESH_MS - 1;
    await memory.get('fp1', 'http://gw', probe);
    assert.equal(calls.length, 2);
    now += 1;
    await memory.get('fp1', 'http://gw', probe);
    assert.deepEqual(calls.slice(2), ['new-api']);
    memory.invalidate('fp1', 'http://gw');
    await memory.get('fp1', 'http://gw', probe);
    await memory.get('fp1', 'http://gw', probe);
    assert.equal(calls.length, 4);
  });

  it('a gateway without a route is never asked again for that key and base URL', async () => {
    let now = 0;
    const memory = new BalanceMemory(() => now);
    const { calls, probe } = counter({ kind: 'none' });
    assert.equal(await memory.get('fp', 'http://gw', probe), undefined);
    now += 10 * BALANCE_REFRESH_MS;
    memory.invalidate('fp', 'http://gw');
    await memory.get('fp', 'http://gw', probe);
    assert.equal(calls.length, 1);
    assert.equal(memory.unavailable('fp', 'http://gw'), true);
  });

  it('fresh (Check Connection) reads now although the last read is recent: no cached figure labelled as just read', async () => {
    const memory = new BalanceMemory(() => 0);
    let remaining = 0.01;
    const calls: Array<string | undefined> = [];
    const probe = async (r?: string): Promise<ProbeResult> => (
      calls.push(r),
      { kind: 'balance', balance: { route: 'new-api', remaining, limit: 0.01, unlimited: false } }
    );
    await memory.get('fp', 'u', probe);
    remaining = 50; // topped up
    assert.equal((await memory.get('fp', 'u', probe))?.remaining, 0.01, 'not due: the figure read before');
    assert.equal((await memory.get('fp', 'u', probe, { fresh: true }))?.remaining, 50);
    assert.deepEqual(calls, [undefined, 'new-api']);
  });

  it('after a window reload the last balance is known without a request (kept through onChange)', async () => {
    let kept: Array<[string, BalanceEntry]> = [];
    const first = new BalanceMemory(
      () => 1_000,
      [],
      (entries) => (kept = entries),
    );
    const { calls, probe } = counter(BALANCE);
    await first.get('fp', 'http://gw', probe);
    const reloaded = new BalanceMemory(() => 2_000, JSON.parse(JSON.stringify(kept)) as Array<[string, BalanceEntry]>);
    assert.equal(reloaded.peek('fp', 'http://gw')?.remaining, 5);
    await reloaded.get('fp', 'http://gw', probe);
    assert.equal(calls.length, 1, 'not due yet after the reload either');
    const damaged = new BalanceMemory(
      () => 0,
      [['fp u', { route: 'nope', checkedAt: 'x' } as unknown as BalanceEntry]],
    );
    assert.equal(damaged.peek('fp', 'u'), undefined, 'a damaged entry is ignored');
  });

  it('a balance refusal quotes the last figure only when it agrees (nothing left), never a stale "100 left of 100"', () => {
    const full = { route: 'new-api' as const, limit: 100, used: 0, remaining: 100, unlimited: false };
    assert.doesNotMatch(balanceNoteAfterRefusal(full), /100/);
    assert.match(balanceNoteAfterRefusal(full), /read again/);
    assert.match(balanceNoteAfterRefusal(undefined), /read again/);
    const empty = { ...full, used: 100, remaining: 0 };
    assert.equal(balanceNoteAfterRefusal(empty), 'Last balance the gateway reported: 0 left of 100 (used 100).');
  });

  it('callers at the same time share one probe; a failure is tried again on the next call', async () => {
    const memory = new BalanceMemory();
    const { calls, probe } = counter({ kind: 'failed' });
    await Promise.all([memory.get('fp', 'u', probe), memory.get('fp', 'u', probe), memory.get('fp', 'u', probe)]);
    assert.equal(calls.length, 1);
    await memory.get('fp', 'u', probe);
    assert.equal(calls.length, 2);
  });
});
