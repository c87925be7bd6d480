// Before a write of a proposed change (proposals.ts; the edit tools too): the document it would replace, once it caught
// up with the disk, and whether the target still is the file the user approved.
import * as vscode from 'vscode';
import { realPathOf, type ResolvedPath } from './resolve';

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The document of `uri` holding the text a save would replace. A clean document can lag behind the disk for a
 * moment after another program (a formatter, a command the model ran) wrote the file; VS Code reloads it when
 * its watcher reports the change. An edit computed on that stale text would fail to save, or bring old text
 * back. Waits up to `ms` for a clean document to match the disk (files that do not decode as UTF-8 cannot be
 * compared and are taken as they are).
 */
export async function settledDocument(uri: vscode.Uri, ms = 3000): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const deadline = Date.now() + ms;
  for (;;) {
    if (doc.isDirty) return doc;
    const disk = await vscode.workspace.fs.readFile(uri).then(
      (b) => new TextDecoder().decode(b),
      () => undefined,
    );
    if (disk === undefined || disk.includes('\ufffd')) return doc;
    const text = doc.getText();
    if (disk === text || disk.replace(/\r\n/g, '\n') === text.replace(/\r\n/g, '\n') || Date.now() > deadline)
      return doc;
    await sleep(100);
  }
}

/**
 * The settled document of `uri` if it still holds `expected`, in the editor and (when the editor has no unsaved
 * changes) on disk too: a clean editor that has not caught up with the disk yet must not hide a change there.
 */
export async function documentHolding(uri: vscode.Uri, expected: string): Promise<vscode.TextDocument | undefined> {
  const doc = await settledDocument(uri).catch(() => undefined);
  if (!doc || doc.getText() !== expected) return undefined;
  if (doc.isDirty) return doc;
  const lf = (t: string | undefined) => t?.replace(/\r\n/g, '\n');
  const disk = await vscode.workspace.fs.readFile(uri).then(
    (b) => new TextDecoder().decode(b),
    () => undefined,
  );
  return lf(disk) === lf(expected) ? doc : undefined;
}

/** Why the write must not happen: the approval was given for a real path, a symlink swapped since must not redirect it. */
export async function targetMoved(target: ResolvedPath): Promise<string | undefined> {
  if (target.uri.scheme !== 'file') return undefined;
  const now = await realPathOf(target.uri.fsPath);
  return now.real === target.realPath
    ? undefined
    : `${target.display} now resolves to ${now.real}, not to ${target.realPath} as when it was proposed; nothing was written.`;
}
