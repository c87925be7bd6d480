// Hot path of streaming: most events of a long answer are text deltas in one exact compact shape.
// Reading those without a full JSON.parse (and without allocating a result object) is what makes the
// client several times faster than the official SDK (bench/stream.ts). Anything that does not match
// the shape byte for byte returns undefined and goes through JSON.parse, so results never differ from it.

const PREFIX = '{"type":"content_block_delta","index":';
const MIDDLE = ',"delta":{"type":"text_delta","text":"';
const SUFFIX = '"}}';

/** Block index of the last delta read by readTextDelta (valid only right after it returned a string). */
export let lastDeltaIndex = 0;

/** The text of a compact text_delta event (its index in lastDeltaIndex), or undefined for any other shape. */
export function readTextDelta(data: string): string | undefined {
  if (!data.startsWith(PREFIX)) return undefined;
  let i = PREFIX.length;
  let index = 0;
  const digitsFrom = i;
  for (let c = data.charCodeAt(i); c >= 48 && c <= 57; c = data.charCodeAt(++i)) index = index * 10 + (c - 48);
  if (i === digitsFrom || i - digitsFrom > 6 || (data.charCodeAt(digitsFrom) === 48 && i - digitsFrom > 1)) return undefined;
  if (!data.startsWith(MIDDLE, i)) return undefined;
  const start = i + MIDDLE.length;
  let end = data.length;
  while (end > start && isJsonSpace(data.charCodeAt(end - 1))) end--;
  const stop = end - SUFFIX.length;
  if (stop < start || !data.endsWith(SUFFIX, end)) return undefined;
  for (let j = start; j < stop; j++) {
    const c = data.charCodeAt(j);
    if (c < 0x20 || c === 0x22) return undefined; // raw control character or a quote: not this shape
    if (c === 0x5c) return withEscapes(data, index, start, stop);
  }
  lastDeltaIndex = index;
  return data.slice(start, stop);
}

/** The text when it holds escapes: JSON.parse of the string literal alone. */
function withEscapes(data: string, index: number, start: number, stop: number): string | undefined {
  try {
    const text: unknown = JSON.parse(data.slice(start - 1, stop + 1));
    if (typeof text !== 'string') return undefined;
    lastDeltaIndex = index;
    return text;
  } catch {
    return undefined;
  }
}

export interface TextDelta {
  index: number;
  text: string;
}

/** readTextDelta as an object (tests and callers off the hot path). */
export function parseTextDelta(data: string): TextDelta | undefined {
  const text = readTextDelta(data);
  return text === undefined ? undefined : { index: lastDeltaIndex, text };
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
