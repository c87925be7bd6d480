// Files shared by the windows of this machine (pure: node fs only). A file is replaced whole: written to a temporary
// file in the same folder, flushed, then renamed over the old one, so a reader or a killed host never sees half a
// file. A file that cannot be parsed is moved aside (`name.corrupt-<time>`) and named in the log, never dropped.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Temporary files of a write in progress start so: never listed as content, removed when left by a killed host. */
export const TEMP_PREFIX = '.tmp-';
/** A temporary file older than this was left by a host killed mid-write (a write takes milliseconds). */
const STALE_TEMP_MS = 60_000;

/**
 * Writes `data` to `file` atomically: temp file in the same folder (same file system), then rename. A killed host
 * or closed window leaves the old file or the new one, never a part. `durable` also flushes the temp file to the
 * disk before the rename (against a power cut); it costs about as much as the write (5 ms on the test machine), so
 * only rare rewrites ask for it (ext4 and APFS order a rename over an existing file after its data anyway).
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: { durable?: boolean } = {},
): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `${TEMP_PREFIX}${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}`);
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(temp, 'w');
    await handle.writeFile(data);
    if (options.durable) await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Reads a file as UTF-8; undefined when it does not exist (other errors are thrown). */
export async function readTextIfAny(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Moves a file that cannot be parsed aside as `name.corrupt-<time>` and says so through `log`; returns the new
 * path (undefined when the file was already gone, e.g. moved by another window).
 */
export async function moveAside(
  file: string,
  log: (message: string) => void,
  now = Date.now(),
): Promise<string | undefined> {
  const aside = `${file}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  try {
    await fs.rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  log(`${path.basename(file)} could not be read; it was moved aside to ${aside}`);
  return aside;
}

/** Is this a file name our writes use for their temporary files (or a file moved aside)? */
export const isScratchName = (name: string): boolean => name.startsWith(TEMP_PREFIX) || name.includes('.corrupt-');

/** Removes temporary files a killed host left in `dir` (older than a minute, so no live write loses its file). */
export async function removeStaleTemps(dir: string, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat && now - stat.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true }).catch(() => undefined);
  }
}
