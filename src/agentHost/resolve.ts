// Turns a path the model wrote into the URI the editor uses and the real path the policy judges. The policy
// sees where the bytes really are: every symlink on the way is resolved, also a dangling one and also for a
// file that does not exist yet (its deepest existing ancestor is resolved, the rest appended).
import * as fs from 'fs';
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { matchIgnored, onRealFolder, relativeTo, containingFolder } from '../agent';

export interface ResolvedPath {
  /** The URI in the workspace as the user names it (editors, WorkspaceEdit). */
  uri: vscode.Uri;
  /** Absolute path as written, `..` resolved, no symlink resolved. */
  lexicalPath: string;
  /** Absolute path with every symlink resolved (for non-file schemes: the URI's path). */
  realPath: string;
  /**
   * The path as written, judged where its workspace folder really is: the folder's own symlinks resolved (a folder
   * opened through a link, macOS /tmp), links inside the workspace not. The policy compares it with the folders'
   * real paths, so only a link inside the workspace makes it differ from realPath.
   */
  writtenPath: string;
  exists: boolean;
  /** Workspace-relative for messages when inside a folder, else the absolute path. */
  display: string;
}

const MAX_LINK_HOPS = 40;

function errnoCode(e: unknown): string | undefined {
  return (e as { code?: string } | undefined)?.code;
}

/**
 * The real path of `p` (absolute). A missing tail is appended to the real path of its deepest existing
 * ancestor; a dangling symlink is followed to where a write through it would land.
 */
export async function realPathOf(p: string, hops = 0): Promise<{ real: string; exists: boolean }> {
  if (hops > MAX_LINK_HOPS) throw new Error(`too many levels of symbolic links at ${p}`);
  const rest: string[] = [];
  let cur = nodePath.resolve(p);
  for (;;) {
    try {
      const real = await fs.promises.realpath(cur);
      return { real: rest.length > 0 ? nodePath.join(real, ...[...rest].reverse()) : real, exists: rest.length === 0 };
    } catch (e) {
      const code = errnoCode(e);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      let isLink = false;
      try {
        isLink = (await fs.promises.lstat(cur)).isSymbolicLink();
      } catch {
        // Missing: resolve the parent below.
      }
      if (isLink) {
        const target = nodePath.resolve(nodePath.dirname(cur), await fs.promises.readlink(cur));
        const resolved = await realPathOf(target, hops + 1);
        return {
          real: rest.length > 0 ? nodePath.join(resolved.real, ...[...rest].reverse()) : resolved.real,
          exists: false,
        };
      }
      const parent = nodePath.dirname(cur);
      if (parent === cur) return { real: nodePath.resolve(p), exists: false };
      rest.push(nodePath.basename(cur));
      cur = parent;
    }
  }
}

/** Real paths of the workspace folders (a folder opened through a symlink is judged where it really is). */
export async function workspaceFolderRealPaths(): Promise<string[]> {
  const out: string[] = [];
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    if (f.uri.scheme !== 'file') {
      out.push(f.uri.path);
      continue;
    }
    try {
      out.push((await realPathOf(f.uri.fsPath)).real);
    } catch {
      out.push(f.uri.fsPath);
    }
  }
  return out;
}

/**
 * Resolves a model-supplied path: relative to the (first) workspace folder, or to the folder it names first in a
 * multi-root workspace, or absolute. Throws for an empty or malformed path.
 */
export async function resolveToolPath(raw: unknown, folderReals?: readonly string[]): Promise<ResolvedPath> {
  if (typeof raw !== 'string' || raw.trim() === '') throw new Error('the "path" field must be a non-empty string.');
  if (raw.includes('\0')) throw new Error('the path contains a NUL character.');
  const folders = vscode.workspace.workspaceFolders ?? [];
  const text = raw.trim();
  let uri: vscode.Uri;
  const first = folders[0];
  if (nodePath.isAbsolute(text) || (first && first.uri.scheme !== 'file' && text.startsWith('/'))) {
    uri =
      first && first.uri.scheme !== 'file'
        ? first.uri.with({ path: nodePath.posix.normalize(text) })
        : vscode.Uri.file(nodePath.resolve(text));
  } else {
    if (!first) throw new Error('no workspace folder is open, so a relative path has no meaning.');
    const segments = text.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
    const named = folders.length > 1 ? folders.find((f) => f.name === segments[0]) : undefined;
    const base = named ?? first;
    uri = vscode.Uri.joinPath(base.uri, ...(named ? segments.slice(1) : segments));
  }
  const lexicalPath = uri.scheme === 'file' ? uri.fsPath : uri.path;
  let realPath = lexicalPath;
  let exists: boolean;
  if (uri.scheme === 'file') {
    const r = await realPathOf(lexicalPath);
    realPath = r.real;
    exists = r.exists;
  } else {
    exists = await vscode.workspace.fs.stat(uri).then(
      () => true,
      () => false,
    );
  }
  const reals = folderReals ?? (await workspaceFolderRealPaths());
  return {
    uri,
    lexicalPath,
    realPath,
    writtenPath: writtenIn(lexicalPath, folders, reals),
    exists,
    display: displayPath(realPath, lexicalPath, reals),
  };
}

/** `lexicalPath` with its workspace folder replaced by that folder's real path (see ResolvedPath.writtenPath). */
function writtenIn(
  lexicalPath: string,
  folders: readonly vscode.WorkspaceFolder[],
  folderReals: readonly string[],
): string {
  return onRealFolder(
    lexicalPath,
    folders.map((f) => (f.uri.scheme === 'file' ? f.uri.fsPath : f.uri.path)),
    folderReals,
  );
}

/** Workspace-relative (`/` separators) when inside a folder, else absolute. */
export function displayPath(realPath: string, lexicalPath: string, folderReals: readonly string[]): string {
  const lexicalFolders = (vscode.workspace.workspaceFolders ?? []).map((f) =>
    f.uri.scheme === 'file' ? f.uri.fsPath : f.uri.path,
  );
  const lf = containingFolder(lexicalPath, lexicalFolders);
  if (lf !== undefined) return relativeTo(lexicalPath, lf) || '.';
  const rf = containingFolder(realPath, folderReals);
  if (rf !== undefined) return relativeTo(realPath, rf) || '.';
  return realPath;
}

/** What the policy judges of a path: the real path, plus the path as written and the link when a symlink made them differ. */
export function pathTarget(r: ResolvedPath): { paths: string[]; links?: Array<{ written: string; real: string }> } {
  return r.realPath === r.writtenPath
    ? { paths: [r.realPath] }
    : { paths: [r.realPath, r.writtenPath], links: [{ written: r.writtenPath, real: r.realPath }] };
}

/** The secret pattern `realPath` matches (relative to its workspace folder), else undefined. */
export function secretMatch(
  realPath: string,
  folderReals: readonly string[],
  patterns: readonly string[],
  caseInsensitive?: boolean,
): string | undefined {
  const folder = containingFolder(realPath, folderReals, { caseInsensitive });
  const rel = folder !== undefined ? relativeTo(realPath, folder) : realPath.replace(/^[a-zA-Z]:/, '');
  return matchIgnored(rel || '.', patterns);
}
