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
}

export function see(bytes: Buffer): SeenImage {
  const sha256 = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const size = sizeOf(bytes) ?? { format: 'unknown', width: 0, height: 0 };
  return { ...size, bytes: bytes.length, sha256 };
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
