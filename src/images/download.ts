// Turns what the gateway returned (base64, a data: URL or an http(s) URL) into bytes at once: image
// URLs expire. Downloads never carry the API key (the URL may point at any host) and are size-capped.
// Pure: undici only, no vscode.
import type { Dispatcher } from 'undici';
import { undici } from '../gateway/undici';
import type { GeneratedImage } from '../gateway/types';

export interface DownloadOptions {
  /** Same dispatcher (proxy) as the gateway client, when available. */
  dispatcher?: Dispatcher;
  signal?: AbortSignal;
  /** Relative URLs are resolved against the gateway's site root. */
  baseUrl?: string;
  maxBytes?: number;
}

export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** Bytes of one generated image; throws a plain Error with a reason in words. */
export async function obtainImageBytes(image: GeneratedImage, options: DownloadOptions = {}): Promise<Uint8Array> {
  if (image.b64) return decodeBase64(image.b64);
  if (!image.url) throw new Error('The gateway returned an image entry with neither a URL nor base64 data.');
  if (image.url.startsWith('data:')) return decodeBase64(image.url);
  let url: URL;
  try {
    url = new URL(image.url, options.baseUrl);
  } catch {
    throw new Error('The gateway returned an image URL that cannot be read.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`Image URLs must be http(s); got ${url.protocol}`);
  return download(url, options);
}

async function download(url: URL, options: DownloadOptions): Promise<Uint8Array> {
  const response = await undici().fetch(url, {
    dispatcher: options.dispatcher,
    signal: options.signal,
    redirect: 'follow',
    headers: { accept: 'image/*' },
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(
      `Downloading the image failed: HTTP ${response.status} from ${url.host} (image URLs expire; the files may be gone).`,
    );
  }
  const limit = options.maxBytes ?? MAX_IMAGE_BYTES;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.byteLength;
    if (total > limit)
      throw new Error(`The image at ${url.host} is larger than ${Math.round(limit / 1048576)} MB; not saved.`);
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** Accepts bare base64 or a data: URL. */
export function decodeBase64(value: string): Uint8Array {
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  const payload = comma >= 0 ? value.slice(comma + 1) : value;
  return new Uint8Array(Buffer.from(payload.replace(/\s+/g, ''), 'base64'));
}
