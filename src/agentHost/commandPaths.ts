// A command's arguments can name files through symlinks: with `cat *` allow-listed, `cat notes.txt` where notes.txt
// links to ~/.ssh/id_rsa or to .env would print it unasked. The command tool adds the real path of every argument
// that exists and is reached through a link to the call's target, so the policy judges it like read_file's path
// (a secret is refused, a place outside the workspace asks). Node's fs only.
import * as fs from 'fs';
import * as nodePath from 'path';
import { commandWords } from '../agent';

/** At most this many arguments are looked at (a longer command line asks for other reasons, or is plain text). */
const MAX_ARGUMENTS = 32;

/** The real paths of the command's arguments (and option values after `=`) that exist and differ from where they are named. */
export async function linkedArgumentPaths(command: string, cwd: string): Promise<string[]> {
  const out: string[] = [];
  const words = commandWords(command.trim()).slice(1, MAX_ARGUMENTS + 1);
  for (const w of words) {
    const value = w.startsWith('-') ? (w.includes('=') ? w.slice(w.indexOf('=') + 1) : '') : w;
    if (value === '' || value.includes('\0')) continue;
    const lexical = nodePath.resolve(cwd, value.replace(/^~(?=$|[\\/])/, process.env.HOME ?? '~'));
    if (!fs.existsSync(lexical) && !isLink(lexical)) continue;
    const real = await realPath(lexical);
    if (real !== undefined && real !== lexical) out.push(real);
  }
  return out;
}

/** Where `p` really is; for a dangling link, where a write through it would land (its target, resolved once). */
async function realPath(p: string): Promise<string | undefined> {
  try {
    return await fs.promises.realpath(p);
  } catch {
    return isLink(p) ? nodePath.resolve(nodePath.dirname(p), await fs.promises.readlink(p)) : undefined;
  }
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
