// The files the windows share: atomic replacement (a reader never sees half a file, a failed write leaves no
// temporary file), damaged files moved aside and named, and the lock between windows (exclusive, a stale lock of a
// killed host taken over, bounded waits that sleep between attempts).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isScratchName, moveAside, removeStaleTemps, writeFileAtomic } from '../../../src/storage/atomicFile';
import { acquireLock, LockTimeout, lockOwner, withLock } from '../../../src/storage/fileLock';

describe('shared files between windows', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-shared-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('replaces a file whole: concurrent readers see the old or the new text, never a part', async () => {
    const file = path.join(dir, 'a.json');
    const big = (c: string) => JSON.stringify({ fill: c.repeat(200_000) });
    await writeFileAtomic(file, big('a'));
    const seen = new Set<string>();
    let writing = true;
    const reader = (async () => {
      while (writing) {
        seen.add(JSON.parse(fs.readFileSync(file, 'utf8')).fill[0] as string);
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (const c of 'bcdefgh') await writeFileAtomic(file, big(c));
    writing = false;
    await reader;
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).fill[0], 'h');
    assert.ok([...seen].every((c) => 'abcdefgh'.includes(c)));
    assert.deepEqual(fs.readdirSync(dir), ['a.json'], 'no temporary file is left');
  });

  it('a failed write leaves the old file and no temporary file', async () => {
    const file = path.join(dir, 'a.json');
    await writeFileAtomic(file, '{"v":1}');
    fs.mkdirSync(path.join(dir, 'b.json')); // renaming a file over a folder fails
    await assert.rejects(writeFileAtomic(path.join(dir, 'b.json'), '{"v":2}'));
    assert.deepEqual(fs.readdirSync(dir).sort(), ['a.json', 'b.json']);
  });

  it('moves a damaged file aside under a name that says so, and names it in the log', async () => {
    const file = path.join(dir, 'index.json');
    fs.writeFileSync(file, '{"vers');
    const lines: string[] = [];
    const aside = await moveAside(file, (m) => lines.push(m), Date.parse('2026-12-06T10:00:00Z'));
    assert.equal(aside, `${file}.corrupt-2026-12-06T10-00-00-000Z`);
    assert.equal(fs.readFileSync(aside!, 'utf8'), '{"vers');
    assert.ok(!fs.existsSync(file));
    assert.equal(lines.length, 1);
    assert.ok(lines[0].includes(aside!));
    assert.ok(isScratchName(path.basename(aside!)));
    assert.equal(await moveAside(file, (m) => lines.push(m)), undefined, 'already moved: nothing to say');
  });

  it('removes the temporary files a killed host left, not a young one', async () => {
    const old = path.join(dir, '.tmp-index.json.1.aa');
    const young = path.join(dir, '.tmp-index.json.2.bb');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(young, 'x');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(old, hourAgo, hourAgo);
    await removeStaleTemps(dir);
    assert.deepEqual(fs.readdirSync(dir), ['.tmp-index.json.2.bb']);
  });

  it('the lock is exclusive: 40 read-modify-writes from 4 writers lose none', async () => {
    const lock = path.join(dir, '.lock');
    const counter = path.join(dir, 'n');
    fs.writeFileSync(counter, '0');
    const bump = async () => {
      const n = Number(await fs.promises.readFile(counter, 'utf8'));
      await new Promise((r) => setImmediate(r)); // another writer would run here without the lock
      await writeFileAtomic(counter, String(n + 1));
    };
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 10; i++) await withLock(lock, bump);
      }),
    );
    assert.equal(fs.readFileSync(counter, 'utf8'), '40');
    assert.ok(!fs.existsSync(lock), 'released');
  });

  it('holds its owner pid and time, and a lock left by a killed host is taken over once stale', async () => {
    const lock = path.join(dir, '.lock');
    let clock = 1_000_000;
    const release = await acquireLock(lock, { now: () => clock });
    assert.deepEqual(await lockOwner(lock), { pid: process.pid, time: 1_000_000 });
    // The holder dies without releasing: a second window waits, then takes over after the stale timeout.
    clock += 5_000;
    await assert.rejects(
      acquireLock(lock, { now: () => clock, staleMs: 10_000, waitMs: 100, sleep: async (ms) => void (clock += ms) }),
      LockTimeout,
    );
    clock += 10_000;
    const second = await acquireLock(lock, { now: () => clock, staleMs: 10_000, waitMs: 0 });
    assert.equal((await lockOwner(lock))?.time, clock);
    await release(); // the first holder's late release must not free the second's lock
    assert.ok(fs.existsSync(lock));
    await second();
    assert.ok(!fs.existsSync(lock));
  });

  it('a lock file cut before its text was written counts as stale by its age', async () => {
    const lock = path.join(dir, '.lock');
    fs.writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, old, old);
    const release = await acquireLock(lock, { waitMs: 0 });
    await release();
  });

  it('waits a bounded time, sleeping between attempts (no busy loop)', async () => {
    const lock = path.join(dir, '.lock');
    const release = await acquireLock(lock);
    let clock = Date.now();
    const sleeps: number[] = [];
    await assert.rejects(
      acquireLock(lock, {
        now: () => clock,
        waitMs: 1_000,
        sleep: async (ms) => {
          sleeps.push(ms);
          clock += ms;
        },
      }),
      LockTimeout,
    );
    assert.ok(sleeps.every((ms) => ms >= 1));
    assert.ok(sleeps.length <= 150, `${sleeps.length} attempts in a second`);
    await release();
  });
});
