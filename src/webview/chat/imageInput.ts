// Images into the composer (page side): a pasted or dropped image, or a workspace image the host read, is scaled here
// before it leaves the machine (createImageBitmap → canvas → JPEG or WebP), so the gateway, billed per token, never gets more
// pixels than the model uses (IMAGE_LIMITS: long edge 1568 px, ~1.15 megapixels, 5 MB). An image already within the
// limits goes as it is (no re-encoding loss), except a GIF, which goes as a PNG of its first frame (what models see).
// Pixels come only from local bytes: the page loads nothing from the network (its CSP allows none).
import { IMAGE_LIMITS, imageTypeOfName, readImageHeader, scaledSize } from '../../shared/imageFormat';
import type { AddImageParams } from '../../shared/protocol/chat';

export type Prepared = { ok: true; params: AddImageParams } | { ok: false; reason: 'unreadable' | 'tooLarge' };

/** What the composer can show from the header alone, before the image is decoded, encoded and handed to the host. */
export interface ImagePreview {
  /** Pixel size as it will be sent. */
  width: number;
  height: number;
  /** The size it had, when it is re-encoded (scaled down, a GIF's frame, above 5 MB). */
  original?: { width: number; height: number; bytes: number };
}

/** Early news of an image being prepared: its size from the header, then its thumbnail's pixels once decoded. */
export interface PreviewHooks {
  sized?(preview: ImagePreview): void;
  decoded?(thumbnail: OffscreenCanvas | HTMLCanvasElement): void;
}

/** Above this a PNG that is not scaled (a GIF's frame, an oversized file) is sent as WebP instead. */
const PNG_KEEP_BYTES = 1024 * 1024;
/** Bytes read for the header: a JPEG's size follows its EXIF block, which stays under 64 KB. */
const HEADER_BYTES = 64 * 1024 + 1024;

/**
 * The image of a paste, a drop or a workspace read, scaled and encoded as it will be sent, with its thumbnail.
 * Where the time goes for a 4000×3000 screenshot PNG (headless Chromium, 2 loaded cores): decoding ~80 ms, the scaled
 * draw ~4 ms, a JPEG of the scaled pixels ~20 ms (a WebP ~145 ms, a PNG ~60 ms and, for a screenshot, 2.3 MB), the
 * base64 of the bytes a few ms through FileReader. So only the header is read before decoding (no copy of the file),
 * a scaled image that is opaque goes as JPEG (transparent: WebP) without a PNG tried first, and `hooks` let the
 * composer show the chip from the header at once and its thumbnail right after decoding, while the encoding runs.
 */
export async function prepareImage(
  blob: Blob,
  name: string,
  maxLongEdge: number = IMAGE_LIMITS.maxLongEdge,
  hooks: PreviewHooks = {},
): Promise<Prepared> {
  const header = await headerOf(blob);
  if (!header) return { ok: false, reason: 'unreadable' };
  const sized = scaledSize(header.width, header.height, maxLongEdge);
  const reencodes = (width: number, height: number, size: { width: number; height: number }) =>
    size.width !== width ||
    size.height !== height ||
    header.mediaType === 'image/gif' ||
    blob.size > IMAGE_LIMITS.maxBytes;
  hooks.sized?.({
    ...sized,
    ...(reencodes(header.width, header.height, sized)
      ? { original: { width: header.width, height: header.height, bytes: blob.size } }
      : {}),
  });
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(
      blob.type === header.mediaType ? blob : new Blob([blob], { type: header.mediaType }),
    );
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  try {
    const size = scaledSize(bitmap.width, bitmap.height, maxLongEdge);
    const scaled = size.width !== bitmap.width || size.height !== bitmap.height;
    const reencode = reencodes(bitmap.width, bitmap.height, size);
    const canvas = reencode ? draw(bitmap, size.width, size.height) : undefined;
    const thumb = scaledSize(size.width, size.height, IMAGE_LIMITS.thumbnailEdge, Number.MAX_SAFE_INTEGER);
    const thumbCanvas = draw(canvas ?? bitmap, thumb.width, thumb.height);
    const original = reencode ? { width: bitmap.width, height: bitmap.height, bytes: blob.size } : undefined;
    hooks.decoded?.(thumbCanvas);
    let bytes: Blob = blob;
    if (canvas) {
      bytes = scaled ? await encodeScaled(canvas, header.mediaType) : await encodeFrame(canvas);
      if (bytes.size > IMAGE_LIMITS.maxBytes) return { ok: false, reason: 'tooLarge' };
    }
    const thumbnail = await dataUrl(await toBlob(thumbCanvas, 'image/webp', 0.8));
    const params: AddImageParams = { name, data: await base64OfBlob(bytes), thumbnail };
    if (original) params.original = original;
    return { ok: true, params };
  } finally {
    bitmap.close();
  }
}

/** The header from the file's first bytes (the whole file only when a JPEG's size lies further in). */
async function headerOf(blob: Blob): Promise<ReturnType<typeof readImageHeader>> {
  const head = readImageHeader(new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer()));
  if (head || blob.size <= HEADER_BYTES) return head;
  return readImageHeader(new Uint8Array(await blob.arrayBuffer()));
}

/**
 * A scaled image: its pixels were resampled anyway, so a lossless PNG buys nothing but bytes (2.3 MB for a scaled
 * screenshot). A JPEG stays a JPEG; opaque pixels go as JPEG; transparent ones as WebP (which keeps the alpha).
 */
async function encodeScaled(canvas: OffscreenCanvas | HTMLCanvasElement, type: string): Promise<Blob> {
  if (type === 'image/jpeg' || opaque(canvas)) return toBlob(canvas, 'image/jpeg', 0.9);
  return toBlob(canvas, 'image/webp', 0.9);
}

/** An image sent at its own size (a GIF's first frame, a file above 5 MB): a PNG unless that is large, then a WebP. */
async function encodeFrame(canvas: OffscreenCanvas | HTMLCanvasElement): Promise<Blob> {
  const png = await toBlob(canvas, 'image/png');
  if (png.size <= PNG_KEEP_BYTES) return png;
  for (const quality of [0.9, 0.8, 0.6]) {
    const webp = await toBlob(canvas, 'image/webp', quality);
    if (webp.size <= IMAGE_LIMITS.maxBytes || quality === 0.6) return webp.size < png.size ? webp : png;
  }
  return png;
}

/** True when every pixel is fully opaque (a screenshot): one pass over the alpha bytes, a few ms at 1.15 MP. */
function opaque(canvas: OffscreenCanvas | HTMLCanvasElement): boolean {
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) return false;
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

function draw(
  bitmap: ImageBitmap | OffscreenCanvas | HTMLCanvasElement,
  width: number,
  height: number,
): OffscreenCanvas | HTMLCanvasElement {
  const canvas: OffscreenCanvas | HTMLCanvasElement =
    typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(width, height) : document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!context) throw new Error('no 2d canvas');
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
  return canvas;
}

function toBlob(canvas: OffscreenCanvas | HTMLCanvasElement, type: string, quality?: number): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type, quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob'))), type, quality),
  );
}

async function bytesOf(blob: Blob): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await blob.arrayBuffer());
}

async function dataUrl(blob: Blob): Promise<string> {
  const type = blob.type === 'image/webp' || blob.type === 'image/jpeg' ? blob.type : 'image/png';
  return `data:${type};base64,${base64(await bytesOf(blob))}`;
}

/** The base64 of a blob's bytes, encoded natively (FileReader) rather than a character at a time in script. */
function base64OfBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('read'));
    reader.readAsDataURL(blob);
  });
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(i + 0x8000, bytes.length)));
  return btoa(binary);
}

export function fromBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Files of a paste or a drop that are images (by type, or by name when the type is empty). */
export function imageFiles(files: Iterable<File>): File[] {
  return [...files].filter((f) => f.type.startsWith('image/') || (!f.type && imageTypeOfName(f.name) !== undefined));
}
