// Reading error bodies of every shape gateways send (docs/gateway-protocol.md#error-bodies), and mapping
// HTTP statuses and error types to GatewayError kinds. Never throws on any input.
import type { GatewayErrorKind } from './types';

export interface ParsedErrorBody {
  message?: string;
  /** The most specific code: a gateway code (INSUFFICIENT_BALANCE) or the error type. */
  code?: string;
  /** The Messages/OpenAI error type, when sent (rate_limit_error, ...). */
  type?: string;
  requestId?: string;
}

const MAX_MESSAGE = 500;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/** Parses an error body (JSON of any known shape, HTML, plain text, empty). */
export function parseErrorBody(text: string, contentType?: string): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('{')) {
    const json = tryJson(trimmed);
    if (isObject(json)) return fromJson(json);
  }
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed) || /<\/(html|body|h1|p|div)>/i.test(trimmed)) {
    return { message: htmlToText(trimmed) };
  }
  return { message: shorten(trimmed.replace(/\s+/g, ' ')) };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fromJson(json: Json): ParsedErrorBody {
  const error = json.error;
  const out: ParsedErrorBody = { requestId: str(json.request_id) ?? str(json.requestId) };
  if (isObject(error)) {
    out.message = str(error.message) ?? str(error.msg);
    out.type = str(error.type);
    out.code = str(error.code) ?? out.type;
  } else if (typeof error === 'string') {
    out.message = str(error);
  }
  out.message ??= str(json.message) ?? str(json.msg) ?? str(json.detail) ?? str(json.error_msg) ?? str(json.error_description);
  out.code ??= str(json.code) ?? str(json.error_code) ?? (json.type !== 'error' ? str(json.type) : undefined);
  if (out.message) out.message = shorten(out.message);
  if (out.code && out.code.length > 100) out.code = out.code.slice(0, 100);
  return out;
}

/** A short readable text from an HTML error page: its title, else its visible text. */
export function htmlToText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const source = title ?? heading ?? html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  const text = decodeEntities(source.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  return shorten(text === '' ? 'HTML error page' : text);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)))
    .replace(/&amp;/g, '&');
}

function shorten(text: string): string {
  return text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE - 1) + '…' : text;
}

/** Error kind of an HTTP status (docs/gateway-protocol.md#error-bodies). */
export function kindForStatus(status: number): GatewayErrorKind {
  if (status === 401) return 'auth';
  if (status === 402 || status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** Error kind of a Messages-style error type (used for mid-stream `error` events). */
export function kindForErrorType(type: string | undefined): GatewayErrorKind {
  switch (type) {
    case 'authentication_error': return 'auth';
    case 'permission_error':
    case 'billing_error': return 'forbidden';
    case 'not_found_error': return 'not_found';
    case 'rate_limit_error': return 'rate_limited';
    case 'invalid_request_error':
    case 'request_too_large': return 'bad_request';
    case 'timeout_error': return 'timeout';
    default: return 'server';
  }
}
