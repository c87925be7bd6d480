// The ledger file shared by windows: two LedgerStores over one real folder stand for two windows' extension hosts.
// Each sees what the other appended, a clear or prune in one keeps the other's lines, a line cut by a killed host
// costs that line only, and the budget notice is claimed by one window only.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LEDGER_FILE, LedgerStore } from '../../../src/usage/ledgerStore';
import { parseLedger, type LedgerEntry } from '../../../src/shared/usageLedger';

const NOW = Date.parse('2026-12-06T12:00:00Z');
const entry = (key: string, input: number, t = NOW): LedgerEntry => ({
  t: new Date(t).toISOString(),
  key,
  model: 'm',
  route: 'POST /v1/messages',
  dialect: 'messages',
  kind: 'chat',
  input,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
});

describe('usage ledger shared by windows', () => {
  let dir: string;
  const errors: string[] = [];
  const window = () =>
    new LedgerStore(
      dir,
      (m) => errors.push(m),
      () => NOW,
    );
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-ledger-'));
    errors.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('each window counts what the other appended (5 + 5 answers are 10)', async () => {
    const a = window();
    const b = window();
    await a.all(); // both loaded before either wrote, as two open windows are
    await b.all();
    for (let i = 0; i < 5; i++) {
      await a.append(entry('fp', i));
      await b.append(entry('fp', 100 + i));
    }
    assert.equal((await a.all()).length, 10);
    assert.equal((await b.all()).length, 10);
    assert.equal((await b.since(NOW - 1000)).length, 10);
    assert.deepEqual(errors, []);
  });

  it('a clear in one window keeps the lines another window appended meanwhile', async () => {
    const a = window();
    const b = window();
    for (let i = 0; i < 5; i++) await a.append(entry('other', i));
    await b.all();
    const appends = Array.from({ length: 20 }, (_, i) => b.append(entry('fp', i)));
    await Promise.all([a.clear('other'), ...appends]);
    const onDisk = parseLedger(fs.readFileSync(path.join(dir, LEDGER_FILE), 'utf8'));
    assert.deepEqual(
      onDisk.map((e) => e.input).sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.equal((await a.all()).length, 20);
    assert.equal((await b.all()).length, 20, 'the rewrite (a new file) is read whole');
  });

  it('a line cut by a killed host costs that line only', async () => {
    const a = window();
    await a.append(entry('fp', 1));
    fs.appendFileSync(path.join(dir, LEDGER_FILE), '{"t":"2026-12-06T12:00:00.000Z","key":"fp","mo');
    const b = window();
    assert.equal((await b.all()).length, 1, 'the cut line is not read as an entry');
    await b.append(entry('fp', 2));
    await a.append(entry('fp', 3));
    assert.deepEqual(
      (await window().all()).map((e) => e.input),
      [1, 2, 3],
    );
    assert.deepEqual(
      (await a.all()).map((e) => e.input),
      [1, 2, 3],
    );
  });

  it('since() finds today from the end: older entries are not returned', async () => {
    const a = window();
    await a.append(entry('fp', 1, NOW - 3 * 86_400_000));
    await a.append(entry('fp', 2, NOW - 1000));
    await a.append(entry('fp', 3, NOW));
    assert.deepEqual(
      (await a.since(NOW - 60_000)).map((e) => e.input),
      [2, 3],
    );
  });

  it('a budget notice is claimed by one window only', async () => {
    const a = window();
    const b = window();
    const claims = await Promise.all([a.claimNotice('fp 2026-12-06'), b.claimNotice('fp 2026-12-06')]);
    assert.deepEqual(claims.sort(), [false, true]);
    assert.equal(await b.claimNotice('fp 2026-12-07'), true);
  });

  it('a damaged notices file is moved aside and named in the log', async () => {
    fs.writeFileSync(path.join(dir, 'usage-notices.json'), '{"fp 2026');
    assert.equal(await window().claimNotice('fp 2026-12-06'), true);
    assert.ok(fs.readdirSync(dir).some((n) => n.startsWith('usage-notices.json.corrupt-')));
    assert.ok(errors.some((m) => m.includes('moved aside')));
  });
});
