// Temporary directories for tests: one way to make them (real path, so paths compare equal after the code under
// test resolves links, e.g. macOS's /var → /private/var) and one way to remove them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A new empty directory `<tmp>/mg-<name>-XXXXXX`, as its real path. */
export function makeTempDir(name: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `mg-${name}-`)));
}

/** Removes a directory made by makeTempDir and everything in it (nothing if it is gone). */
export function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
