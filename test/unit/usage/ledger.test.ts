// The usage ledger: bounded (90 days, 20,000 entries, oldest dropped), damaged lines skipped, summaries per day and
// model for one key, CSV that a spreadsheet cannot run, and a page whose model ids are escaped.
import assert from 'node:assert/strict';
import { usagePageBody } from '../../../src/usage/chart';
import {
  LEDGER_MAX_DAYS,
  LEDGER_MAX_ENTRIES,
  dayOf,
  ledgerCsv,
  parseLedger,
  pruneLedger,
  serializeLedger,
  summarize,
  todayOf,
  type LedgerEntry,
} from '../../../src/shared/usageLedger';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const DAY = 86_400_000;
const entry = (o: Partial<LedgerEntry> = {}): LedgerEntry => ({
  t: new Date(NOW).toISOString(),
  key: 'fp1',
  model: 'claude-demo-sonnet',
  route: 'POST /v1/messages',
  dialect: 'messages',
  input: 100,
  output: 20,
  cacheRead: 0,
  cacheWrite: 0,
  ...o,
});

describe('usage ledger', () => {
  it('drops entries older than 90 days, then the oldest beyond 20,000', () => {
    const old = entry({ t: new Date(NOW - (LEDGER_MAX_DAYS + 1) * DAY).toISOString() });
    const edge = entry({ t: new Date(NOW - (LEDGER_MAX_DAYS - 1) * DAY).toISOString() });
    assert.deepEqual(pruneLedger([old, edge], NOW), [edge]);
    const many = Array.from({ length: LEDGER_MAX_ENTRIES + 5 }, (_, i) => entry({ input: i }));
    const kept = pruneLedger(many, NOW);
    assert.equal(kept.length, LEDGER_MAX_ENTRIES);
    assert.equal(kept[0].input, 5);
  });

  it('reads back what it wrote; damaged and foreign lines are skipped', () => {
    const e = entry({ cost: 0.002, costSource: 'billed', images: 1, imageSize: '512x512' });
    const text = serializeLedger([e]) + '{"t":"x"\n' + '{"prompt":"secret"}\n' + serializeLedger([entry()]);
    assert.deepEqual(parseLedger(text), [e, entry()]);
  });

  it('keeps the mark of an output estimated from a stopped answer', () => {
    const e = { ...entry(), output: 1000, outputEstimated: true };
    assert.deepEqual(parseLedger(serializeLedger([e])), [e]);
  });

  it('keeps the dialect of a chat-completions answer; an unknown dialect reads as messages', () => {
    const chat = entry({ route: 'POST /v1/chat/completions', dialect: 'chat-completions' });
    const odd = serializeLedger([entry()]).replace('"dialect":"messages"', '"dialect":"grpc"');
    assert.deepEqual(parseLedger(serializeLedger([chat]) + odd), [chat, entry()]);
  });

  it('summarizes the last 30 days of one key per day and model, with cost marks', () => {
    const entries = [
      entry({ cost: 0.01, costSource: 'billed' }),
      entry({ model: 'claude-demo-haiku', t: new Date(NOW - 2 * DAY).toISOString() }),
      entry({ key: 'fp2', input: 999 }),
      entry({ t: new Date(NOW - 40 * DAY).toISOString() }),
      entry({ cost: 0.02, costSource: 'user' }),
    ];
    const s = summarize(entries, 'fp1', NOW);
    assert.equal(s.days.length, 30);
    assert.equal(s.days[29].day, dayOf(NOW));
    assert.deepEqual(s.byModel['claude-demo-sonnet'], {
      tokens: 240,
      images: 0,
      requests: 2,
      cost: 0.03,
      unpriced: 0,
      estimate: true,
    });
    assert.deepEqual(s.byModel['claude-demo-haiku'], {
      tokens: 120,
      images: 0,
      requests: 1,
      unpriced: 1,
      estimate: false,
    });
    assert.equal(s.total.requests, 3);
    assert.equal(todayOf(entries, 'fp1', NOW).tokens, 240);
  });

  it('CSV: quoted cells, and formulas defused', () => {
    const csv = ledgerCsv([entry({ model: '=HYPERLINK("x")', cost: 0.5, costSource: 'user' })]);
    const [head, row] = csv.split('\r\n');
    assert.equal(
      head,
      't,key,model,route,dialect,kind,input,output,cacheRead,cacheWrite,images,imageSize,cost,costSource',
    );
    assert.match(row, /,"'=HYPERLINK\(""x""\)",/);
    assert.match(row, /,0\.5,user$/);
  });

  it('CSV: a kind column tells completions from chat, agent and images; old entries read, their kind blank', () => {
    // Lines as older versions stored them (no kind), a kind this version does not know, and today's kinds.
    const stored = [
      JSON.stringify(entry()),
      JSON.stringify(entry({ route: 'POST /v1/images/generations', dialect: 'images', images: 1 })),
      JSON.stringify({ ...entry(), kind: 'next-edit' }),
      ...(['chat', 'agent', 'vscode-chat', 'condense', 'completion'] as const).map((kind) =>
        JSON.stringify(entry({ kind })),
      ),
    ].join('\n');
    const entries = parseLedger(stored);
    assert.equal(entries.length, 8, 'no line lost to a missing or unknown kind');
    const [head, ...rows] = ledgerCsv(entries).trimEnd().split('\r\n');
    const columns = head.split(',');
    assert.equal(columns[5], 'kind');
    assert.deepEqual(
      rows.map((row) => row.split(',')[columns.indexOf('kind')]),
      ['', 'image', '', 'chat', 'agent', 'vscode-chat', 'condense', 'completion'],
    );
    assert.ok(rows.every((row) => row.split(',').length === columns.length));
  });

  it('the page escapes model ids and draws one bar segment per day and model', () => {
    const s = summarize([entry({ model: '<img src=x onerror=alert(1)>' }), entry()], 'fp1', NOW);
    const strings = Object.fromEntries(
      [
        'heading',
        'keyLine',
        'empty',
        'model',
        'requests',
        'tokens',
        'images',
        'cost',
        'total',
        'estimate',
        'partial',
        'chartTitle',
        'sources',
        'actions',
      ].map((k) => [k, k]),
    ) as never;
    const html = usagePageBody(s, strings);
    assert.ok(!html.includes('<img'));
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.equal(html.match(/<rect class="s\d"[^>]*><title>/g)?.length, 2);
  });
});
