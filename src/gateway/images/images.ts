// Image routes: generation, edits (JSON data URLs or multipart), mime sniffing, result normalisation.
import type { FormData } from 'undici';
import { stripImageMetadata } from '../../shared/imageMetadata';
import { undici } from '../undici';
import { reportUsage, type ClientContext } from '../context';
import { protocolError, readJson, send, type CallSpec } from '../http';
import type { GeneratedImage, ImageEditRequest, ImageInput, ImageRequest, ImageResult, RequestOptions } from '../types';

type Json = Record<string, unknown>;
const REQUEST_FIELDS = [
  'model',
  'prompt',
  'size',
  'n',
  'quality',
  'response_format',
  'background',
  'output_format',
  'style',
] as const;

/** Mime type of image bytes (PNG, JPEG, WebP, GIF), else from the file name, else octet-stream. */
export function detectMime(data: Uint8Array, filename?: string): string {
  const b = data;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 6 && ascii(b, 0, 4) === 'GIF8') return 'image/gif';
  const ext = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase();
  const byExt: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    webp: 'image/webp',
    gif: 'image/gif',
  };
  return (ext && byExt[ext]) || 'application/octet-stream';
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

/** The JSON fields of an image request (undefined fields left out). */
export function imageFields(req: ImageRequest): Json {
  const out: Json = {};
  for (const k of REQUEST_FIELDS) if (req[k] !== undefined) out[k] = req[k];
  return out;
}

function dataUrl(input: ImageInput): string {
  const mime = input.mimeType ?? detectMime(input.data, input.filename);
  const bytes = stripImageMetadata(input.data);
  return `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

/** The body of an edit request: JSON with data URLs, or multipart with image / image[] / mask. */
export function editBody(req: ImageEditRequest, encoding: 'json' | 'multipart'): string | FormData {
  if (encoding === 'json') {
    const body: Json = { ...imageFields(req), images: req.images.map((i) => ({ image_url: dataUrl(i) })) };
    if (req.mask) body.mask = { image_url: dataUrl(req.mask) };
    return JSON.stringify(body);
  }
  const form = new (undici().FormData)();
  for (const [k, v] of Object.entries(imageFields(req))) form.append(k, String(v));
  const field = req.images.length > 1 ? 'image[]' : 'image';
  req.images.forEach((img, i) => form.append(field, blobOf(img), img.filename ?? `image-${i + 1}.${extOf(img)}`));
  if (req.mask) form.append('mask', blobOf(req.mask), req.mask.filename ?? `mask.${extOf(req.mask)}`);
  return form;
}

function blobOf(input: ImageInput): Blob {
  return new Blob([new Uint8Array(stripImageMetadata(input.data))], {
    type: input.mimeType ?? detectMime(input.data, input.filename),
  });
}

function extOf(input: ImageInput): string {
  const mime = input.mimeType ?? detectMime(input.data, input.filename);
  return mime === 'image/jpeg' ? 'jpg' : mime.startsWith('image/') ? mime.slice(6) : 'bin';
}

/** One image from any entry shape: a string (URL or base64) or {url | b64_json | b64 | image_url | result_url}. */
export function imageOf(entry: unknown, baseUrl: string): GeneratedImage | undefined {
  if (typeof entry === 'string') return fromString(entry, baseUrl);
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Json;
  const revisedPrompt = typeof e.revised_prompt === 'string' ? e.revised_prompt : undefined;
  const b64 = firstString(e.b64_json, e.b64, e.base64);
  const url = firstString(e.url, e.image_url, e.result_url, e.image);
  const img = b64 ? { b64 } : url ? fromString(url, baseUrl) : undefined;
  return img && revisedPrompt ? { ...img, revisedPrompt } : img;
}

function fromString(s: string, baseUrl: string): GeneratedImage | undefined {
  const v = s.trim();
  if (v === '') return undefined;
  const data = /^data:[^,]*;base64,(.*)$/is.exec(v);
  if (data) return { b64: data[1] };
  if (/^https?:\/\//i.test(v)) return { url: v };
  if (v.startsWith('/') && !v.startsWith('//') && baseUrl) return { url: new URL(baseUrl).origin + v };
  if (/^[A-Za-z0-9+/=\r\n_-]+$/.test(v) && v.length >= 16) return { b64: v.replace(/\s+/g, '') };
  return undefined;
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim() !== '') return v;
  return undefined;
}

/** Images of a list (entries of any shape); non-images are skipped. */
export function imagesOf(list: unknown, baseUrl: string): GeneratedImage[] {
  const arr = Array.isArray(list) ? list : list === undefined || list === null ? [] : [list];
  const out: GeneratedImage[] = [];
  for (const entry of arr) {
    const img = imageOf(entry, baseUrl);
    if (img) out.push(img);
  }
  return out;
}

/** Normalises a sync image reply: {data:[{url|b64_json, revised_prompt}], usage}. */
export function imageResultOf(raw: unknown, baseUrl: string, requestId?: string): ImageResult | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Json;
  const list = Array.isArray(r.data)
    ? r.data
    : Array.isArray(r.images)
      ? r.images
      : Array.isArray(r.results)
        ? r.results
        : undefined;
  if (!list) return undefined;
  return { images: imagesOf(list, baseUrl), usage: r.usage, requestId, raw };
}

/** The POST of an image request (generations or edits, sync or async) to `path`, with its body. */
export function imagePost(
  ctx: ClientContext,
  path: string,
  body: string | FormData,
  model: string,
  options: RequestOptions | undefined,
): CallSpec {
  return {
    method: 'POST',
    route: `POST ${path}`,
    url: ctx.baseUrl + path,
    auth: 'bearer',
    body,
    model,
    signal: options?.signal,
    onWait: options?.onWait,
  };
}

/** Sends a sync image request and reads its reply; its usage (the images and their size) is reported. */
async function imageCall(ctx: ClientContext, spec: CallSpec, size: string | undefined): Promise<ImageResult> {
  const ex = await send(ctx, spec);
  const result = imageResultOf(await readJson(ctx, spec, ex), ctx.baseUrl, ex.requestId);
  if (!result) throw protocolError(ctx, spec, ex, 'the image reply has no data array');
  reportUsage(ctx, { route: spec.route, model: spec.model ?? '', images: { count: result.images.length, size } });
  return result;
}

/** POST /v1/images/generations. */
export function generateImage(ctx: ClientContext, req: ImageRequest, options?: RequestOptions): Promise<ImageResult> {
  const body = JSON.stringify(imageFields(req));
  return imageCall(ctx, imagePost(ctx, '/v1/images/generations', body, req.model, options), req.size);
}

/** POST /v1/images/edits. */
export function editImage(ctx: ClientContext, req: ImageEditRequest, options?: RequestOptions): Promise<ImageResult> {
  const body = editBody(req, ctx.editEncoding);
  return imageCall(ctx, imagePost(ctx, '/v1/images/edits', body, req.model, options), req.size);
}
