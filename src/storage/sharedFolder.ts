// A folder of files that every window of this machine reads and writes (pure: node fs only): the chat's history and
// its images under the extension's global storage. Writes replace a file atomically; a lock file in the folder
// orders read-merge-write sequences between windows; a listing gives each file's version (mtime and size) so a
// window can tell what another one changed; a watcher says when something did.
import { watch as watchFolder, type FSWatcher } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { isScratchName, moveAside, readTextIfAny, removeStaleTemps, writeFileAtomic } from './atomicFile';
import { LockTimeout, withLock, type LockOptions } from './fileLock';

export const FOLDER_LOCK = '.lock';
/** When the platform has no folder events (some network file systems), the folder is listed this often. */
const POLL_MS = 3_000;

export interface FolderEntry {
  name: string;
  /** Changes whenever the file is replaced or changed (mtime and size). */
  version: string;
  mtime: number;
}

export interface SharedFolder {
  readonly dir: string;
  readText(name: string): Promise<string | undefined>;
  /** The text and its version, in one open of the file (undefined: no such file). */
  readVersioned(name: string): Promise<{ text: string; version: string } | undefined>;
  /** The names of the files (no temporary, moved-aside or lock file), without their versions (no stat each). */
  names(): Promise<string[]>;
  readBytes(name: string): Promise<Uint8Array | undefined>;
  /** Replaces the file atomically (the folder is made on the first write). */
  write(name: string, data: string | Uint8Array): Promise<void>;
  remove(name: string): Promise<void>;
  /** The files (no temporary, moved-aside or lock file), each with its version. */
  list(): Promise<FolderEntry[]>;
  /** One file's version; undefined when it does not exist. */
  version(name: string): Promise<string | undefined>;
  /**
   * Runs `fn` holding the folder's lock between windows. When a live window holds it past the wait (hung), `fn` runs
   * without it and the log says so: a write that might merge less is better than a write that never happens.
   */
  locked<T>(fn: () => Promise<T>): Promise<T>;
  /** Moves an unreadable file aside (`name.corrupt-<time>`) and logs where. */
  moveAside(name: string): Promise<void>;
  /**
   * Calls `listener` (often more than once) when the folder changes, with the file's name when the platform gives
   * it; returns the function that stops it.
   */
  watch(listener: (name?: string) => void): () => void;
}

const versionOf = (stat: { mtimeMs: number; size: number; ino: number }): string =>
  `${stat.mtimeMs}:${stat.size}:${stat.ino}`;

export function sharedFolder(dir: string, log: (message: string) => void, lock: LockOptions = {}): SharedFolder {
  const file = (name: string) => path.join(dir, path.basename(name));
  let ready: Promise<void> | undefined;
  const made = () => (ready ??= fs.mkdir(dir, { recursive: true }).then(() => removeStaleTemps(dir)));
  return {
    dir,
    readText: (name) => readTextIfAny(file(name)),
    async readVersioned(name) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(file(name), 'r');
      } catch {
        return undefined;
      }
      try {
        const stat = await handle.stat();
        return { text: await handle.readFile('utf8'), version: versionOf(stat) };
      } finally {
        await handle.close();
      }
    },
    async names() {
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      return names.filter((name) => !isScratchName(name) && !name.startsWith('.'));
    },
    async readBytes(name) {
      try {
        return await fs.readFile(file(name));
      } catch {
        return undefined;
      }
    },
    async write(name, data) {
      await made();
      await writeFileAtomic(file(name), data);
    },
    async remove(name) {
      await fs.rm(file(name), { force: true });
    },
    async list() {
      let names: string[];
      try {
        names = await fs.readdir(dir);
      } catch {
        return [];
      }
      const out: FolderEntry[] = [];
      await Promise.all(
        names
          .filter((name) => !isScratchName(name) && !name.startsWith('.'))
          .map(async (name) => {
            const stat = await fs.stat(file(name)).catch(() => undefined);
            if (stat?.isFile()) out.push({ name, version: versionOf(stat), mtime: stat.mtimeMs });
          }),
      );
      return out;
    },
    async version(name) {
      const stat = await fs.stat(file(name)).catch(() => undefined);
      return stat ? versionOf(stat) : undefined;
    },
    async locked(fn) {
      await made();
      try {
        return await withLock(path.join(dir, FOLDER_LOCK), fn, lock);
      } catch (error) {
        if (!(error instanceof LockTimeout)) throw error;
        log(`${error.message}; writing without it`);
        return fn();
      }
    },
    async moveAside(name) {
      await moveAside(file(name), log);
    },
    watch(listener) {
      let watcher: FSWatcher | undefined;
      let timer: ReturnType<typeof setInterval> | undefined;
      let stopped = false;
      void made()
        .then(() => {
          if (stopped) return;
          try {
            watcher = watchFolder(dir, { persistent: false }, (_event, name) =>
              listener(name ? String(name) : undefined),
            );
            watcher.on('error', () => undefined);
          } catch {
            timer = setInterval(() => listener(), POLL_MS);
            timer.unref?.();
          }
        })
        .catch(() => undefined);
      return () => {
        stopped = true;
        watcher?.close();
        if (timer) clearInterval(timer);
      };
    },
  };
}
