// Image format and dimensions from the bytes themselves (never from a server's name or type).
// Pure: PNG, JPEG, WebP and GIF signatures; dimensions for PNG, JPEG, WebP (and GIF).

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export interface ImageDimensions {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

/** The format the bytes are in, or undefined when they are not one of the four image formats. */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'gif';
  return undefined;
}

export function mimeTypeOf(format: ImageFormat): string {
  return `image/${format}`;
}

export function extensionOf(format: ImageFormat): 'png' | 'jpg' | 'webp' | 'gif' {
  return format === 'jpeg' ? 'jpg' : format;
}

/** Width and height read from the header, or undefined when the header is missing or malformed. */
export function imageDimensions(bytes: Uint8Array): ImageDimensions | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (detectImageFormat(bytes)) {
    case 'png':
      return bytes.length >= 24 && ascii(bytes, 12, 4) === 'IHDR'
        ? valid(view.getUint32(16), view.getUint32(20))
        : undefined;
    case 'gif':
      return bytes.length >= 10 ? valid(view.getUint16(6, true), view.getUint16(8, true)) : undefined;
    case 'jpeg':
      return jpegDimensions(bytes, view);
    case 'webp':
      return webpDimensions(bytes, view);
    default:
      return undefined;
  }
}

function valid(width: number, height: number): ImageDimensions | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/** Walks the JPEG markers to the first start-of-frame (SOF0..SOF15 except DHT, JPG, DAC). */
function jpegDimensions(bytes: Uint8Array, view: DataView): ImageDimensions | undefined {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset += 1;
      continue;
    } // fill byte
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = view.getUint16(offset + 2);
    if (length < 2) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      return offset + 9 <= bytes.length ? valid(view.getUint16(offset + 7), view.getUint16(offset + 5)) : undefined;
    }
    offset += 2 + length;
  }
  return undefined;
}

function webpDimensions(bytes: Uint8Array, view: DataView): ImageDimensions | undefined {
  if (bytes.length < 30) return undefined;
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ') {
    // Lossy: frame tag (3 bytes) + start code 9d 01 2a, then 14-bit width and height.
    if (!startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return undefined;
    return valid(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return undefined;
    const bits = view.getUint32(21, true);
    return valid((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') {
    const width = 1 + (bytes[24] | (bytes[25] << 8) | (bytes[26] << 16));
    const height = 1 + (bytes[27] | (bytes[28] << 8) | (bytes[29] << 16));
    return valid(width, height);
  }
  return undefined;
}

/** "1024x768" → {1024, 768}; undefined for anything else. */
export function parseSize(size: string | undefined): ImageDimensions | undefined {
  const match = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/.exec(size ?? '');
  return match ? valid(Number(match[1]), Number(match[2])) : undefined;
}
