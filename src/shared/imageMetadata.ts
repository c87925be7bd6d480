// Strips what an image says besides its pixels before it leaves the machine or is stored (pure, byte level, whatever
// the image's size; no decoding): a photo's EXIF carries the GPS position, camera and time, XMP and IPTC carry names
// and descriptions, and a PNG text chunk can carry anything (a screenshot tool's notes, a pasted API key). Kept: what
// decoding and colour need. JPEG: APP0 (JFIF), APP2 ICC_PROFILE, APP14 (Adobe colour transform), and a 32-byte EXIF
// with only the orientation when the photo had one other than "upright" (phones rotate by it). PNG: the critical
// chunks, colour (iCCP, sRGB, gAMA, cHRM, sBIT, cICP, mDCv, cLLi), transparency, background, pixel size and APNG
// frames. WebP: every chunk but EXIF and XMP (the VP8X flags then say so). GIF: every block but comments and
// application extensions other than the loop count and ICC. Bytes after the image's end are dropped, and so is
// whatever does not parse (a truncated or broken image loses its broken tail, never keeps a block unread).

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_KEPT_ANCILLARY = new Set([
  'iCCP',
  'sRGB',
  'gAMA',
  'cHRM',
  'sBIT',
  'cICP',
  'mDCv',
  'cLLi',
  'tRNS',
  'bKGD',
  'pHYs',
  'acTL',
  'fcTL',
  'fdAT',
]);
const WEBP_KEPT = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF', 'ICCP']);
const GIF_KEPT_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0', 'ICCRGBG1012']);

/** The image without its metadata; the same array when there was nothing to remove. */
export function stripImageMetadata(bytes: Uint8Array): Uint8Array {
  const stripped = isPng(bytes)
    ? stripPng(bytes)
    : isJpeg(bytes)
      ? stripJpeg(bytes)
      : isWebp(bytes)
        ? stripWebp(bytes)
        : isGif(bytes)
          ? stripGif(bytes)
          : undefined;
  return stripped && !sameBytes(stripped, bytes) ? stripped : bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const isPng = (b: Uint8Array) => b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v);
const isJpeg = (b: Uint8Array) => b.length >= 4 && b[0] === 0xff && b[1] === 0xd8;
const isWebp = (b: Uint8Array) => b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP';
const isGif = (b: Uint8Array) => b.length >= 13 && ascii(b, 0, 3) === 'GIF';

function ascii(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < Math.min(to, b.length); i++) s += String.fromCharCode(b[i]);
  return s;
}
const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
const u32le = (b: Uint8Array, i: number) => ((b[i + 3] << 24) | (b[i + 2] << 16) | (b[i + 1] << 8) | b[i]) >>> 0;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function stripPng(b: Uint8Array): Uint8Array | undefined {
  const parts: Uint8Array[] = [b.subarray(0, 8)];
  for (let i = 8; ;) {
    // Broken after at least one whole chunk: what was read whole. Broken at once: no PNG this code knows, as it came.
    if (i + 12 > b.length) return i > 8 ? concat(parts) : undefined;
    const length = u32be(b, i);
    const type = ascii(b, i + 4, i + 8);
    const end = i + 12 + length;
    if (end > b.length) return i > 8 ? concat(parts) : undefined;
    const critical = type.charCodeAt(0) >= 0x41 && type.charCodeAt(0) <= 0x5a;
    if (critical || PNG_KEPT_ANCILLARY.has(type)) parts.push(b.subarray(i, end));
    if (type === 'IEND') return concat(parts);
    i = end;
  }
}

function stripJpeg(b: Uint8Array): Uint8Array | undefined {
  const parts: Uint8Array[] = [b.subarray(0, 2)];
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) {
      i++; // stray bytes between segments: decoders skip them, and so are they dropped here
      continue;
    }
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd9) {
      parts.push(b.subarray(i, i + 2));
      return concat(parts);
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      parts.push(b.subarray(i, i + 2));
      i += 2;
      continue;
    }
    if (i + 4 > b.length) return parts.length > 1 ? concat(parts) : undefined;
    const end = i + 2 + u16be(b, i + 2);
    if (end > b.length) return parts.length > 1 ? concat(parts) : undefined;
    const kept = keptJpegSegment(b, marker, i + 4, end);
    if (kept) parts.push(kept === true ? b.subarray(i, end) : kept);
    i = end;
    if (marker === 0xda) {
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
      let j = i;
      while (j + 1 < b.length && !(b[j] === 0xff && b[j + 1] !== 0x00 && !(b[j + 1] >= 0xd0 && b[j + 1] <= 0xd7))) j++;
      if (j + 1 >= b.length) return concat([...parts, b.subarray(i)]); // no EOI: the scan is the rest
      parts.push(b.subarray(i, j));
      i = j;
    }
  }
  return parts.length > 1 ? concat(parts) : undefined;
}

/** true: keep the segment as it is; a segment: keep this instead; false: drop it. */
function keptJpegSegment(b: Uint8Array, marker: number, body: number, end: number): boolean | Uint8Array {
  if (marker === 0xfe) return false; // COM
  if (marker < 0xe0 || marker > 0xef) return true; // tables, frames, scans
  const id = ascii(b, body, Math.min(end, body + 14));
  if (marker === 0xe0) return id.startsWith('JFIF\0');
  if (marker === 0xe2) return id.startsWith('ICC_PROFILE\0');
  if (marker === 0xee) return id.startsWith('Adobe');
  if (marker === 0xe1 && id.startsWith('Exif\0\0')) {
    const orientation = exifOrientation(b.subarray(body + 6, end));
    return orientation !== undefined && orientation !== 1 ? orientationOnlyExif(orientation) : false;
  }
  return false;
}

/** The Orientation tag (0x0112) of IFD0 in a TIFF structure, when it is there and valid (1–8). */
function exifOrientation(tiff: Uint8Array): number | undefined {
  if (tiff.length < 8) return undefined;
  const little = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!little && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return undefined;
  const u16 = (i: number) => (little ? tiff[i] | (tiff[i + 1] << 8) : u16be(tiff, i));
  const u32 = (i: number) => (little ? u32le(tiff, i) : u32be(tiff, i));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let k = 0; k < count; k++) {
    const entry = ifd + 2 + k * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) === 0x0112 && u16(entry + 2) === 3) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/** An APP1 segment with an EXIF holding nothing but the orientation (big-endian TIFF, one IFD0 entry). */
function orientationOnlyExif(orientation: number): Uint8Array {
  // prettier-ignore
  return new Uint8Array([
    0xff, 0xe1, 0x00, 0x22, // APP1, length 34
    0x45, 0x78, 0x69, 0x66, 0x00, 0x00, // "Exif\0\0"
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // TIFF header, IFD0 at 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00, // Orientation, SHORT, 1
    0x00, 0x00, 0x00, 0x00, // no next IFD
  ]);
}

function stripWebp(b: Uint8Array): Uint8Array | undefined {
  const end = Math.min(b.length, 8 + u32le(b, 4));
  const parts: Uint8Array[] = [];
  for (let i = 12; i + 8 <= end;) {
    const type = ascii(b, i, i + 4);
    const next = i + 8 + u32le(b, i + 4) + (u32le(b, i + 4) & 1);
    if (next > end + 1) break; // a truncated chunk: dropped
    if (WEBP_KEPT.has(type)) {
      const chunk = b.slice(i, Math.min(next, end));
      if (type === 'VP8X' && chunk.length > 8) chunk[8] &= ~0x0c; // EXIF (0x08) and XMP (0x04) flags: gone
      parts.push(chunk);
    }
    i = next;
  }
  if (parts.length === 0) return undefined;
  const body = concat(parts);
  const header = new Uint8Array(12);
  header.set(b.subarray(0, 4), 0);
  const size = body.length + 4;
  header.set([size & 0xff, (size >>> 8) & 0xff, (size >>> 16) & 0xff, (size >>> 24) & 0xff], 4);
  header.set(b.subarray(8, 12), 8);
  return concat([header, body]);
}

function stripGif(b: Uint8Array): Uint8Array | undefined {
  const subBlocksEnd = (at: number): number | undefined => {
    while (at < b.length && b[at] !== 0) at += 1 + b[at];
    return at < b.length ? at + 1 : undefined;
  };
  const table = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  let i = 13 + table(b[10]);
  const parts: Uint8Array[] = [b.subarray(0, i)];
  while (i < b.length) {
    const introducer = b[i];
    if (introducer === 0x3b) {
      parts.push(b.subarray(i, i + 1));
      return concat(parts);
    }
    let end: number | undefined;
    let keep = true;
    if (introducer === 0x21) {
      const label = b[i + 1];
      end = subBlocksEnd(i + 2);
      if (label === 0xfe) keep = false;
      if (label === 0xff) keep = GIF_KEPT_APPLICATIONS.has(ascii(b, i + 3, i + 3 + b[i + 2]));
    } else if (introducer === 0x2c) {
      end = subBlocksEnd(i + 10 + table(b[i + 9]) + 1);
    } else end = undefined;
    if (end === undefined) return concat([...parts, new Uint8Array([0x3b])]); // broken: what parsed, then the end
    if (keep) parts.push(b.subarray(i, end));
    i = end;
  }
  return concat([...parts, new Uint8Array([0x3b])]);
}
