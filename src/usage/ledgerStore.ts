// The ledger file: JSON lines in the extension's global storage, shared by every window of this machine (each window
// has its own extension host and its own LedgerStore over the same file). An entry is one append of one line
// (O_APPEND); a rewrite (clear, prune) reads the file again, drops what it drops and replaces the file atomically,
// under the lock that appends take too, so no other window's line is lost. Reads follow the file: a stat, then only
// the bytes appended since the last read (a rewrite, seen as a new inode or a shorter file, is read whole).
import { unwatchFile, watchFile } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { moveAside, readTextIfAny, writeFileAtomic } from '../storage/atomicFile';
import { LockTimeout, withLock } from '../storage/fileLock';
import {
  LEDGER_MAX_DAYS,
  LEDGER_MAX_ENTRIES,
  parseLedger,
  pruneLedger,
  serializeLedger,
  type LedgerEntry,
} from '../shared/usageLedger';

export const LEDGER_FILE = 'usage-ledger.jsonl';
/** The lock of the ledger and of the budget notices (next to them in global storage). */
export const LEDGER_LOCK = 'usage-ledger.lock';
/** Which budget notices were shown today, in any window: `<key fingerprint> <day>` → time shown. */
export const NOTICES_FILE = 'usage-notices.json';

const DAY_MS = 86_400_000;
/** The file is pruned on disk only past these margins, so a full ledger is not rewritten at every answer. */
const PRUNE_SLACK_ENTRIES = 1_000;
const PRUNE_SLACK_MS = DAY_MS;
/** Entries of other windows can be written a little out of time order; a backward scan goes this far past a bound. */
const ORDER_SLACK_MS = 60 * 60_000;
const NOTICE_KEEP_MS = 7 * DAY_MS;

export class LedgerStore {
  /** What the file held up to `offset` (complete lines only), in file order, and each entry's time. */
  private entries: LedgerEntry[] = [];
  private times: number[] = [];
  private offset = 0;
  private inode: number | undefined;
  private reading: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly onError: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  private get file(): string {
    return path.join(this.dir, LEDGER_FILE);
  }

  private get lock(): string {
    return path.join(this.dir, LEDGER_LOCK);
  }

  /** Every entry within the bounds, oldest first, as every window wrote them. */
  async all(): Promise<LedgerEntry[]> {
    await this.catchUp();
    return pruneLedger(this.entries, this.now());
  }

  /**
   * The entries at or after `since` (epoch ms), read as of now: what the budget decision needs, found from the end
   * of the file without a pass over the whole ledger.
   */
  async since(since: number): Promise<LedgerEntry[]> {
    await this.catchUp();
    let i = this.times.length;
    while (i > 0 && this.times[i - 1] >= since - ORDER_SLACK_MS) i--;
    const out: LedgerEntry[] = [];
    for (let j = i; j < this.entries.length; j++) if (this.times[j] >= since) out.push(this.entries[j]);
    return out;
  }

  /**
   * Calls `listener` when the file changes (another window appended or rewrote it): a stat every `intervalMs`,
   * which works on every file system and in code-server. Returns the function that stops watching.
   */
  watch(listener: () => void, intervalMs = 2_000): () => void {
    const onStat = (now: { size: number; ino: number }, before: { size: number; ino: number }): void => {
      if (now.size !== before.size || now.ino !== before.ino) listener();
    };
    watchFile(this.file, { interval: intervalMs, persistent: false }, onStat);
    return () => unwatchFile(this.file, onStat);
  }

  /** Appends one line (one write, O_APPEND); a line cut by a killed host before it is closed first. */
  append(entry: LedgerEntry): Promise<void> {
    const line = serializeLedger([entry]);
    return this.write(async () => {
      await this.locked(() => appendLine(this.file, line), true);
      await this.catchUp();
      if (this.needsPrune()) await this.rewrite((entries) => pruneLedger(entries, this.now()));
    });
  }

  /** Drops one key's entries (or all): read, filter and replace under the lock, so other windows' lines stay. */
  clear(keyFingerprint?: string): Promise<void> {
    return this.write(() =>
      this.rewrite((entries) => (keyFingerprint === undefined ? [] : entries.filter((e) => e.key !== keyFingerprint))),
    );
  }

  /**
   * Claims a notice (e.g. the budget's 80 % for one key and day) for this window: true only for the first window
   * that asks, so two windows never both announce it. Without the lock (held too long) it answers true.
   */
  async claimNotice(mark: string): Promise<boolean> {
    const file = path.join(this.dir, NOTICES_FILE);
    try {
      await fs.mkdir(this.dir, { recursive: true });
      return await withLock(this.lock, async () => {
        const shown = await this.readNotices(file);
        if (shown[mark] !== undefined) return false;
        const now = this.now();
        const kept = Object.fromEntries(Object.entries(shown).filter(([, t]) => now - t < NOTICE_KEEP_MS));
        await writeFileAtomic(file, JSON.stringify({ ...kept, [mark]: now }));
        return true;
      });
    } catch (error) {
      this.onError(`Budget notice state not read: ${String(error)}`);
      return true;
    }
  }

  private async readNotices(file: string): Promise<Record<string, number>> {
    const text = await readTextIfAny(file);
    if (text === undefined) return {};
    try {
      const value = JSON.parse(text) as unknown;
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number'));
    } catch {
      // moved aside below
    }
    await moveAside(file, this.onError);
    return {};
  }

  private needsPrune(): boolean {
    const oldest = this.times[0];
    return (
      this.entries.length > LEDGER_MAX_ENTRIES + PRUNE_SLACK_ENTRIES ||
      (oldest !== undefined && oldest < this.now() - LEDGER_MAX_DAYS * DAY_MS - PRUNE_SLACK_MS)
    );
  }

  /** Reads the file again under the lock, keeps what `keep` returns and replaces it atomically (only on a change). */
  private async rewrite(keep: (entries: LedgerEntry[]) => LedgerEntry[]): Promise<void> {
    await this.locked(async () => {
      const read = parseLedger((await readTextIfAny(this.file)) ?? '');
      const kept = keep(read);
      if (kept.length !== read.length) await writeFileAtomic(this.file, serializeLedger(kept), { durable: true });
    }, false);
    await this.catchUp();
  }

  /**
   * Runs `op` under the ledger's lock. When the lock cannot be had (a window holding it hangs), an append goes on
   * without it (an append never drops another window's line; the loss would be ours in a rewrite racing it), a
   * rewrite fails.
   */
  private async locked(op: () => Promise<void>, orWithout: boolean): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    try {
      await withLock(this.lock, op);
    } catch (error) {
      if (!(error instanceof LockTimeout) || !orWithout) throw error;
      this.onError(`Usage ledger: ${error.message}; appending without it`);
      await op();
    }
  }

  /** Brings the entries up to the file: the new tail since the last read, or the whole file after a rewrite. */
  private catchUp(): Promise<void> {
    // One read at a time; a caller arriving during a read waits for it and then checks again.
    const run = async (): Promise<void> => {
      const stat = await fs.stat(this.file).catch(() => undefined);
      if (!stat) {
        this.reset(undefined);
        return;
      }
      if (stat.ino !== this.inode || stat.size < this.offset) this.reset(stat.ino);
      if (stat.size === this.offset) return;
      const bytes = await readRange(this.file, this.offset, stat.size);
      const end = bytes.lastIndexOf(0x0a);
      if (end < 0) return; // only a line still being written
      const fresh = parseLedger(bytes.subarray(0, end + 1).toString('utf8'));
      this.offset += end + 1;
      for (const e of fresh) {
        this.entries.push(e);
        this.times.push(Date.parse(e.t));
      }
    };
    const next = (this.reading ?? Promise.resolve()).then(run, run);
    this.reading = next;
    return next;
  }

  private reset(inode: number | undefined): void {
    this.entries = [];
    this.times = [];
    this.offset = 0;
    this.inode = inode;
  }

  private write(op: () => Promise<void>): Promise<void> {
    const next = this.queue.then(op);
    this.queue = next.catch((error: unknown) => this.onError(`Usage ledger not saved: ${String(error)}`));
    return this.queue as Promise<void>;
  }
}

/** One write with O_APPEND; when the file does not end with a newline (a cut line), one is written first. */
async function appendLine(file: string, line: string): Promise<void> {
  const handle = await fs.open(file, 'a+');
  try {
    const { size } = await handle.stat();
    let text = line;
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) text = '\n' + line;
    }
    await handle.write(text);
  } finally {
    await handle.close();
  }
}

async function readRange(file: string, from: number, to: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(to - from);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, from + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}
