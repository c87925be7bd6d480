import * as assert from 'node:assert/strict';
import { detectImageFormat, extensionOf, imageDimensions, parseSize } from '../../../src/images/format';
import { gifHeader, jpegHeader, pngHeader, webpVp8, webpVp8l, webpVp8x } from './fixtures';

describe('images/format', () => {
  it('detects each format from its magic bytes', () => {
    assert.equal(detectImageFormat(pngHeader(1, 1)), 'png');
    assert.equal(detectImageFormat(jpegHeader(1, 1)), 'jpeg');
    assert.equal(detectImageFormat(webpVp8x(1, 1)), 'webp');
    assert.equal(detectImageFormat(gifHeader(1, 1)), 'gif');
  });

  it('rejects non-images: HTML error pages, JSON, truncated signatures, empty', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    assert.equal(detectImageFormat(text('<html><body>502 Bad Gateway</body></html>')), undefined);
    assert.equal(detectImageFormat(text('{"error":"expired"}')), undefined);
    assert.equal(detectImageFormat(pngHeader(1, 1).subarray(0, 7)), undefined);
    assert.equal(detectImageFormat(text('RIFF0000WAVE')), undefined);
    assert.equal(detectImageFormat(new Uint8Array()), undefined);
  });

  it('reads PNG, JPEG, WebP (VP8, VP8L, VP8X) and GIF dimensions', () => {
    assert.deepEqual(imageDimensions(pngHeader(1536, 1024)), { width: 1536, height: 1024 });
    assert.deepEqual(imageDimensions(jpegHeader(800, 600)), { width: 800, height: 600 });
    assert.deepEqual(imageDimensions(webpVp8x(4000, 3000)), { width: 4000, height: 3000 });
    assert.deepEqual(imageDimensions(webpVp8l(256, 512)), { width: 256, height: 512 });
    assert.deepEqual(imageDimensions(webpVp8(640, 480)), { width: 640, height: 480 });
    assert.deepEqual(imageDimensions(gifHeader(32, 16)), { width: 32, height: 16 });
  });

  it('reads dimensions from a subarray view (offset buffers)', () => {
    const padded = new Uint8Array(64);
    padded.set(pngHeader(300, 200), 7);
    assert.deepEqual(imageDimensions(padded.subarray(7)), { width: 300, height: 200 });
  });

  it('returns undefined for malformed headers instead of throwing', () => {
    assert.equal(imageDimensions(pngHeader(10, 10).subarray(0, 20)), undefined);
    assert.equal(imageDimensions(pngHeader(0, 10)), undefined);
    const badJpeg = jpegHeader(10, 10);
    badJpeg[2] = 0x00; // not a marker
    assert.equal(imageDimensions(badJpeg), undefined);
    assert.equal(imageDimensions(jpegHeader(10, 10).subarray(0, 12)), undefined);
  });

  it('maps formats to file extensions and parses WxH sizes', () => {
    assert.equal(extensionOf('jpeg'), 'jpg');
    assert.equal(extensionOf('png'), 'png');
    assert.deepEqual(parseSize('1024x768'), { width: 1024, height: 768 });
    assert.deepEqual(parseSize(' 512 X 512 '), { width: 512, height: 512 });
    assert.equal(parseSize('large'), undefined);
    assert.equal(parseSize('0x10'), undefined);
  });
});
