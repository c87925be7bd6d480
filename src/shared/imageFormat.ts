// Images the model can see (pure; used by the page, the host and the tests): the limits of one table
// (docs/gateway-protocol.md#images-the-model-can-see), the formats a model reads, and their pixel size read from the
// header alone (PNG IHDR, JPEG SOF, GIF screen descriptor, WebP VP8/VP8L/VP8X), so the host can check what the page
// says it scaled without decoding an image.

/** The media types every vision API of docs/gateway-protocol.md takes (Anthropic's four; OpenAI takes the same). */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export const IMAGE_LIMITS = {
  /** Long edge after scaling (Anthropic: images are resized past 1568 px; the model gains nothing above it). */
  maxLongEdge: 1568,
  /** Pixels after scaling (Anthropic: about 1.15 megapixels, e.g. 1092×1092, ~1,600 tokens). */
  maxPixels: 1_150_000,
  /** Bytes of one image as sent (Anthropic's API limit: 5 MB per image). */
  maxBytes: 5 * 1024 * 1024,
  /** Images in one question (Anthropic rejects images above 2000 px when a request holds more than 20). */
  maxPerRequest: 20,
  /** Pixels per token (Anthropic: tokens ≈ width × height / 750). */
  pixelsPerToken: 750,
  /** Long edge of the chip's thumbnail (a data URL the page shows; never the image itself). */
  thumbnailEdge: 96,
  /** Characters of a thumbnail data URL at most. */
  thumbnailChars: 48_000,
} as const;

/** Estimated input tokens of an image of this size (Anthropic's rule; OpenAI's 512-px tiles come out close). */
export function imageTokens(width: number, height: number): number {
  return Math.max(1, Math.ceil((width * height) / IMAGE_LIMITS.pixelsPerToken));
}

/** The size an image is scaled to: within the long edge and the pixel budget, aspect kept, never enlarged. */
export function scaledSize(
  width: number,
  height: number,
  maxLongEdge: number = IMAGE_LIMITS.maxLongEdge,
  maxPixels: number = IMAGE_LIMITS.maxPixels,
): { width: number; height: number } {
  const byEdge = maxLongEdge / Math.max(width, height);
  const byPixels = Math.sqrt(maxPixels / (width * height));
  const factor = Math.min(1, byEdge, byPixels);
  if (factor >= 1) return { width, height };
  // The epsilon keeps 3000 × (1568 / 3000) at 1568, not 1567.99…
  const side = (n: number) => Math.max(1, Math.floor(n * factor + 1e-9));
  return { width: side(width), height: side(height) };
}

/** The image media type a file name suggests (what `@` offers), or undefined for any other file. */
export function imageTypeOfName(name: string): ImageMediaType | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (ext === 'png') return 'image/png';
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'webp') return 'image/webp';
  if (ext === 'gif') return 'image/gif';
  return undefined;
}

/** The file extension and the short name of each format (a chip's name and tooltip). */
export const IMAGE_FORMAT_NAMES: Record<ImageMediaType, { extension: string; name: string }> = {
  'image/png': { extension: 'png', name: 'PNG' },
  'image/jpeg': { extension: 'jpg', name: 'JPEG' },
  'image/webp': { extension: 'webp', name: 'WebP' },
  'image/gif': { extension: 'gif', name: 'GIF' },
};

/**
 * The name of an image as sent: a scaled "image.png" goes as a JPEG, so its chip says "image.jpg". A name whose
 * extension names no image format keeps it.
 */
export function nameAsSent(name: string, mediaType: ImageMediaType): string {
  const named = imageTypeOfName(name);
  if (!named || named === mediaType) return name;
  return name.replace(/\.[A-Za-z0-9]+$/, `.${IMAGE_FORMAT_NAMES[mediaType].extension}`);
}

export interface ImageHeader {
  mediaType: ImageMediaType;
  width: number;
  height: number;
  /** JPEG: colour components (4 is CMYK, which some decoders and APIs refuse). */
  components?: number;
  /** GIF: more than one frame (the model sees the first). */
  animated?: boolean;
}

/** The format and pixel size from the bytes' header, or undefined when they are none of the four formats. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  if (bytes.length < 12) return undefined;
  const u16be = (i: number) => (bytes[i] << 8) | bytes[i + 1];
  const u16le = (i: number) => bytes[i] | (bytes[i + 1] << 8);
  const u24le = (i: number) => bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16);
  const u32be = (i: number) => ((bytes[i] << 24) >>> 0) + ((bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3]);
  const ascii = (i: number, n: number) => String.fromCharCode(...bytes.subarray(i, i + n));
  const sized = (h: ImageHeader) => (h.width > 0 && h.height > 0 ? h : undefined);
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') {
    if (bytes.length < 24 || ascii(12, 4) !== 'IHDR') return undefined;
    return sized({ mediaType: 'image/png', width: u32be(16), height: u32be(20) });
  }
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') {
    return sized({ mediaType: 'image/gif', width: u16le(6), height: u16le(8), animated: gifFrames(bytes) > 1 });
  }
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP' && bytes.length >= 30) {
    const chunk = ascii(12, 4);
    if (chunk === 'VP8 ')
      return sized({ mediaType: 'image/webp', width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff });
    if (chunk === 'VP8L') {
      const b = bytes[21] | (bytes[22] << 8) | (bytes[23] << 16) | (bytes[24] << 24);
      return sized({ mediaType: 'image/webp', width: (b & 0x3fff) + 1, height: ((b >>> 14) & 0x3fff) + 1 });
    }
    if (chunk === 'VP8X') return sized({ mediaType: 'image/webp', width: u24le(24) + 1, height: u24le(27) + 1 });
    return undefined;
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegHeader(bytes, u16be);
  return undefined;
}

/** The first start-of-frame marker's size and components (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegHeader(bytes: Uint8Array, u16be: (i: number) => number): ImageHeader | undefined {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return undefined;
    const marker = bytes[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = u16be(i + 5);
      const width = u16be(i + 7);
      if (width === 0 || height === 0) return undefined;
      return { mediaType: 'image/jpeg', width, height, components: bytes[i + 9] };
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    i += 2 + u16be(i + 2);
  }
  return undefined;
}

/** Image descriptors of a GIF, counted up to two (walks the blocks; a truncated file counts what it has). */
function gifFrames(bytes: Uint8Array): number {
  let i = 13;
  if (bytes[10] & 0x80) i += 3 * (1 << ((bytes[10] & 0x07) + 1));
  let frames = 0;
  const skipSubBlocks = () => {
    while (i < bytes.length && bytes[i] !== 0) i += bytes[i] + 1;
    i++;
  };
  while (i < bytes.length && frames < 2) {
    const block = bytes[i];
    if (block === 0x3b) break;
    if (block === 0x21) {
      i += 2;
      skipSubBlocks();
    } else if (block === 0x2c) {
      frames++;
      const packed = bytes[i + 9];
      i += 10;
      if (packed & 0x80) i += 3 * (1 << ((packed & 0x07) + 1));
      i++; // LZW minimum code size
      skipSubBlocks();
    } else break;
  }
  return frames;
}
