// HistoryStorage on disk: files under the extension's global storage (never the webview, never settings), shared by
// every window of the machine (src/storage/sharedFolder.ts: atomic writes, the lock, versions, a folder watcher).
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { sharedFolder } from '../../storage/sharedFolder';
import type { HistoryStorage } from '../store/history';
import type { ImageStorage } from '../store/imageStore';

/** The chat's folder (global storage is a local or remote file system path for an extension host with node). */
const chatFolder = (globalStorageUri: vscode.Uri, ...more: string[]): string =>
  path.join(globalStorageUri.fsPath, 'chat', ...more);

export function historyFiles(globalStorageUri: vscode.Uri, log: (message: string) => void): HistoryStorage {
  return historyStorageAt(chatFolder(globalStorageUri), log);
}

/** The history in a folder (the tests' simulated windows use the same adapter over a temporary folder). */
export function historyStorageAt(dir: string, log: (message: string) => void): HistoryStorage {
  const folder = sharedFolder(dir, log);
  return {
    read: (name) => folder.readText(name).catch(() => undefined),
    write: (name, data) => folder.write(name, data),
    remove: (name) => folder.remove(name),
    list: () => folder.list(),
    names: () => folder.names(),
    readVersioned: (name) => folder.readVersioned(name).catch(() => undefined),
    version: (name) => folder.version(name),
    locked: (fn) => folder.locked(fn),
    moveAside: (name) => folder.moveAside(name),
    watch: (listener) => folder.watch(listener),
  };
}

/** The chat's images: one file per content hash under the same storage (chat/images), never in the history JSON. */
export function imageFiles(globalStorageUri: vscode.Uri, log: (message: string) => void): ImageStorage {
  return imageStorageAt(chatFolder(globalStorageUri, 'images'), log);
}

/** The images in a folder (as historyStorageAt). */
export function imageStorageAt(dir: string, log: (message: string) => void): ImageStorage {
  const folder = sharedFolder(dir, log);
  return {
    read: (name) => folder.readBytes(name),
    write: (name, bytes) => folder.write(name, bytes),
    remove: (name) => folder.remove(name),
    list: async () => (await folder.list()).map(({ name, mtime }) => ({ name, mtime })),
  };
}
