// Pure path helpers for the approval policy. The policy receives real paths (symlinks already resolved by
// the VS Code side); these helpers only normalise text, they never touch the file system.
import * as nodePath from 'node:path';

export interface PathStyle {
  /** Compare case-insensitively (Windows, default macOS volumes). Default: true for Windows-style paths, else false. */
  caseInsensitive?: boolean;
}

/** Windows-style when it has a drive letter, a UNC prefix or a backslash. */
function isWindowsStyle(p: string): boolean {
  return /^[a-zA-Z]:/.test(p) || p.startsWith('\\\\') || p.includes('\\');
}

/**
 * The absolute, normalised form of `p` (`..` and `.` resolved, separators unified to `/`, no trailing
 * separator except for a root), or undefined for a relative or empty path (never "inside" anything).
 */
export function normalizeAbsolute(p: string): string | undefined {
  if (typeof p !== 'string' || p === '' || p.includes('\0')) return undefined;
  if (isWindowsStyle(p)) {
    if (!nodePath.win32.isAbsolute(p) || !/^([a-zA-Z]:[\\/]|\\\\)/.test(p)) return undefined;
    let n = nodePath.win32.normalize(p).replace(/\\/g, '/');
    if (n.length > 3 && n.endsWith('/')) n = n.slice(0, -1);
    return n;
  }
  if (!p.startsWith('/')) return undefined;
  let n = nodePath.posix.normalize(p);
  if (n.length > 1 && n.endsWith('/')) n = n.slice(0, -1);
  return n;
}

function fold(p: string, style: PathStyle | undefined, sample: string): string {
  const insensitive = style?.caseInsensitive ?? isWindowsStyle(sample);
  return insensitive ? p.toLowerCase() : p;
}

/** True when `child` is `parent` itself or lies below it (`/ws2` is not inside `/ws`). */
export function isPathInside(child: string, parent: string, style?: PathStyle): boolean {
  const c = normalizeAbsolute(child);
  const p = normalizeAbsolute(parent);
  if (c === undefined || p === undefined) return false;
  const cf = fold(c, style, parent);
  const pf = fold(p, style, parent);
  if (cf === pf) return true;
  const prefix = pf.endsWith('/') ? pf : pf + '/';
  return cf.startsWith(prefix);
}

/** The workspace folder that contains `p` (the deepest one, for nested folders), else undefined. */
export function containingFolder(p: string, folders: readonly string[], style?: PathStyle): string | undefined {
  let best: string | undefined;
  for (const folder of folders) {
    if (!isPathInside(p, folder, style)) continue;
    if (best === undefined || (normalizeAbsolute(folder) ?? '').length > (normalizeAbsolute(best) ?? '').length)
      best = folder;
  }
  return best;
}

/** `p` relative to `folder` with `/` separators ('' for the folder itself); assumes isPathInside(p, folder). */
export function relativeTo(p: string, folder: string): string {
  const c = normalizeAbsolute(p) ?? p;
  const f = normalizeAbsolute(folder) ?? folder;
  if (c.length <= f.length) return '';
  return c.slice(f.endsWith('/') ? f.length : f.length + 1);
}

/**
 * `p` with its workspace folder as opened (`lexicalFolders[i]`) replaced by that folder's real path (`realFolders[i]`):
 * a path written in a folder that was opened through a symlink (macOS /tmp, a linked home) is judged where the folder
 * really is, while symlinks inside the workspace stay as written. `p` unchanged when it is in no folder.
 */
export function onRealFolder(
  p: string,
  lexicalFolders: readonly string[],
  realFolders: readonly string[],
  style?: PathStyle,
): string {
  if (lexicalFolders.length !== realFolders.length) return p;
  const folder = containingFolder(p, lexicalFolders, style);
  if (folder === undefined) return p;
  const real = realFolders[lexicalFolders.indexOf(folder)];
  if (real === folder) return p;
  const rel = relativeTo(p, folder);
  if (!rel) return real;
  const sep = real.includes('\\') && !real.includes('/') ? '\\' : '/';
  return `${real.replace(/[\\/]+$/, '')}${sep}${sep === '/' ? rel : rel.replace(/\//g, '\\')}`;
}
