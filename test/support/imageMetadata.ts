// Images that carry metadata, for the tests of src/shared/imageMetadata.ts and of every way an image leaves: a real
// JPEG (test/fixtures/images/photo.jpg, written by Chromium's encoder: JFIF, an ICC profile, tables, one scan) with
// an EXIF segment holding a GPS position, a description and an orientation, an XMP packet, Photoshop IPTC and a
// comment put in after its JFIF segment, as a phone or an editor writes them; a PNG with a tEXt chunk holding a key;
// a WebP and a GIF with their metadata blocks. Built here from the formats' specifications (TIFF 6.0 / EXIF 2.3,
// PNG 1.2, RIFF WebP container, GIF89a), not by the code under test.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { animatedGifBytes, pngBytes, pngChunk } from './imageBytes';

/** The JPEG as Chromium wrote it: no metadata (what a stripped copy must be, byte for byte, but the orientation). */
export const photoJpeg = (): Buffer => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'images', 'photo.jpg'));

export const GPS_DESCRIPTION = 'Home of Jane Doe, 12 Quiet Lane';

function segment(marker: number, body: Buffer): Buffer {
  const len = Buffer.alloc(2);
  len.writeUInt16BE(body.length + 2);
  return Buffer.concat([Buffer.from([0xff, marker]), len, body]);
}

/**
 * An EXIF APP1 body (big-endian TIFF): IFD0 with ImageDescription, Orientation and a GPS IFD pointer; the GPS IFD
 * with 48°51'24" N, 2°21'3" E.
 */
export function exifWithGps(orientation = 6): Buffer {
  const entries0 = 3;
  const ifd0 = 8;
  const ifd0Size = 2 + entries0 * 12 + 4;
  const descOffset = ifd0 + ifd0Size;
  const desc = Buffer.from(`${GPS_DESCRIPTION}\0`, 'latin1');
  const gpsIfd = descOffset + desc.length + (desc.length & 1);
  const gpsEntries = 4;
  const gpsSize = 2 + gpsEntries * 12 + 4;
  const latOffset = gpsIfd + gpsSize;
  const lonOffset = latOffset + 24;
  const tiff = Buffer.alloc(lonOffset + 24);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(ifd0, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: (b: Buffer, o: number) => void) => {
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(count, at + 4);
    value(tiff, at + 8);
  };
  tiff.writeUInt16BE(entries0, ifd0);
  entry(ifd0 + 2, 0x010e, 2, desc.length, (b, o) => b.writeUInt32BE(descOffset, o)); // ImageDescription
  entry(ifd0 + 14, 0x0112, 3, 1, (b, o) => b.writeUInt16BE(orientation, o)); // Orientation
  entry(ifd0 + 26, 0x8825, 4, 1, (b, o) => b.writeUInt32BE(gpsIfd, o)); // GPSInfo IFD pointer
  tiff.writeUInt32BE(0, ifd0 + 2 + entries0 * 12);
  desc.copy(tiff, descOffset);
  tiff.writeUInt16BE(gpsEntries, gpsIfd);
  entry(gpsIfd + 2, 0x0001, 2, 2, (b, o) => b.write('N\0', o, 'latin1')); // GPSLatitudeRef
  entry(gpsIfd + 14, 0x0002, 5, 3, (b, o) => b.writeUInt32BE(latOffset, o)); // GPSLatitude
  entry(gpsIfd + 26, 0x0003, 2, 2, (b, o) => b.write('E\0', o, 'latin1')); // GPSLongitudeRef
  entry(gpsIfd + 38, 0x0004, 5, 3, (b, o) => b.writeUInt32BE(lonOffset, o)); // GPSLongitude
  tiff.writeUInt32BE(0, gpsIfd + 2 + gpsEntries * 12);
  const rationals = (at: number, values: Array<[number, number]>) =>
    values.forEach(([n, d], i) => {
      tiff.writeUInt32BE(n, at + i * 8);
      tiff.writeUInt32BE(d, at + i * 8 + 4);
    });
  rationals(latOffset, [
    [48, 1],
    [51, 1],
    [24, 1],
  ]);
  rationals(lonOffset, [
    [2, 1],
    [21, 1],
    [3, 1],
  ]);
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}

/** The fixture JPEG with EXIF (GPS), XMP, IPTC and a comment after its JFIF segment. */
export function jpegWithGps(orientation = 6): Buffer {
  const jpeg = photoJpeg();
  const afterApp0 = 4 + jpeg.readUInt16BE(4);
  const xmp = `http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description dc:creator="Jane Doe" exif:GPSLatitude="48,51.4N"/></x:xmpmeta>`;
  return Buffer.concat([
    jpeg.subarray(0, afterApp0),
    segment(0xe1, exifWithGps(orientation)),
    segment(0xe1, Buffer.from(xmp, 'latin1')),
    segment(0xed, Buffer.from('Photoshop 3.0\x008BIM\x04\x04\0\0\0\0\0\x0d\x1c\x02\x50\0\x08Jane Doe', 'latin1')),
    segment(0xfe, Buffer.from('taken at home', 'latin1')),
    jpeg.subarray(afterApp0),
  ]);
}

/** A PNG with a tEXt chunk (and an iTXt, a zTXt-free eXIf and a tIME) before its image data. */
export function pngWithText(secret: string, width = 32, height = 24): { png: Buffer; clean: Buffer } {
  const clean = pngBytes(width, height);
  const ihdrEnd = 8 + 12 + 13;
  const png = Buffer.concat([
    clean.subarray(0, ihdrEnd),
    pngChunk('tEXt', Buffer.from(`Comment\0${secret}`, 'latin1')),
    pngChunk('iTXt', Buffer.from(`Description\0\0\0\0\0${GPS_DESCRIPTION}`, 'utf8')),
    pngChunk('eXIf', exifWithGps().subarray(6)),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 12, 6, 18, 0, 0])),
    clean.subarray(ihdrEnd),
  ]);
  return { png, clean };
}

function riffChunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length & 1 ? Buffer.from([0]) : Buffer.alloc(0)]);
}

/** An extended WebP (VP8X with the EXIF and XMP flags) around a lossless 2×2 bitstream, with EXIF and XMP chunks. */
export function webpWithMetadata(): { webp: Buffer; clean: Buffer } {
  const vp8l = riffChunk('VP8L', Buffer.from([0x2f, 0x01, 0x40, 0x00, 0x00, 0x07, 0x10, 0x11, 0x48, 0x44, 0x01]));
  const vp8x = (flags: number) => {
    const body = Buffer.alloc(10);
    body[0] = flags;
    body.writeUIntLE(1, 4, 3); // canvas 2×2 (minus one)
    body.writeUIntLE(1, 7, 3);
    return riffChunk('VP8X', body);
  };
  const riff = (chunks: Buffer[]) => {
    const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
    const head = Buffer.alloc(8);
    head.write('RIFF', 0, 'latin1');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body]);
  };
  const webp = riff([
    vp8x(0x0c),
    vp8l,
    riffChunk('EXIF', exifWithGps().subarray(6)),
    riffChunk('XMP ', Buffer.from(`<x:xmpmeta>${GPS_DESCRIPTION}</x:xmpmeta>`, 'latin1')),
  ]);
  return { webp, clean: riff([vp8x(0x00), vp8l]) };
}

/** The two-frame GIF with a comment and an XMP application extension before its frames. */
export function gifWithMetadata(): { gif: Buffer; clean: Buffer } {
  const clean = animatedGifBytes();
  const afterLoop = 13 + 6 + 19; // header and screen, global table, NETSCAPE2.0 loop extension
  const comment = Buffer.concat([
    Buffer.from([0x21, 0xfe, GPS_DESCRIPTION.length]),
    Buffer.from(GPS_DESCRIPTION),
    Buffer.from([0]),
  ]);
  const xmpData = Buffer.from('<x:xmpmeta>Jane Doe</x:xmpmeta>', 'latin1');
  const xmp = Buffer.concat([
    Buffer.from([0x21, 0xff, 0x0b]),
    Buffer.from('XMP DataXMP', 'latin1'),
    Buffer.from([xmpData.length]),
    xmpData,
    Buffer.from([0]),
  ]);
  return { gif: Buffer.concat([clean.subarray(0, afterLoop), comment, xmp, clean.subarray(afterLoop)]), clean };
}
