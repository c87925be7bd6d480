// HistoryStorage on disk: files under the extension's global storage (never the webview, never settings).
import * as vscode from 'vscode';
import type { HistoryStorage } from './history';
import type { ImageStorage } from './imageStore';

export function historyFiles(globalStorageUri: vscode.Uri): HistoryStorage {
  const folder = vscode.Uri.joinPath(globalStorageUri, 'chat');
  const file = (name: string) => vscode.Uri.joinPath(folder, name);
  let folderReady: Thenable<void> | undefined;
  return {
    async read(name) {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(file(name)));
      } catch {
        return undefined;
      }
    },
    async write(name, data) {
      folderReady ??= vscode.workspace.fs.createDirectory(folder);
      await folderReady;
      await vscode.workspace.fs.writeFile(file(name), new TextEncoder().encode(data));
    },
    async remove(name) {
      try {
        await vscode.workspace.fs.delete(file(name));
      } catch {
        // Already gone.
      }
    },
  };
}

/** The chat's images: one file per content hash under the same storage (chat/images), never in the history JSON. */
export function imageFiles(globalStorageUri: vscode.Uri): ImageStorage {
  const folder = vscode.Uri.joinPath(globalStorageUri, 'chat', 'images');
  const file = (name: string) => vscode.Uri.joinPath(folder, name);
  let folderReady: Thenable<void> | undefined;
  return {
    async read(name) {
      try {
        return await vscode.workspace.fs.readFile(file(name));
      } catch {
        return undefined;
      }
    },
    async write(name, bytes) {
      folderReady ??= vscode.workspace.fs.createDirectory(folder);
      await folderReady;
      await vscode.workspace.fs.writeFile(file(name), bytes);
    },
    async remove(name) {
      try {
        await vscode.workspace.fs.delete(file(name));
      } catch {
        // Already gone.
      }
    },
    async list() {
      let entries: Array<[string, vscode.FileType]>;
      try {
        entries = await vscode.workspace.fs.readDirectory(folder);
      } catch {
        return [];
      }
      const out: Array<{ name: string; mtime: number }> = [];
      for (const [name, type] of entries) {
        if (type !== vscode.FileType.File) continue;
        const stat = await vscode.workspace.fs.stat(file(name)).then(
          (s) => s,
          () => undefined,
        );
        if (stat) out.push({ name, mtime: stat.mtime });
      }
      return out;
    },
  };
}
