// Public types of the gateway client's image calls (re-exported from types.ts). Pure: no `vscode` import.
// Field names of request bodies follow the wire format (snake_case) on purpose: they are sent as they are.

export type ImageQuality = 'low' | 'medium' | 'high' | 'auto' | 'standard' | 'hd';

export interface ImageRequest {
  model: string;
  prompt: string;
  /** "WIDTHxHEIGHT". */
  size?: string;
  n?: number;
  quality?: ImageQuality | (string & {});
  response_format?: 'url' | 'b64_json';
  background?: string;
  output_format?: 'png' | 'jpeg' | 'webp';
  style?: string;
}

/** An image sent to an edit route (source, mask or reference). */
export interface ImageInput {
  data: Uint8Array;
  /** Used as the multipart file name and to guess the type. */
  filename?: string;
  /** Detected from the bytes when absent. */
  mimeType?: string;
}

export interface ImageEditRequest extends ImageRequest {
  /** Source image first, then reference images. At least one. */
  images: ImageInput[];
  mask?: ImageInput;
}

export interface GeneratedImage {
  url?: string;
  b64?: string;
  revisedPrompt?: string;
}

export interface ImageResult {
  images: GeneratedImage[];
  usage?: unknown;
  requestId?: string;
  raw: unknown;
}

export type ImageTaskStatus = 'pending' | 'succeeded' | 'failed';

export interface ImageTaskRef {
  id: string;
  /** Absolute URL to poll, when the gateway gave one (poll_url or Location). */
  pollUrl?: string;
  status: ImageTaskStatus;
  retryAfterMs?: number;
  requestId?: string;
  raw: unknown;
}

export interface ImageTask {
  id: string;
  status: ImageTaskStatus;
  /** The gateway's own status word, as sent. */
  rawStatus?: string;
  /** 0..100 when the gateway reports it. */
  progress?: number;
  images: GeneratedImage[];
  /** The gateway's failure message for failed tasks. */
  error?: string;
  /** True when the task failed because it expired (or 404 on a known id). */
  expired?: boolean;
  /** The task's own expiry (epoch ms), when the gateway sends one. */
  expiresAt?: number;
  /** Still pending when polling had to end (its expiry or the caller's deadline passed): the outcome is unknown. */
  outcomeUnknown?: boolean;
  retryAfterMs?: number;
  requestId?: string;
  raw: unknown;
}
