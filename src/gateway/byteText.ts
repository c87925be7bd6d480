// "Byte strings": UTF-8 bytes held one per char (latin1-decoded). The stream is parsed in this form
// because latin1 decoding is a copy, one-byte strings are cheap to search, slice and collect, and a
// multi-byte character split across network chunks needs no special care. Text is decoded once, at
// the end (or per event for iterators).

/** Network bytes as a byte string. */
export function bytesOf(chunk: Buffer): string {
  return chunk.toString('latin1');
}

/** The text a byte string encodes (invalid UTF-8 becomes U+FFFD, as with any UTF-8 decoder). */
export function fromBytes(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
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
