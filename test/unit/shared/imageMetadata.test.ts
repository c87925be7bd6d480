// Images leave without what they say besides their pixels (issue 43 item 4): a real JPEG with EXIF GPS, XMP, IPTC and
// a comment comes out as the JPEG its encoder wrote plus a 32-byte orientation-only EXIF; a PNG's text, EXIF and time
// chunks go; a WebP's EXIF and XMP chunks go and its VP8X flags say so; a GIF's comment and XMP go, its loop stays.
// The emulator's own reading (src/emulator/imageSize.ts, written apart) confirms that nothing is left, and an image
// edit's request body carries the stripped bytes in both encodings.
import { strict as assert } from 'node:assert';
import { metadataOf, see } from '../../../src/emulator/imageSize';
import { editBody } from '../../../src/gateway/images/images';
import { imagePartsOfReferences } from '../../../src/lm/requestMapping';
import { stripImageMetadata } from '../../../src/shared/imageMetadata';
import {
  GPS_DESCRIPTION,
  gifWithMetadata,
  jpegWithGps,
  photoJpeg,
  pngWithText,
  webpWithMetadata,
} from '../../support/imageMetadata';

const KEY = 'sk-ant-api03-' + 'Q'.repeat(40) + '-secretAA';
const strip = (b: Buffer) => Buffer.from(stripImageMetadata(new Uint8Array(b)));
const has = (b: Buffer, text: string) => b.includes(Buffer.from(text, 'latin1'));

describe('image metadata stripping', () => {
  it('a JPEG with GPS EXIF, XMP, IPTC and a comment: the encoder’s JPEG again, with only the orientation kept', () => {
    const photo = jpegWithGps(6);
    assert.deepEqual(metadataOf(photo), [
      'APP1 Exif',
      'APP1 http://ns.adobe.com/xap/1.0/',
      'APP13 Photoshop 3.0',
      'COM',
    ]);
    const out = strip(photo);
    assert.ok(!has(out, GPS_DESCRIPTION) && !has(out, 'Jane Doe') && !has(out, 'taken at home'));
    assert.deepEqual(metadataOf(out), ['APP1 Exif'], 'the 32-byte orientation EXIF');
    const original = photoJpeg();
    const app0 = 4 + original.readUInt16BE(4);
    assert.deepEqual(out.subarray(0, app0), original.subarray(0, app0), 'SOI and JFIF as written');
    assert.deepEqual(out.subarray(app0 + 36), original.subarray(app0), 'ICC, tables, frame and scan as written');
    assert.equal(out.readUInt16BE(app0 + 2), 34);
    assert.equal(out[app0 + 4 + 6 + 8 + 2 + 9], 6, 'orientation 6 (rotate 90°) kept');
    assert.deepEqual([see(out).width, see(out).height], [see(original).width, see(original).height]);
  });

  it('an upright JPEG loses its EXIF whole; a JPEG without metadata is returned as it is', () => {
    assert.deepEqual(strip(jpegWithGps(1)), photoJpeg());
    const clean = new Uint8Array(photoJpeg());
    assert.equal(stripImageMetadata(clean), clean);
  });

  it('bytes after the end of a JPEG (an appended file) are dropped', () => {
    const appended = Buffer.concat([photoJpeg(), Buffer.from(`PK\x03\x04${KEY}`, 'latin1')]);
    assert.deepEqual(strip(appended), photoJpeg());
  });

  it('a PNG whose tEXt chunk holds the key: text, EXIF and time chunks go, the pixels stay byte for byte', () => {
    const { png, clean } = pngWithText(KEY);
    assert.deepEqual(metadataOf(png), ['tEXt', 'iTXt', 'eXIf', 'tIME']);
    const out = strip(png);
    assert.ok(!has(out, KEY));
    assert.deepEqual(out, clean);
  });

  it('a WebP: EXIF and XMP chunks go, the VP8X flags and the RIFF size follow', () => {
    const { webp, clean } = webpWithMetadata();
    assert.deepEqual(metadataOf(webp), ['EXIF', 'XMP ']);
    assert.deepEqual(strip(webp), clean);
  });

  it('a GIF: the comment and XMP extensions go, the loop count and frames stay', () => {
    const { gif, clean } = gifWithMetadata();
    assert.deepEqual(metadataOf(gif), ['comment', 'application XMP DataXMP']);
    assert.deepEqual(strip(gif), clean);
  });

  it('a truncated PNG keeps only the chunks read whole (a text chunk cut short is not kept)', () => {
    const { png } = pngWithText(KEY);
    const cut = png.subarray(0, 8 + 25 + 20);
    assert.ok(!has(strip(cut), KEY.slice(0, 8)));
  });

  it('an image edit sends the stripped bytes, as JSON data URLs and as multipart', async () => {
    const { png, clean } = pngWithText(KEY);
    const request = {
      model: 'gpt-image-demo',
      prompt: 'p',
      images: [{ data: new Uint8Array(png), filename: 'a.png' }],
    };
    const json = JSON.parse(editBody(request, 'json') as string) as { images: Array<{ image_url: string }> };
    const sent = Buffer.from(json.images[0].image_url.split(',')[1], 'base64');
    assert.deepEqual(sent, clean);
    const form = editBody(request, 'multipart') as FormData;
    const file = form.get('image') as Blob;
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), clean);
  });

  it("an image VS Code's chat attaches (@gateway) is sent stripped", async () => {
    const { png, clean } = pngWithText(KEY);
    const reference = { value: { mimeType: 'image/png', data: async () => new Uint8Array(png) } };
    const [part] = await imagePartsOfReferences([reference]);
    assert.equal(part.kind, 'image');
    assert.deepEqual(Buffer.from(part.kind === 'image' ? part.data : '', 'base64'), clean);
  });
});
