// Minimal image headers built by hand, so format and dimension readers are tested against known bytes.
export function pngHeader(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b[24] = 8;
  b[25] = 6;
  return new Uint8Array(b);
}

export function jpegHeader(width: number, height: number): Uint8Array {
  const app0 = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ];
  const dqt = [0xff, 0xdb, 0x00, 0x04, 0x00, 0x00];
  const sof = [
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return new Uint8Array([0xff, 0xd8, ...app0, ...dqt, ...sof, 0xff, 0xd9]);
}

/** A 30-byte RIFF/WEBP file whose one chunk is `chunk` ('VP8X', 'VP8L' or 'VP8 '); the caller writes its payload. */
function webpWithChunk(chunk: string, writePayload: (b: Buffer) => void): Uint8Array {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(22, 4);
  b.write('WEBP', 8, 'ascii');
  b.write(chunk, 12, 'ascii');
  b.writeUInt32LE(10, 16);
  writePayload(b);
  return new Uint8Array(b);
}

export function webpVp8x(width: number, height: number): Uint8Array {
  return webpWithChunk('VP8X', (b) => {
    b.writeUIntLE(width - 1, 24, 3);
    b.writeUIntLE(height - 1, 27, 3);
  });
}

export function webpVp8l(width: number, height: number): Uint8Array {
  return webpWithChunk('VP8L', (b) => {
    b[20] = 0x2f;
    b.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  });
}

export function webpVp8(width: number, height: number): Uint8Array {
  return webpWithChunk('VP8 ', (b) => {
    b[23] = 0x9d;
    b[24] = 0x01;
    b[25] = 0x2a;
    b.writeUInt16LE(width, 26);
    b.writeUInt16LE(height, 28);
  });
}

export function gifHeader(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'ascii');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return new Uint8Array(b);
}
