// HistoryStorage on disk: files under the extension's global storage (never the webview, never settings).
import * as vscode from 'vscode';
import type { HistoryStorage } from './history';

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
