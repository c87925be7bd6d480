// Images into the composer (page side): a pasted or dropped image, or a workspace image the host read, is scaled here
// before it leaves the machine (createImageBitmap → canvas → blob), so the gateway, billed per token, never gets more
// pixels than the model uses (IMAGE_LIMITS: long edge 1568 px, ~1.15 megapixels, 5 MB). An image already within the
// limits goes as it is (no re-encoding loss), except a GIF, which goes as a PNG of its first frame (what models see).
// Pixels come only from local bytes: the page loads nothing from the network (its CSP allows none).
import { IMAGE_LIMITS, imageTypeOfName, readImageHeader, scaledSize } from '../../shared/imageFormat';
import type { AddImageParams } from '../../shared/protocol/chat';

export type Prepared = { ok: true; params: AddImageParams } | { ok: false; reason: 'unreadable' | 'tooLarge' };

/** Above this a scaled PNG is sent as WebP instead (a photo as PNG is several times larger at the same pixels). */
const PNG_KEEP_BYTES = 1024 * 1024;

/** The image of a paste, a drop or a workspace read, scaled and encoded as it will be sent, with its thumbnail. */
export async function prepareImage(
  blob: Blob,
  name: string,
  maxLongEdge: number = IMAGE_LIMITS.maxLongEdge,
): Promise<Prepared> {
  const original = new Uint8Array(await blob.arrayBuffer());
  const header = readImageHeader(original);
  if (!header) return { ok: false, reason: 'unreadable' };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(new Blob([original], { type: header.mediaType }));
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  try {
    const size = scaledSize(bitmap.width, bitmap.height, maxLongEdge);
    const scaled = size.width !== bitmap.width || size.height !== bitmap.height;
    let bytes = original;
    if (scaled || header.mediaType === 'image/gif' || original.length > IMAGE_LIMITS.maxBytes) {
      bytes = await encode(bitmap, size.width, size.height, header.mediaType);
      if (bytes.length > IMAGE_LIMITS.maxBytes) return { ok: false, reason: 'tooLarge' };
    }
    const thumb = scaledSize(bitmap.width, bitmap.height, IMAGE_LIMITS.thumbnailEdge, Number.MAX_SAFE_INTEGER);
    const thumbnail = await dataUrl(await toBlob(draw(bitmap, thumb.width, thumb.height), 'image/webp', 0.8));
    const params: AddImageParams = { name, data: base64(bytes), thumbnail };
    if (bytes !== original) params.original = { width: bitmap.width, height: bitmap.height, bytes: original.length };
    return { ok: true, params };
  } finally {
    bitmap.close();
  }
}

/** A JPEG stays a JPEG; anything else is a PNG unless that is large, then a WebP (both keep transparency). */
async function encode(
  bitmap: ImageBitmap,
  width: number,
  height: number,
  type: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const canvas = draw(bitmap, width, height);
  if (type === 'image/jpeg') return bytesOf(await toBlob(canvas, 'image/jpeg', 0.88));
  const png = await bytesOf(await toBlob(canvas, 'image/png'));
  if (png.length <= PNG_KEEP_BYTES) return png;
  for (const quality of [0.9, 0.8, 0.6]) {
    const webp = await bytesOf(await toBlob(canvas, 'image/webp', quality));
    if (webp.length <= IMAGE_LIMITS.maxBytes || quality === 0.6) return webp.length < png.length ? webp : png;
  }
  return png;
}

function draw(bitmap: ImageBitmap, width: number, height: number): OffscreenCanvas | HTMLCanvasElement {
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
