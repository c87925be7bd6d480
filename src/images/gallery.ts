// The gallery of this workspace's results, read from the sidecars in the output folder. Thumbnails are
// sent to the webview as data: URLs of bytes checked to be images (see docs/security.md#image-thumbnails for why
// this was preferred over adding the output folder to localResourceRoots).
import * as vscode from 'vscode';
import type { GalleryItem } from '../shared/protocol/images';
import { detectImageFormat, mimeTypeOf } from './format';
import { isSafeFileName } from './paths';
import { parseSidecar, type Sidecar } from './sidecar';

export interface GalleryEntry {
  id: string;
  image: vscode.Uri;
  /** Workspace-relative path with '/' separators. */
  path: string;
  sidecar: Sidecar;
}

const MAX_ENTRIES = 200;
const MAX_THUMBNAILS = 60;
const MAX_THUMBNAIL_BYTES = 2 * 1024 * 1024;

/** Entries of the output folder that have a valid sidecar and an existing image, newest first. */
export async function readGallery(root: vscode.Uri, segments: string[]): Promise<GalleryEntry[]> {
  const folder = vscode.Uri.joinPath(root, ...segments);
  let names: string[];
  try {
    names = (await vscode.workspace.fs.readDirectory(folder))
      .filter(([, type]) => type === vscode.FileType.File)
      .map(([name]) => name);
  } catch {
    return [];
  }
  const present = new Set(names);
  const entries: GalleryEntry[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const sidecar = await readSidecar(vscode.Uri.joinPath(folder, name));
    if (!sidecar || !isSafeFileName(sidecar.file) || !present.has(sidecar.file)) continue;
    const path = [...segments, sidecar.file].join('/');
    entries.push({ id: path, image: vscode.Uri.joinPath(folder, sidecar.file), path, sidecar });
  }
  entries.sort((a, b) => b.sidecar.createdAt.localeCompare(a.sidecar.createdAt) || b.path.localeCompare(a.path));
  return entries.slice(0, MAX_ENTRIES);
}

async function readSidecar(uri: vscode.Uri): Promise<Sidecar | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.byteLength > 256 * 1024 ? undefined : parseSidecar(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** A data: URL of an image file when it is small enough and really an image. */
export async function thumbnailOf(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_THUMBNAIL_BYTES) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    const format = detectImageFormat(bytes);
    return format ? `data:${mimeTypeOf(format)};base64,${Buffer.from(bytes).toString('base64')}` : undefined;
  } catch {
    return undefined;
  }
}

export async function toGalleryItems(entries: GalleryEntry[]): Promise<GalleryItem[]> {
  const items: GalleryItem[] = [];
  for (const [index, entry] of entries.entries()) {
    const s = entry.sidecar;
    items.push({
      id: entry.id,
      path: entry.path,
      prompt: s.prompt,
      model: s.model,
      size: s.width && s.height ? `${s.width}x${s.height}` : s.size,
      quality: s.quality,
      createdAt: s.createdAt,
      kind: s.kind,
      thumbnail: index < MAX_THUMBNAILS ? await thumbnailOf(entry.image) : undefined,
    });
  }
  return items;
}
