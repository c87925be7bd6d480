// Reads and validates an image request (JSON, or multipart for edits) into one shape.

import { readJsonBody, readRaw } from './access';
import { sendError } from './errors';
import { header, type Ctx } from './http';
import { boundaryOf, parseMultipart, type FormPart } from './multipart';
import { looksLikeImage } from './png';

export interface ImageRequest {
  model: unknown;
  prompt: string;
  width: number;
  height: number;
  n: number;
  quality?: string;
  responseFormat: 'url' | 'b64_json';
  sources: Buffer[];
  mask?: Buffer;
}

class Invalid extends Error {}

/** Reads the request; answers 400/413 itself and returns undefined then. */
export async function readImageRequest(ctx: Ctx, edit: boolean): Promise<ImageRequest | undefined> {
  const boundary = boundaryOf(header(ctx.req, 'content-type'));
  let fields: Record<string, unknown>;
  let sources: Buffer[] = [];
  let mask: Buffer | undefined;
  try {
    if (edit && boundary) {
      const raw = await readRaw(ctx);
      if (!raw) return undefined;
      ({ fields, sources, mask } = fromMultipart(parseMultipart(raw, boundary)));
    } else {
      const body = await readJsonBody(ctx);
      if (!body) return undefined;
      fields = body;
      if (edit) ({ sources, mask } = fromJsonImages(body));
    }
    return validate(ctx, fields, sources, mask, edit);
  } catch (err) {
    sendError(
      ctx,
      400,
      err instanceof Invalid ? err.message : `Malformed multipart body: ${(err as Error).message}`,
      'invalid_request',
    );
    return undefined;
  }
}

function fromMultipart(parts: FormPart[]): { fields: Record<string, unknown>; sources: Buffer[]; mask?: Buffer } {
  const fields: Record<string, unknown> = {};
  const sources: Buffer[] = [];
  let mask: Buffer | undefined;
  for (const p of parts) {
    if (p.name === 'image' || p.name === 'image[]') sources.push(p.data);
    else if (p.name === 'mask') mask = p.data;
    else fields[p.name] = p.data.toString('utf8');
  }
  if (typeof fields.n === 'string') fields.n = Number(fields.n);
  return { fields, sources, mask };
}

function decodeDataUrl(value: unknown, what: string): Buffer {
  const url =
    typeof value === 'string'
      ? value
      : ((value as { image_url?: unknown; url?: unknown } | null)?.image_url ??
        (value as { url?: unknown } | null)?.url);
  const text =
    typeof url === 'string'
      ? url
      : typeof (url as { url?: unknown })?.url === 'string'
        ? (url as { url: string }).url
        : undefined;
  if (!text) throw new Invalid(`${what}: expected {image_url: "data:image/png;base64,..."}.`);
  const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(text);
  if (!m) throw new Invalid(`${what}: only data: URLs are accepted (the emulator does not fetch remote images).`);
  return m[2] ? Buffer.from(m[3], 'base64') : Buffer.from(decodeURIComponent(m[3]), 'latin1');
}

function fromJsonImages(body: Record<string, unknown>): { sources: Buffer[]; mask?: Buffer } {
  const list = body.images ?? body.image;
  const items = Array.isArray(list) ? list : list === undefined ? [] : [list];
  const sources = items.map((item, i) => decodeDataUrl(item, `images[${i}]`));
  const mask = body.mask === undefined || body.mask === null ? undefined : decodeDataUrl(body.mask, 'mask');
  return { sources, mask };
}

function validate(
  ctx: Ctx,
  f: Record<string, unknown>,
  sources: Buffer[],
  mask: Buffer | undefined,
  edit: boolean,
): ImageRequest {
  const cfg = ctx.state.config;
  if (typeof f.model === 'string') ctx.entry.model = f.model;
  ctx.entry.imageRequest = {
    ...(typeof f.size === 'string' ? { size: f.size } : {}),
    ...(typeof f.quality === 'string' ? { quality: f.quality } : {}),
    ...(typeof f.n === 'number' ? { n: f.n } : {}),
  };
  if (typeof f.prompt !== 'string' || !f.prompt.trim())
    throw new Invalid('prompt: Field required (a text describing the image).');
  const { width, height } = parseSize(f.size, cfg.images.defaultSize, cfg.images.minSide, cfg.images.maxSide);
  const n = f.n === undefined ? 1 : f.n;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > cfg.images.maxN)
    throw new Invalid(`n: must be an integer from 1 to ${cfg.images.maxN}.`);
  if (f.quality !== undefined && (typeof f.quality !== 'string' || !(f.quality in cfg.prices.quality))) {
    throw new Invalid(`quality: must be one of ${Object.keys(cfg.prices.quality).join(', ')}.`);
  }
  const format = f.response_format ?? 'b64_json';
  if (format !== 'url' && format !== 'b64_json') throw new Invalid("response_format: must be 'url' or 'b64_json'.");
  if (edit && sources.length === 0) throw new Invalid('image: at least one source image is required for an edit.');
  sources.forEach((s, i) => {
    if (!looksLikeImage(s)) throw new Invalid(`image ${i + 1}: not an image (expected PNG, JPEG, GIF or WebP bytes).`);
  });
  if (mask && !looksLikeImage(mask)) throw new Invalid('mask: not an image (expected PNG bytes).');
  return {
    model: f.model,
    prompt: f.prompt,
    width,
    height,
    n,
    quality: f.quality as string | undefined,
    responseFormat: format,
    sources,
    mask,
  };
}

function parseSize(size: unknown, fallback: string, min: number, max: number): { width: number; height: number } {
  const text = size === undefined || size === 'auto' ? fallback : size;
  const m = typeof text === 'string' ? /^(\d{1,5})x(\d{1,5})$/.exec(text) : null;
  if (!m) throw new Invalid(`size: expected <width>x<height>, e.g. ${fallback}.`);
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < min || height < min || width > max || height > max)
    throw new Invalid(`size: each side must be from ${min} to ${max} pixels.`);
  return { width, height };
}
