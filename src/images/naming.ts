// File names for saved images: prompt slug + UTC time + index, safe characters only, length-capped,
// never overwriting. Pure (no vscode): the server never chooses a name, only the prompt does.

/** Longest slug kept from the prompt; the whole name stays well under every file system's limit. */
export const MAX_SLUG_LENGTH = 40;

/**
 * Letters and digits of any script (lower-cased, accents dropped), single dashes between words; 'image' when nothing
 * usable is left. A Chinese prompt names its file in Chinese ("一只猫在窗台上" → "一只猫在窗台上-…png"): the README
 * promises files named from the prompt, and letters of every script are valid in file names on every system.
 */
export function promptSlug(prompt: string, maxLength = MAX_SLUG_LENGTH): string {
  const plain = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase();
  const chars = [...plain.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+/, '')];
  const slug = chars.slice(0, Math.max(1, maxLength)).join('').replace(/-+$/, '');
  return slug || 'image';
}

/** 20261121-100734 (UTC): sortable, no ':' (illegal on Windows). */
export function timestampPart(date: Date): string {
  const iso = date.toISOString(); // 2026-11-21T10:07:34.123Z
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** Base name (no extension) of the index-th image (0-based) of one request. */
export function imageBaseName(prompt: string, date: Date, index: number): string {
  return `${promptSlug(prompt)}-${timestampPart(date)}-${index + 1}`;
}

export type ImageExtension = 'png' | 'jpg' | 'webp' | 'gif';

/**
 * The first `base.ext` (then `base-2.ext`, `base-3.ext`, ...) whose image and sidecar names are both
 * free. `taken` holds existing names of the folder; compared case-insensitively because macOS and
 * Windows folders are.
 */
export function nextFreeName(base: string, ext: ImageExtension, taken: Iterable<string>): string {
  const lower = new Set([...taken].map((name) => name.toLowerCase()));
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? base : `${base}-${attempt}`;
    if (
      !lower.has(`${candidate}.${ext}`.toLowerCase()) &&
      !lower.has(sidecarName(`${candidate}.${ext}`).toLowerCase())
    ) {
      return `${candidate}.${ext}`;
    }
  }
}

/** Names for all images of one request, each free and distinct from the others. */
export function planFileNames(
  prompt: string,
  date: Date,
  extensions: ImageExtension[],
  taken: Iterable<string>,
): string[] {
  const used = new Set(taken);
  return extensions.map((ext, index) => {
    const name = nextFreeName(imageBaseName(prompt, date, index), ext, used);
    used.add(name);
    used.add(sidecarName(name));
    return name;
  });
}

/** The sidecar JSON next to an image: `cat-1.png` → `cat-1.json`. */
export function sidecarName(imageName: string): string {
  const dot = imageName.lastIndexOf('.');
  return `${dot > 0 ? imageName.slice(0, dot) : imageName}.json`;
}
