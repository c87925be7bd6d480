// A small PNG encoder (8-bit RGB, zlib from node) and a deterministic picture drawn from the prompt.

import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Encodes RGB pixels (width*height*3 bytes, row-major) as a PNG file. */
export function encodePng(width: number, height: number, rgb: Buffer): Buffer {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) rgb.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride); // filter 0
  return encodeScanlines(width, height, raw);
}

/** PNG from scanlines that already carry their filter byte (0) in front of each row. */
function encodeScanlines(width: number, height: number, raw: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  // Level 1: large images must not stall the emulator; the pattern compresses well anyway.
  const idat = deflateSync(raw, { level: 1 });
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

/** Width and height from a PNG's IHDR, or undefined when it is not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | undefined {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('ascii', 12, 16) !== 'IHDR')
    return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Draws the picture for a prompt: a diagonal gradient between two colours taken from the prompt's hash,
 * with a checker pattern whose cell size also comes from the hash. Same prompt + size + index = same bytes.
 */
export function renderPromptImage(prompt: string, width: number, height: number, index = 0): Buffer {
  const h = createHash('sha256').update(`${index}:${prompt}`).digest();
  const a = [h[0], h[1], h[2]];
  const b = [h[3], h[4], h[5]];
  const cell = 8 << (h[6] % 4);
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height); // filter byte 0 at the start of each row
  const span = Math.max(1, width + height - 2);
  for (let y = 0; y < height; y++) {
    const rowDark = Math.floor(y / cell);
    for (let x = 0; x < width; x++) {
      const t = (x + y) / span;
      const dark = ((Math.floor(x / cell) + rowDark) & 1) === 1 ? 0.75 : 1;
      const o = y * stride + 1 + x * 3;
      raw[o] = (a[0] + (b[0] - a[0]) * t) * dark;
      raw[o + 1] = (a[1] + (b[1] - a[1]) * t) * dark;
      raw[o + 2] = (a[2] + (b[2] - a[2]) * t) * dark;
    }
  }
  return encodeScanlines(width, height, raw);
}

/** True when the bytes start like a PNG, JPEG, GIF or WebP file. */
export function looksLikeImage(buf: Buffer): boolean {
  if (buf.length < 12) return false;
  if (buf.subarray(0, 8).equals(PNG_SIGNATURE)) return true;
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return true;
  const head = buf.toString('ascii', 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return true;
  return buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP';
}
