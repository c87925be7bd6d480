// Property test (issue 42): 2–4 windows (separate instances of the real stores, windows.ts) over one real folder do
// random creates, answers, deletes, ledger appends and clears, and reloads (each load prunes turn records and
// images), in rounds where every window acts at once; meanwhile a window in a child process writes as fast as it can
// and is killed mid-write (SIGKILL). Afterwards a fresh window must list every conversation saved and not deleted,
// with every message saved; every image and turn record a listed conversation names must exist; the ledger must
// hold every line appended and not cleared, once; and no file may be unparsable.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { turnIdsOf } from '../../../src/chat/agent/agentPort';
import { parseConversation } from '../../../src/chat/store/history';
import { imageHashes, sha256Hex } from '../../../src/chat/store/imageStore';
import { TRANSCRIPTS_KEY } from '../../../src/chat/store/turnTranscripts';
import { isScratchName } from '../../../src/storage/atomicFile';
import { parseLedger } from '../../../src/shared/usageLedger';
import { LEDGER_FILE } from '../../../src/usage/ledgerStore';
import { SharedMemento, Window, folders, ledgerEntry } from './windows';

const SEEDS = Number(process.env.WINDOWS_SEEDS ?? 6);
const FIRST_SEED = Number(process.env.WINDOWS_FIRST_SEED ?? 1);
const ROUNDS = 10;
const DAY_MS = 86_400_000;

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Expected {
  /** Conversation id → message ids saved in it. */
  saved: Map<string, Set<string>>;
  deleted: Set<string>;
  /** Ledger line id → [key, round appended]. */
  lines: Map<number, { key: string; round: number }>;
  /** Key → the last round a clear of it ran in. */
  cleared: Map<string, number>;
}

/** The worker window in a child process; `done` has what it printed as on disk. */
function startWorker(root: string, prefix: string): { child: ChildProcess; done: string[] } {
  const worker = path.join(__dirname, 'windowWorker.ts');
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', worker, root, prefix], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const done: string[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    done.push(...lines);
  });
  return { child, done };
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/** Time passes between rounds: every stored image is older than the one-day grace of orphan removal. */
function ageImages(root: string): void {
  const dir = folders(root).images;
  const old = new Date(Date.now() - 2 * DAY_MS);
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) fs.utimesSync(path.join(dir, name), old, old);
}

async function runSeed(seed: number): Promise<string[]> {
  const rand = random(seed);
  const pick = <T>(items: T[]): T | undefined => items[Math.floor(rand() * items.length)];
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `mg-windows-${seed}-`));
  const problems: string[] = [];
  try {
    const state = new SharedMemento();
    let ids = 0;
    const windows = Array.from(
      { length: 2 + Math.floor(rand() * 3) },
      (_, w) => new Window(root, state, () => `w${w}-${seed}-${ids++}`),
    );
    for (const w of windows) await w.open();
    const expected: Expected = { saved: new Map(), deleted: new Set(), lines: new Map(), cleared: new Map() };
    const worker = startWorker(root, `k${seed}`);
    const killRound = 1 + Math.floor(rand() * (ROUNDS - 2));
    let tag = 0;
    let lineId = 0;
    for (let round = 0; round < ROUNDS; round++) {
      if (round === killRound) {
        // Killed at a random moment of its loop, once it writes: a conversation file or a ledger line may be cut.
        for (let i = 0; i < 400 && worker.done.length < 2; i++) await new Promise((r) => setTimeout(r, 25));
        await new Promise((r) => setTimeout(r, rand() * 30));
        await killed(worker.child);
      }
      await Promise.all(
        windows.map(async (w) => {
          const roll = rand();
          const known = w.store.all().filter((c) => !expected.deleted.has(c.id));
          if (roll < 0.3 || known.length === 0) {
            const c = w.store.create();
            const messages = await w.answer(c, `${seed}-${tag++}`);
            add(
              expected,
              c.id,
              messages.map((m) => m.id),
            );
          } else if (roll < 0.55) {
            const c = pick(known)!;
            const messages = await w.answer(c, `${seed}-${tag++}`);
            if (!expected.deleted.has(c.id))
              add(
                expected,
                c.id,
                messages.map((m) => m.id),
              );
          } else if (roll < 0.65) {
            const c = pick(known)!;
            expected.deleted.add(c.id);
            await w.remove(c);
          } else if (roll < 0.85) {
            const key = pick(['fp-a', 'fp-b'])!;
            const id = lineId++;
            expected.lines.set(id, { key, round });
            await w.ledger.append(ledgerEntry(key, id));
          } else if (roll < 0.92) {
            const key = pick(['fp-a', 'fp-b'])!;
            expected.cleared.set(key, round);
            await w.ledger.clear(key);
          } else {
            await w.store.flushed();
            await w.open(); // a reload: its pruning runs
          }
          await w.store.flushed();
        }),
      );
      ageImages(root);
    }
    await killed(worker.child);
    for (const w of windows) await w.store.flushed();
    for (const line of worker.done) {
      const [what, a, b] = line.split(' ');
      if (what === 'saved') add(expected, a, [b]);
      if (what === 'ledger') expected.lines.set(Number(a), { key: 'worker', round: -1 });
    }
    if (worker.done.length < 2) problems.push(`seed ${seed}: the killed window never wrote`);
    check(root, state, expected, problems, seed);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return problems;
}

function add(expected: Expected, conversationId: string, messageIds: string[]): void {
  const set = expected.saved.get(conversationId) ?? new Set<string>();
  for (const id of messageIds) set.add(id);
  expected.saved.set(conversationId, set);
}

function check(root: string, state: SharedMemento, expected: Expected, problems: string[], seed: number): void {
  const dirs = folders(root);
  const files = fs.existsSync(dirs.chat) ? fs.readdirSync(dirs.chat) : [];
  // No file is unparsable (temporary files of a killed write and files moved aside are not content).
  const conversations = new Map<string, string[]>();
  const named: Array<{ hashes: Set<string>; turns: string[]; id: string }> = [];
  for (const name of files) {
    const file = path.join(dirs.chat, name);
    if (isScratchName(name) || name.startsWith('.') || fs.statSync(file).isDirectory()) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (name === 'index.json') {
      try {
        JSON.parse(text);
      } catch {
        problems.push(`seed ${seed}: index.json is unparsable`);
      }
      continue;
    }
    const conversation = parseConversation(text);
    if (!conversation) {
      problems.push(`seed ${seed}: ${name} is unparsable`);
      continue;
    }
    conversations.set(
      conversation.id,
      conversation.messages.map((m) => m.id),
    );
    named.push({
      id: conversation.id,
      hashes: imageHashes(conversation.messages),
      turns: turnIdsOf(conversation.messages),
    });
  }
  if (files.some((n) => n.includes('.corrupt-'))) problems.push(`seed ${seed}: a file had to be moved aside`);
  // Every conversation saved and not deleted is there, with every message saved.
  for (const [id, messages] of expected.saved) {
    if (expected.deleted.has(id)) continue;
    const onDisk = conversations.get(id);
    if (!onDisk) {
      problems.push(`seed ${seed}: conversation ${id} saved and not deleted is gone`);
      continue;
    }
    const missing = [...messages].filter((m) => !onDisk.includes(m));
    if (missing.length) problems.push(`seed ${seed}: conversation ${id} lost ${missing.join(', ')}`);
  }
  // A fresh window lists them (the list a window shows is the index's in older versions: checked through a load).
  // Every image and turn record a listed conversation names exists (the worker's turn records are its own memento).
  const transcripts = new Set(
    ((state.get(TRANSCRIPTS_KEY) as Array<{ turnId: string }> | undefined) ?? []).map((t) => t.turnId),
  );
  for (const c of named) {
    for (const hash of c.hashes) {
      const file = path.join(dirs.images, hash);
      if (!fs.existsSync(file) || sha256Hex(fs.readFileSync(file)) !== hash)
        problems.push(`seed ${seed}: image ${hash.slice(0, 8)} of ${c.id} is missing or damaged`);
    }
    if (c.id.startsWith('k')) continue;
    for (const turn of c.turns)
      if (!transcripts.has(turn)) problems.push(`seed ${seed}: turn record ${turn} of ${c.id} is missing`);
  }
  // The ledger holds every line appended and not cleared (a clear in the same round may or may not take it), once.
  const ledgerText = fs.existsSync(path.join(dirs.ledger, LEDGER_FILE))
    ? fs.readFileSync(path.join(dirs.ledger, LEDGER_FILE), 'utf8')
    : '';
  const lines = ledgerText.split('\n').filter((l) => l.trim());
  const entries = parseLedger(ledgerText);
  if (entries.length !== lines.length)
    problems.push(`seed ${seed}: ${lines.length - entries.length} ledger lines unparsable`);
  const counts = new Map<number, number>();
  for (const e of entries) counts.set(e.input, (counts.get(e.input) ?? 0) + 1);
  for (const [id, { key, round }] of expected.lines) {
    const clearedAt = expected.cleared.get(key);
    const mustStay = clearedAt === undefined || round > clearedAt;
    const n = counts.get(id) ?? 0;
    if (n > 1) problems.push(`seed ${seed}: ledger line ${id} is there ${n} times`);
    if (mustStay && n === 0) problems.push(`seed ${seed}: ledger line ${id} (${key}) was lost`);
  }
}

describe('several windows, one truth (property, issue 42)', function () {
  this.timeout(600_000);

  it(`${SEEDS} seeds of 2–4 windows and a killed one: nothing saved is lost, nothing is unparsable`, async () => {
    const failing: string[] = [];
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
      const problems = await runSeed(seed);
      if (problems.length) failing.push(`${problems.length} problems, first: ${problems[0]}`);
      if (process.env.WINDOWS_DEBUG) console.log(problems.join('\n'));
    }
    assert.deepEqual(failing, [], `${failing.length} of ${SEEDS} seeds failed`);
  });
});
