// Real image bytes for tests, written here from the formats' specifications (not by the code under test): PNGs of
// any size (zlib from node), a two-frame GIF, JPEG and WebP headers as their encoders write them, a truncated PNG and
// a file named .png that is text. The browser tests make real JPEG and WebP bytes with Chromium's own encoders.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A screenshot-like pixel: a title bar, then lines of "text" (dense dark and light specks, as glyphs at small sizes
 * are) on a background with a faint gradient, so the PNG compresses about as a real screenshot does, not to nothing.
 */
export function screenshotPixel(x: number, y: number): [number, number, number] {
  if (y < 60) return [45, 45, 52];
  const bg = 240 - Math.floor((x * 12) / 4000);
  const line = y % 22;
  if (line < 14 && x % 700 < 560) {
    const h = Math.imul((x * 73856093) ^ (y * 19349663), 0x9e3779b1) >>> 24;
    if (h < 110) return [30 + (h & 31), 30 + (h & 31), 40 + (h & 15)];
  }
  return [bg, bg, bg + 4];
}

/** An 8-bit RGB PNG of `width`×`height`: a screenshot-like picture (flat areas, a few edges) unless `pixel` says. */
export function pngBytes(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number] = screenshotPixel,
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** GIF LZW data of literal codes only (valid, uncompressed): the code size grows as a decoder's table does. */
function gifLzw(indices: number[], minCodeSize = 2): Buffer {
  const clear = 1 << minCodeSize;
  let size = minCodeSize + 1;
  let next = clear + 2;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  const emit = (code: number) => {
    acc |= code << bits;
    bits += size;
    while (bits >= 8) {
      bytes.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  };
  emit(clear);
  indices.forEach((index, i) => {
    emit(index);
    if (i > 0) {
      next++;
      if (next === 1 << size && size < 12) size++;
    }
  });
  emit(clear + 1);
  if (bits > 0) bytes.push(acc & 0xff);
  const blocks: number[] = [];
  for (let i = 0; i < bytes.length; i += 255) {
    const part = bytes.slice(i, i + 255);
    blocks.push(part.length, ...part);
  }
  return Buffer.from([minCodeSize, ...blocks, 0]);
}

/** A `width`×`height` GIF89a with one frame per colour index (0 red, 1 blue), looping: an animated GIF. */
export function animatedGifBytes(width = 4, height = 3, frames = [0, 1]): Buffer {
  const le = (n: number) => [n & 0xff, n >> 8];
  const frame = (colour: number) =>
    Buffer.concat([
      Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]), // graphic control: 10 cs
      Buffer.from([0x2c, 0, 0, 0, 0, ...le(width), ...le(height), 0x00]), // descriptor, no local table
      gifLzw(new Array<number>(width * height).fill(colour)),
    ]);
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    Buffer.from([...le(width), ...le(height), 0x80, 0, 0]), // global table of 2 colours
    Buffer.from([255, 0, 0, 0, 0, 255]),
    Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0'), 0x03, 0x01, 0x00, 0x00, 0x00]),
    ...frames.map(frame),
    Buffer.from([0x3b]),
  ]);
}

/** A JPEG's start as encoders write it: SOI, an APP1 (EXIF-sized) segment, DQT, then SOF0 with `components`. */
export function jpegHeaderBytes(width: number, height: number, components = 3, exifBytes = 2000): Buffer {
  const segment = (marker: number, body: Buffer) => {
    const len = Buffer.alloc(2);
    len.writeUInt16BE(body.length + 2);
    return Buffer.concat([Buffer.from([0xff, marker]), len, body]);
  };
  const sof = Buffer.alloc(6 + components * 3);
  sof[0] = 8;
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof[5] = components;
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe1, Buffer.alloc(exifBytes, 0x45)),
    segment(0xdb, Buffer.alloc(65, 1)),
    segment(0xc0, sof),
  ]);
}

/** A WebP's RIFF header with a VP8X chunk (extended format) of this canvas size. */
export function webpVp8xHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'ascii');
  b.write('VP8X', 12, 'ascii');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

/** A WebP's RIFF header with a lossless VP8L chunk of this size. */
export function webpVp8lHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'ascii');
  b.write('VP8L', 12, 'ascii');
  b.writeUInt32LE(5, 16);
  b[20] = 0x2f;
  b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return b;
}

/** A text file someone named screenshot.png. */
export const notAPng = Buffer.from('this is not an image, only named like one\n');
