// A lock between the windows (extension hosts) of this machine (pure: node fs only): a file created with O_EXCL
// holding its owner's pid and time. A lock older than the stale timeout belonged to a host that was killed or hung
// and is taken over. Waits are bounded: after `waitMs` the caller is told it did not get the lock (never a loop
// without end).
import * as fs from 'node:fs/promises';

export interface LockOptions {
  /** A lock file older than this is taken over (default 10 s: a holder keeps it milliseconds). */
  staleMs?: number;
  /** How long to wait for the lock at most (default 3 s). */
  waitMs?: number;
  now?: () => number;
  /** How a wait between attempts is spent (tests pass a clock of their own). */
  sleep?: (ms: number) => Promise<void>;
}

export class LockTimeout extends Error {
  constructor(readonly file: string) {
    super(`the lock ${file} is held by another window`);
  }
}

const DEFAULT_STALE_MS = 10_000;
const DEFAULT_WAIT_MS = 3_000;
/**
 * Between attempts: a holder keeps the lock about a millisecond, so waits stay short (a long sleep would let a busy
 * window take the lock again and again before this one looks), but never zero: no busy loop.
 */
const backoff = (attempt: number): number => Math.min(1 + attempt, 8);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Takes the lock (or throws LockTimeout); the returned function releases it. */
export async function acquireLock(file: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const now = options.now ?? Date.now;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const deadline = now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  const token = `${process.pid} ${now()} ${Math.random().toString(36).slice(2)}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await fs.open(file, 'wx');
      try {
        await handle.writeFile(token);
      } finally {
        await handle.close();
      }
      return () => release(file, token);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await takeOverIfStale(file, staleMs, now)) continue;
    if (now() >= deadline) throw new LockTimeout(file);
    await (options.sleep ?? sleep)(backoff(attempt));
  }
}

/** Runs `fn` holding the lock, and releases it whatever `fn` does. */
export async function withLock<T>(file: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
  const release = await acquireLock(file, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Who holds the lock, as written in it (pid and time), for the log. */
export async function lockOwner(file: string): Promise<{ pid: number; time: number } | undefined> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  const [pid, time] = (text ?? '').split(' ').map(Number);
  return Number.isFinite(pid) && Number.isFinite(time) ? { pid, time } : undefined;
}

/** Removes a lock file older than the timeout. Only one taker wins: the file is renamed away before removal. */
async function takeOverIfStale(file: string, staleMs: number, now: () => number): Promise<boolean> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat) return true; // released meanwhile: try again at once
  const owner = await lockOwner(file);
  // The time in the file is the owner's word; the mtime stands in when the file was cut before its text was written.
  const since = owner?.time ?? stat.mtimeMs;
  if (now() - Math.max(since, 0) < staleMs && !(owner && isDead(owner.pid))) return false;
  const moved = `${file}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await fs.rename(file, moved); // atomic: of two windows taking over, one finds the file gone
  } catch {
    return true;
  }
  // A holder that released and a new holder that took the lock between our stat and the rename: its lock was moved.
  // Put it back when it is young (the new holder's), else drop it.
  const movedOwner = await lockOwner(moved);
  if (movedOwner && now() - movedOwner.time < staleMs) {
    await fs.link(moved, file).catch(() => undefined);
  }
  await fs.rm(moved, { force: true });
  return true;
}

/**
 * A holder whose process is gone on this machine (a killed extension host) does not need the timeout. The windows
 * that share global storage run on the machine that holds it, so the pid is theirs to check.
 */
function isDead(pid: number): boolean {
  if (pid === process.pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function release(file: string, token: string): Promise<void> {
  // Only our own lock is removed: a lock taken over (we were thought dead) belongs to someone else now.
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === token) await fs.rm(file, { force: true });
}
