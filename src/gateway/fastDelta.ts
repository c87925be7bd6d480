// Hot path of streaming: most events of a long answer are text deltas in one exact compact shape.
// Reading those without a full JSON.parse triples throughput (bench/stream.ts); anything that does not
// match the shape byte for byte falls back to JSON.parse, so the result is always what JSON.parse gives.

const PREFIX = '{"type":"content_block_delta","index":';
const MIDDLE = ',"delta":{"type":"text_delta","text":"';
const SUFFIX = '"}}';

export interface TextDelta {
  index: number;
  text: string;
}

/** The index and text of a compact text_delta event, or undefined when `data` has another shape. */
export function parseTextDelta(data: string): TextDelta | undefined {
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
  if (end - start < SUFFIX.length || !data.endsWith(SUFFIX, end)) return undefined;
  const stop = end - SUFFIX.length;
  for (let j = start; j < stop; j++) {
    const c = data.charCodeAt(j);
    if (c < 0x20 || c === 0x22) return undefined; // raw control character or a quote: not this shape
    if (c === 0x5c) return withEscapes(data, index, start, stop);
  }
  return { index, text: data.slice(start, stop) };
}

/** The text when it holds escapes: JSON.parse of the string literal alone. */
function withEscapes(data: string, index: number, start: number, stop: number): TextDelta | undefined {
  try {
    const text: unknown = JSON.parse(data.slice(start - 1, stop + 1));
    return typeof text === 'string' ? { index, text } : undefined;
  } catch {
    return undefined;
  }
}

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
