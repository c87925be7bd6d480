// Path safety for everything the images feature writes or reads by name. Pure (posix-style
// relative paths in, checked segments out); the host joins them onto a workspace folder Uri.
// Rule: the configured output folder and every path that comes from a webview must stay inside the
// workspace folder; nothing the server sends (names, URLs) ever takes part in choosing a path.
import * as path from 'node:path';

export type SegmentsResult = { ok: true; segments: string[] } | { ok: false; reason: string };

const RESERVED_CHARS = /[<>:"|?*\u0000-\u001f]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * Splits a workspace-relative path ('images', 'assets/img', './out') into safe segments.
 * Refuses absolute paths, drive letters, '~', '..' anywhere, reserved characters and device names.
 */
export function relativeSegments(input: string): SegmentsResult {
  const value = input.trim();
  if (/^([a-zA-Z]:|[\\/]|~)/.test(value))
    return { ok: false, reason: `"${value}" is absolute; use a folder relative to the workspace.` };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { ok: false, reason: `"${value}" is a URL, not a folder.` };
  const segments = value.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  for (const segment of segments) {
    if (segment === '..') return { ok: false, reason: `"${value}" leaves the workspace ('..').` };
    if (RESERVED_CHARS.test(segment))
      return { ok: false, reason: `"${value}" contains a character that is not allowed in a file name.` };
    if (WINDOWS_DEVICE.test(segment)) return { ok: false, reason: `"${value}" uses a reserved device name.` };
    if (/[. ]$/.test(segment)) return { ok: false, reason: `"${value}" has a segment ending in a dot or space.` };
  }
  return { ok: true, segments };
}

/** The configured output folder as segments under the workspace folder ('' means the workspace root). */
export function outputFolderSegments(configured: string | undefined): SegmentsResult {
  return relativeSegments(configured ?? 'images');
}

/** True when `target` is `root` or lies below it (both absolute posix paths, e.g. Uri.path). */
export function isInside(root: string, target: string): boolean {
  const relative = path.posix.relative(path.posix.normalize(root), path.posix.normalize(target));
  return relative === '' || (!relative.startsWith('..') && !path.posix.isAbsolute(relative));
}

/** `target` relative to `root` with '/' separators, or undefined when it is not inside. */
export function relativeInside(root: string, target: string): string | undefined {
  if (!isInside(root, target)) return undefined;
  return path.posix.relative(path.posix.normalize(root), path.posix.normalize(target));
}

/** A single file name we generated ourselves still gets checked: no separators, no '..', no reserved chars. */
export function isSafeFileName(name: string): boolean {
  const result = relativeSegments(name);
  return result.ok && result.segments.length === 1 && result.segments[0] === name && name.length <= 120;
}

/** Relative link from a document's folder to an image (posix, for markdown), with spaces encoded. */
export function markdownRelativeLink(fromFolder: string, imagePath: string): string {
  const relative = path.posix.relative(path.posix.normalize(fromFolder), path.posix.normalize(imagePath));
  return relative
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
}
