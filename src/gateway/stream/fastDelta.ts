// Hot path of streaming: most events of a long answer are text deltas in one exact compact shape.
// They are read here straight from the byte string (see byteText.ts) with native searches, without
// JSON.parse and without allocating a result object; that is what makes the client several times
// faster than the official SDK (bench/stream.ts). Any other shape returns undefined and goes through
// JSON.parse. Deliberate tolerance: raw control characters inside the text (invalid JSON) are kept.
import { codePointBytes } from './byteText';

const PREFIX = '{"type":"content_block_delta","index":';
const MIDDLE = ',"delta":{"type":"text_delta","text":"';
const SIMPLE_ESCAPES: Record<number, string> = {
  0x6e: '\n',
  0x22: '"',
  0x5c: '\\',
  0x74: '\t',
  0x2f: '/',
  0x72: '\r',
  0x62: '\b',
  0x66: '\f',
};
const REPLACEMENT_BYTES = '\xef\xbf\xbd'; // U+FFFD, for a lone surrogate escape

/**
 * Where the JSON string body that starts at `start` ends: the first `closing` (a quote, or a quote and what must follow
 * it) whose quote no backslash escapes; -1 when there is none.
 */
export function closingQuote(data: string, start: number, closing: '"' | '"}'): number {
  let stop = data.indexOf(closing, start);
  while (stop !== -1) {
    let slashes = 0;
    for (let k = stop - 1; k >= start && data.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) break;
    stop = data.indexOf(closing, stop + 1);
  }
  return stop;
}

/**
 * The text (as a byte string) of a compact text_delta event; its block index goes to `into.fastBlock` (the caller's
 * reader: no state here, so two streams never share it).
 */
export function readTextDelta(data: string, into: { fastBlock: number }): string | undefined {
  // slice + === is several times faster than startsWith on V8 for these sliced strings (bench/stream.ts).
  if (data.slice(0, PREFIX.length) !== PREFIX) return undefined;
  let i = PREFIX.length;
  let index = 0;
  const digitsFrom = i;
  for (let c = data.charCodeAt(i); c >= 48 && c <= 57; c = data.charCodeAt(++i)) index = index * 10 + (c - 48);
  if (i === digitsFrom || i - digitsFrom > 6 || (data.charCodeAt(digitsFrom) === 48 && i - digitsFrom > 1))
    return undefined;
  if (data.slice(i, i + MIDDLE.length) !== MIDDLE) return undefined;
  const start = i + MIDDLE.length;
  let end = data.length;
  for (
    let c = data.charCodeAt(end - 1);
    end > start && (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d);
    c = data.charCodeAt(end - 1)
  )
    end--;
  const stop = end - 3;
  if (
    stop < start ||
    data.charCodeAt(stop) !== 0x22 ||
    data.charCodeAt(stop + 1) !== 0x7d ||
    data.charCodeAt(stop + 2) !== 0x7d
  )
    return undefined;
  const backslash = data.indexOf('\\', start);
  const text =
    backslash === -1 || backslash >= stop ? plain(data, start, stop) : unescape(data, start, stop, backslash);
  if (text !== undefined) into.fastBlock = index;
  return text;
}

/** The bytes of the JSON string body data[start, stop) (no quotes), or undefined when it is not exactly one. */
export function jsonStringBytes(data: string, start: number, stop: number): string | undefined {
  const backslash = data.indexOf('\\', start);
  return backslash === -1 || backslash >= stop ? plain(data, start, stop) : unescape(data, start, stop, backslash);
}

// ---- chat-completions: `{…,"choices":[{"index":0,"delta":{"content":"…"},…"finish_reason":null}]…}` ----

const CHAT_MARK = '"choices":[{"index":0,"delta":{"content":"';
// What may follow a content delta's closing quote (OpenAI, one-api, new-api and LiteLLM orders; usage null
// while include_usage is on). Anything else (a finish_reason, tool calls, logprobs) takes JSON.parse.
const CHAT_TAIL = /^"\}(?:,"logprobs":null)?,"finish_reason":null(?:,"logprobs":null)?\}\](?:,"usage":null)?\}\s*$/;

/** The content text (as a byte string) of a plain chat-completions content chunk of choice 0; else undefined. */
export function readChatContent(data: string): string | undefined {
  const mark = data.indexOf(CHAT_MARK);
  // The mark must belong to the top-level object, right after its scalar header fields (id, object, created,
  // model, system_fingerprint), never inside a string: those never contain a `[`.
  if (mark < 0 || data.charCodeAt(0) !== 0x7b || data.lastIndexOf('[', mark) !== -1) return undefined;
  const start = mark + CHAT_MARK.length;
  const stop = closingQuote(data, start, '"}');
  if (stop === -1 || !CHAT_TAIL.test(data.slice(stop, stop + 80))) return undefined;
  return jsonStringBytes(data, start, stop);
}

/**
 * The bytes of a JSON string body a whole-event pattern captured (ChunkReader.run: no quote, no line end, each
 * backslash followed by one character), or undefined when an escape is not a JSON one.
 */
export function capturedStringBytes(text: string): string | undefined {
  const backslash = text.indexOf('\\');
  return backslash === -1 ? text : unescape(text, 0, text.length, backslash);
}

/** A JSON string body as a pattern captures it: no quote or line end, each backslash followed by one character. */
export const JSON_TEXT = String.raw`([^"\\\n]*(?:\\.[^"\\\n]*)*)`;

function plain(data: string, start: number, stop: number): string | undefined {
  return data.indexOf('"', start) === stop ? data.slice(start, stop) : undefined;
}

/** Resolves JSON escapes into bytes; undefined when the text is not one well-formed JSON string. */
function unescape(data: string, start: number, stop: number, first: number): string | undefined {
  let out = '';
  let seg = start;
  for (let j = first; j !== -1 && j < stop; j = data.indexOf('\\', seg)) {
    const quote = data.indexOf('"', seg);
    if (quote !== -1 && quote < j) return undefined;
    out += data.slice(seg, j);
    const e = data.charCodeAt(j + 1);
    if (j + 1 >= stop) return undefined;
    if (e === 0x75) {
      const u = unicodeEscape(data, j, stop);
      if (u === undefined) return undefined;
      out += u.bytes;
      seg = u.next;
    } else {
      const simple = SIMPLE_ESCAPES[e];
      if (simple === undefined) return undefined;
      out += simple;
      seg = j + 2;
    }
  }
  const quote = data.indexOf('"', seg);
  if (quote !== -1 && quote < stop) return undefined;
  return out + data.slice(seg, stop);
}

/** A \uXXXX escape (or a surrogate pair of two) at `at`, as UTF-8 bytes. */
function unicodeEscape(data: string, at: number, stop: number): { bytes: string; next: number } | undefined {
  const high = hex4(data, at + 2, stop);
  if (high < 0) return undefined;
  if (high >= 0xd800 && high <= 0xdbff && data.charCodeAt(at + 6) === 0x5c && data.charCodeAt(at + 7) === 0x75) {
    const low = hex4(data, at + 8, stop);
    if (low >= 0xdc00 && low <= 0xdfff)
      return { bytes: codePointBytes(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)), next: at + 12 };
  }
  const lone = high >= 0xd800 && high <= 0xdfff;
  return { bytes: lone ? REPLACEMENT_BYTES : codePointBytes(high), next: at + 6 };
}

function hex4(data: string, from: number, stop: number): number {
  if (from + 4 > stop) return -1;
  let value = 0;
  for (let k = from; k < from + 4; k++) {
    const c = data.charCodeAt(k);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}
