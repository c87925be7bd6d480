// Reading error bodies of every shape gateways send (docs/gateway-protocol.md#error-bodies), and mapping
// HTTP statuses and error types to GatewayError kinds. Never throws on any input.
import { STATUS_CODES } from 'node:http';
import type { GatewayErrorKind } from '../types';
import { isObj, type Json } from '../json';

export interface ParsedErrorBody {
  message?: string;
  /** The most specific code: a gateway code (INSUFFICIENT_BALANCE) or the error type. */
  code?: string;
  /** The Messages/OpenAI error type, when sent (rate_limit_error, ...). */
  type?: string;
  requestId?: string;
  /** Which rule says the error came from the gateway's upstream provider (see upstreamOrigin). */
  upstream?: string;
}

const MAX_MESSAGE = 500;

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined;

/**
 * Parses an error body (JSON of any known shape, HTML, plain text, empty). A message that is only an HTTP
 * reason phrase ("Not Found", "404 page not found") is dropped: the status already says it. An HTML page
 * says so, with the server that made it (nginx, Cloudflare, ...), since it came from a proxy, not the API.
 */
export function parseErrorBody(text: string, contentType?: string, serverHeader?: string): ParsedErrorBody {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('{')) {
    const json = tryJson(trimmed);
    if (isObj(json)) return specificOnly(fromJson(json));
  }
  if (
    /html/i.test(contentType ?? '') ||
    /^<(!doctype|html|head|body|\?xml)/i.test(trimmed) ||
    /<\/(html|body|h1|p|div)>/i.test(trimmed)
  ) {
    const page = htmlToText(trimmed);
    const server = serverOf(`${serverHeader ?? ''} ${page} ${trimmed.replace(/<[^>]*>/g, ' ')}`);
    // A specific page text stands on its own (Express: "Cannot GET /v1/models"); a bare reason phrase, or
    // a page a known proxy/CDN made, is labelled so the user knows the API itself did not answer.
    return {
      message:
        server || isReasonPhrase(page) ? shorten(`HTML error page${server ? ` from ${server}` : ''}: ${page}`) : page,
    };
  }
  const message = shorten(withoutStack(trimmed).replace(/\s+/g, ' '));
  const upstream = upstreamOrigin({ message });
  return specificOnly(upstream ? { message, upstream } : { message });
}

function specificOnly(parsed: ParsedErrorBody): ParsedErrorBody {
  if (parsed.message !== undefined && isReasonPhrase(parsed.message)) delete parsed.message;
  return parsed;
}

// Servers whose own error pages stand in front of gateways (reverse proxies, CDNs).
const PAGE_SERVERS: Array<[RegExp, string]> = [
  [/\bcloudflare\b/i, 'Cloudflare'],
  [/\bopenresty\b/i, 'OpenResty'],
  [/\bnginx\b/i, 'nginx'],
  [/\bcloudfront\b/i, 'CloudFront'],
  [/\bakamai/i, 'Akamai'],
  [/\bvarnish\b/i, 'Varnish'],
  [/\bmicrosoft-iis\b/i, 'IIS'],
  [/\bapache\b/i, 'Apache'],
  [/\bcaddy\b/i, 'Caddy'],
  [/\benvoy\b/i, 'Envoy'],
  [/\bhaproxy\b/i, 'HAProxy'],
  [/\btraefik\b/i, 'Traefik'],
];

function serverOf(text: string): string | undefined {
  return PAGE_SERVERS.find(([re]) => re.test(text))?.[1];
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
  // Every place a web framework or gateway puts its message, most specific shape first. The first one
  // that is not a bare HTTP reason phrase wins: fastify/hapi send {"statusCode":404,"error":"Not Found",
  // "message":"Route GET:/v1/models not found"}, where "Not Found" says nothing the status did not.
  const candidates: Array<string | undefined> = [];
  if (isObj(error)) {
    candidates.push(
      withProviderDetail(str(error.message), error.metadata),
      str(error.msg),
      detailText(error.detail),
      str(error.error),
    );
    out.type = str(error.type);
    out.code = str(error.code) ?? out.type;
  }
  candidates.push(
    str(json.message),
    detailText(json.detail),
    str(json.msg),
    str(json.error_msg),
    str(json.error_description),
    str(json.errorMessage),
    listText(json.errors),
    typeof error === 'string' ? str(error) : undefined,
    htmlMessage(json['html-message']),
  );
  out.message = pickMessage(candidates.map((c) => (c === undefined ? undefined : withoutStack(c))));
  // {"error":"model_not_found","message":"..."}: a token-like error string is the code.
  if (
    typeof error === 'string' &&
    out.message !== error.trim() &&
    /^[A-Za-z0-9_.:-]{2,100}$/.test(error.trim()) &&
    !isReasonPhrase(error)
  )
    out.code ??= error.trim();
  out.code ??= str(json.code) ?? str(json.error_code) ?? (json.type !== 'error' ? str(json.type) : undefined);
  if (out.message) out.message = shorten(out.message);
  if (out.code && out.code.length > 100) out.code = out.code.slice(0, 100);
  const upstream = upstreamOrigin(out);
  if (upstream) out.upstream = upstream;
  return out;
}

/**
 * Portkey wraps a provider answer that is not JSON (and its own "fetch failed" when the provider cannot be
 * reached) as {"html-message": "<the text or page>"}: a page is reduced to its text like any HTML body.
 */
function htmlMessage(value: unknown): string | undefined {
  const text = str(value);
  if (text === undefined) return undefined;
  // A page goes through the HTML rules (labelled with the proxy that made it).
  return /<\/?(html|body|head|h1|p|div|title)\b/i.test(text)
    ? parseErrorBody(text, 'text/html').message
    : text.replace(/\s+/g, ' ');
}

/**
 * OpenRouter answers a provider's failure with the generic "Provider returned error" and puts what the provider
 * said in error.metadata {provider_name, raw}: the raw body's own message (or text) and the provider are added.
 */
function withProviderDetail(message: string | undefined, metadata: unknown): string | undefined {
  if (!isObj(metadata)) return message;
  const raw = str(metadata.raw);
  const rawJson = raw?.startsWith('{') ? tryJson(raw) : undefined;
  const said = isObj(rawJson) ? fromJson(rawJson).message : raw?.replace(/\s+/g, ' ');
  const provider = str(metadata.provider_name);
  if (said === undefined && provider === undefined) return message;
  const head = `${message ?? 'Provider returned error'}${provider ? ` (${provider})` : ''}`;
  return said && said !== message ? `${head}: ${said}` : head;
}

/**
 * Drops a JavaScript stack trace a gateway appended to its message. Node gateways (fastify-based routers)
 * send `message + error.stack`, e.g. "terminatedTypeError: terminated\n    at Fetch.onAborted (...)": the
 * stack's first line repeats the message as "<Name>Error: <message>", so the text before that repeat is
 * the message. Frames would only show server file paths to the user.
 */
export function withoutStack(text: string): string {
  const frame = /\n\s*at\s/.exec(text);
  if (!frame) return text;
  const head = text.slice(0, frame.index).trim();
  for (const m of head.matchAll(/(?:[A-Z][a-z0-9]*)*Error: /g)) {
    const before = head.slice(0, m.index).trim();
    const repeated = head.slice(m.index + m[0].length).trim();
    if (before !== '' && (repeated === before || repeated.startsWith(before) || before.startsWith(repeated)))
      return before;
  }
  // Only the stack's first line: its message without the error's class name.
  return head.replace(/^(?:[A-Z][a-z0-9]*)*Error: /, '') || head;
}

/** FastAPI/LiteLLM `detail`: a string, a list of validation errors ({loc, msg}), or a nested error object. */
function detailText(detail: unknown): string | undefined {
  if (Array.isArray(detail)) return listText(detail);
  if (isObj(detail)) return fromJson(detail).message;
  return str(detail);
}

/** A list of errors ({msg|message, loc?} or strings) as one line. */
function listText(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const parts = list
    .slice(0, 5)
    .map((item) => {
      if (!isObj(item)) return str(item);
      const text = str(item.msg) ?? str(item.message);
      const loc = Array.isArray(item.loc) ? item.loc.filter((p) => p !== 'body').join('.') : undefined;
      return text && loc ? `${loc}: ${text}` : text;
    })
    .filter((t): t is string => t !== undefined);
  return parts.length ? parts.join('; ') : undefined;
}

// HTTP reason phrases (and bare words like "error") say nothing the status code did not.
// Also the spellings proxies and frameworks use ("Gateway Time-out", Go's "404 page not found").
const REASON_PHRASES = new Set(
  [
    ...Object.values(STATUS_CODES),
    'error',
    'unknown error',
    'internal error',
    'server error',
    'request failed',
    'failed',
    'page not found',
    'gateway time-out',
    'service temporarily unavailable',
    'request entity too large',
    'request-uri too large',
    'none',
  ].map((p) => String(p).toLowerCase()),
);

/** True for a bare HTTP reason phrase, with or without its status: "Not Found", "502 Bad Gateway", "error". */
export function isReasonPhrase(text: string): boolean {
  return REASON_PHRASES.has(
    text
      .trim()
      .replace(/^\d{3}\b[\s:-]*/, '')
      .replace(/[.!\s]+$/, '')
      .toLowerCase(),
  );
}

/** The first specific message; a reason phrase only when there is nothing else. */
function pickMessage(candidates: Array<string | undefined>): string | undefined {
  const present = candidates.filter((c): c is string => c !== undefined);
  return present.find((c) => !isReasonPhrase(c)) ?? present[0];
}

/**
 * Whether an error was made by the gateway's upstream provider and only forwarded (so it is about the
 * gateway's own credentials or capacity, not the user's key). A small rule set, first match wins; the
 * result names the rule, for logs and tests:
 * - `type`: the error type/code says so: new-api `"type":"upstream_error"`, `provider_error`, ...
 * - `litellm`: LiteLLM wraps provider errors as `litellm.AuthenticationError: ... OpenAIException - ...`
 *   (its own proxy-key errors carry no provider `...Exception`).
 * - `words`: the message names the upstream or the provider: "upstream", "provider", 上游 (upstream),
 *   e.g. one-api's 当前分组上游负载已饱和 ("the current group's upstream load is saturated"). Not "channel" /
 *   渠道: new-api's and one-api's own routing errors use them ("当前分组 … 无可用渠道": no channel of your group
 *   serves the model), and those are about the key's group, not a provider's failure.
 * - `channel`: a numbered channel answered ("channel #12 returned invalid api key"): that one upstream account.
 */
export function upstreamOrigin(body: { type?: string; code?: string; message?: string }): string | undefined {
  const message = body.message ?? '';
  if (/upstream|provider/i.test(`${body.type ?? ''} ${body.code ?? ''}`)) return 'type';
  if (/\blitellm\.\w+/i.test(message) && /\b[A-Z][A-Za-z]*Exception\b/.test(message)) return 'litellm';
  if (/\b(upstream|providers?)\b|上游/i.test(message)) return 'words';
  // A numbered channel that answered ("channel #12 returned invalid api key") is one upstream account.
  if (/\bchannel\s*#?\s*\d+\b|渠道\s*#?\s*\d+/i.test(message)) return 'channel';
  return undefined;
}

/** A short readable text from an HTML error page: its title, else its heading, else its visible text. */
export function htmlToText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const body = (/<body[^>]*>([\s\S]*?)(<\/body>|$)/i.exec(html)?.[1] ?? html).replace(
    /<(script|style)[^>]*>[\s\S]*?<\/\1>/gi,
    ' ',
  );
  const plain = (source: string | undefined): string | undefined => {
    if (source === undefined) return undefined;
    const text = decodeEntities(source.replace(/<[^>]*>/g, ' '))
      .replace(/\s+/g, ' ')
      .trim();
    return text === '' ? undefined : text;
  };
  // Express answers 404 with <title>Error</title><pre>Cannot GET /v1/models</pre>: skip generic titles.
  // nginx: <title>502 Bad Gateway</title><h1>502 Bad Gateway</h1><center>nginx</center>: the body says
  // nothing more than the title and the server name, so it is no candidate of its own.
  const bodyText = plain(body);
  let rest = bodyText ?? '';
  for (const known of [plain(title), plain(heading)]) if (known) rest = rest.split(known).join(' ');
  for (const [re] of PAGE_SERVERS) rest = rest.replace(new RegExp(re.source, 'gi'), ' ');
  const text = pickMessage([plain(title), plain(heading), /\p{L}{2}/u.test(rest) ? bodyText : undefined]);
  return shorten(text ?? 'HTML error page');
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
    case 'authentication_error':
      return 'auth';
    case 'permission_error':
    case 'billing_error':
      return 'forbidden';
    case 'not_found_error':
      return 'not_found';
    case 'rate_limit_error':
      return 'rate_limited';
    case 'invalid_request_error':
    case 'request_too_large':
      return 'bad_request';
    case 'timeout_error':
      return 'timeout';
    default:
      return 'server';
  }
}
