// "Byte strings": UTF-8 bytes held one per char (latin1-decoded). The stream is parsed in this form
// because latin1 decoding is a copy, one-byte strings are cheap to search, slice and collect, and a
// multi-byte character split across network chunks needs no special care. Text is decoded once, at
// the end (or per event for iterators).
import { transcode } from 'node:buffer';

/** Network bytes as a byte string. */
export function bytesOf(chunk: Buffer): string {
  return chunk.toString('latin1');
}

// A long text with characters above U+07FF (a lead byte from 0xE0: decoded into a two-byte string anyway) is decoded by
// ICU into UTF-16, about 3× V8's UTF-8 decoder on such text (the whole answer at the end of a stream). ICU throws on
// invalid UTF-8 (and where Node has no ICU): that text takes V8's decoder, which replaces each bad sequence by U+FFFD.
const ICU_FROM = 64 * 1024;
const WIDE_LEAD = /[\xe0-\xff]/;

/** The text a byte string encodes (invalid UTF-8 becomes U+FFFD, as with any UTF-8 decoder). */
export function fromBytes(bytes: string): string {
  const buffer = Buffer.from(bytes, 'latin1');
  if (bytes.length >= ICU_FROM && WIDE_LEAD.test(bytes))
    try {
      return transcode(buffer, 'utf8', 'ucs2').toString('ucs2');
    } catch {
      // invalid UTF-8, or no ICU: V8's decoder below
    }
  return buffer.toString('utf8');
}

/** A text as a byte string. */
export function toBytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** The UTF-8 bytes of one code point, as a byte string. */
export function codePointBytes(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 63));
  if (cp < 0x10000) return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  return String.fromCharCode(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

// A \u escape of a character above U+007F: in a byte string it would stand for one byte, not for its character.
const WIDE_ESCAPE = /\\u(?!00[0-7])/;
const HIGH_BYTE = /[\x80-\xff]/;

/**
 * JSON.parse of a byte string with every string decoded, for large events: parsing the bytes is as fast as parsing
 * the text, and `prune` may drop members the caller never reads (repeats of a long text) before their strings are
 * decoded. Same value as JSON.parse(fromBytes(bytes)), less what `prune` dropped: JSON's syntax is ASCII, so the bytes
 * of a multi-byte character only occur inside strings. Undefined (read it the usual way) when a \u escape names a
 * character above U+007F or a member name is not ASCII; throws what JSON.parse throws.
 */
export function parseJsonBytes(bytes: string, prune: (value: unknown) => void): unknown {
  if (WIDE_ESCAPE.test(bytes)) return undefined;
  const root: unknown = JSON.parse(bytes);
  prune(root);
  if (typeof root === 'string') return HIGH_BYTE.test(root) ? fromBytes(root) : root;
  // Iterative: a deeply nested event must not overflow the stack.
  const todo: unknown[] = [root];
  while (todo.length > 0) {
    const node = todo.pop();
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (HIGH_BYTE.test(key)) return undefined;
      const v = record[key];
      if (typeof v === 'string') {
        if (HIGH_BYTE.test(v)) record[key] = fromBytes(v);
      } else if (typeof v === 'object' && v !== null) todo.push(v);
    }
  }
  return root;
}
