// The emulator's own reading of an image's bytes (independent of src/gateway and src/shared): the format and pixel
// size from the header (PNG IHDR, JPEG SOF, GIF screen, WebP VP8/VP8L/VP8X) and a hash of the bytes. Used by the
// chat models' replies and the request log (vision.ts) and by the token count of an image (promptCache.ts).
import { createHash } from 'node:crypto';

export interface SeenImage {
  format: string;
  width: number;
  height: number;
  bytes: number;
  /** First 16 hex digits of the SHA-256 of the bytes received. */
  sha256: string;
  /** The metadata blocks the bytes carry, when any (see metadataOf). */
  metadata?: string[];
}

export function see(bytes: Buffer): SeenImage {
  const sha256 = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const size = sizeOf(bytes) ?? { format: 'unknown', width: 0, height: 0 };
  const metadata = metadataOf(bytes);
  return { ...size, bytes: bytes.length, sha256, ...(metadata.length > 0 ? { metadata } : {}) };
}

/**
 * The metadata blocks an image carries, by name: JPEG APPn segments other than APP0 (JFIF), APP2 (ICC) and APP14 (Adobe) with
 * their identifier ("APP1 Exif", "APP1 http://ns.adobe.com/xap/1.0/", "APP13 Photoshop 3.0") and "COM"; PNG text,
 * EXIF and time chunks; WebP "EXIF" and "XMP " chunks; GIF comment and application extensions. Tests read it from the
 * request log to prove what reached the gateway.
 */
export function metadataOf(b: Buffer): string[] {
  const found: string[] = [];
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47) {
    for (let i = 8; i + 8 <= b.length;) {
      const length = b.readUInt32BE(i);
      const type = b.toString('latin1', i + 4, i + 8);
      if (['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME'].includes(type)) found.push(type);
      if (type === 'IEND') break;
      i += 12 + length;
    }
  } else if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 4 <= b.length && b[i] === 0xff;) {
      const marker = b[i + 1];
      if (marker === 0xda || marker === 0xd9) break;
      const length = b.readUInt16BE(i + 2);
      if (marker >= 0xe1 && marker <= 0xef && marker !== 0xee) {
        const id = b.toString('latin1', i + 4, Math.min(i + 2 + length, i + 34)).split('\0')[0];
        if (!(marker === 0xe2 && id === 'ICC_PROFILE')) found.push(`APP${marker - 0xe0} ${id}`);
      } else if (marker === 0xfe) found.push('COM');
      i += 2 + length;
    }
  } else if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    for (let i = 12; i + 8 <= b.length;) {
      const type = b.toString('latin1', i, i + 4);
      if (type === 'EXIF' || type === 'XMP ') found.push(type);
      i += 8 + b.readUInt32LE(i + 4) + (b.readUInt32LE(i + 4) & 1);
    }
  } else if (b.length >= 13 && b.toString('latin1', 0, 3) === 'GIF') {
    const subBlocksEnd = (at: number): number => {
      while (at < b.length && b[at] !== 0) at += 1 + b[at];
      return at + 1;
    };
    let i = 13 + (b[10] & 0x80 ? 3 * 2 ** ((b[10] & 7) + 1) : 0);
    while (i < b.length && b[i] !== 0x3b) {
      if (b[i] === 0x21) {
        if (b[i + 1] === 0xfe) found.push('comment');
        const application = b.toString('latin1', i + 3, i + 14);
        if (b[i + 1] === 0xff && application !== 'NETSCAPE2.0') found.push(`application ${application}`);
        i = subBlocksEnd(i + 2);
      } else if (b[i] === 0x2c) {
        const local = b[i + 9] & 0x80 ? 3 * 2 ** ((b[i + 9] & 7) + 1) : 0;
        i = subBlocksEnd(i + 10 + local + 1);
      } else break;
    }
  }
  return found;
}

function sizeOf(b: Buffer): { format: string; width: number; height: number } | undefined {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString('latin1', 12, 16) === 'IHDR')
    return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString('latin1', 0, 3) === 'GIF')
    return { format: 'gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 30 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    const chunk = b.toString('latin1', 12, 16);
    if (chunk === 'VP8 ')
      return { format: 'webp', width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const v = b.readUInt32LE(21);
      return { format: 'webp', width: (v & 0x3fff) + 1, height: ((v >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') return { format: 'webp', width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length && b[i] === 0xff) {
      const marker = b[i + 1];
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { format: 'jpeg', width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      i += 2 + b.readUInt16BE(i + 2);
    }
  }
  return undefined;
}
