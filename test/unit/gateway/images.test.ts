import * as assert from 'node:assert/strict';
import { createGatewayClient, detectMime } from '../../../src/gateway';
import { imageResultOf } from '../../../src/gateway/images/images';
import { json, startServer, type TestServer } from './server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const WEBP = new Uint8Array([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]);

describe('image helpers', () => {
  it('detects the mime type from the bytes, else the file name', () => {
    assert.equal(detectMime(PNG), 'image/png');
    assert.equal(detectMime(JPEG, 'x.png'), 'image/jpeg');
    assert.equal(detectMime(WEBP), 'image/webp');
    assert.equal(detectMime(new Uint8Array(Buffer.from('GIF89a....'))), 'image/gif');
    assert.equal(detectMime(new Uint8Array([1, 2, 3]), 'photo.JPG'), 'image/jpeg');
    assert.equal(detectMime(new Uint8Array([1, 2, 3])), 'application/octet-stream');
  });

  it('normalises results: url, b64_json, revised_prompt, data URLs, relative URLs, usage', () => {
    const raw = {
      created: 1,
      data: [
        { url: 'https://cdn/x.png', revised_prompt: 'better' },
        { b64_json: 'aGVsbG8gd29ybGQgaW1hZ2U=' },
        'data:image/png;base64,QUJDRA==',
        { url: '/files/y.png' },
        { nothing: true },
      ],
      usage: { total_tokens: 5 },
    };
    const r = imageResultOf(raw, 'https://gw.example.com/prefix', 'req_1');
    assert.deepEqual(r?.images, [
      { url: 'https://cdn/x.png', revisedPrompt: 'better' },
      { b64: 'aGVsbG8gd29ybGQgaW1hZ2U=' },
      { b64: 'QUJDRA==' },
      { url: 'https://gw.example.com/files/y.png' },
    ]);
    assert.deepEqual(r?.usage, { total_tokens: 5 });
    assert.equal(r?.requestId, 'req_1');
    assert.equal(r?.raw, raw);
    assert.equal(imageResultOf({ nope: 1 }, 'https://gw'), undefined);
  });
});

describe('image routes', () => {
  beforeEach(async () => {
    server = await startServer((_req, res) =>
      json(res, 200, { created: 1, data: [{ b64_json: 'aW1hZ2VieXRlc2hlcmU=' }] }),
    );
  });

  it('generateImage sends only the fields given', async () => {
    const r = await createGatewayClient({ baseUrl: server!.url, apiKey: 'k' }).generateImage({
      model: 'gpt-image-demo',
      prompt: 'a cat',
      size: '1024x1024',
      quality: 'high',
      n: 1,
    });
    assert.deepEqual(JSON.parse(server!.requests[0].body.toString()), {
      model: 'gpt-image-demo',
      prompt: 'a cat',
      size: '1024x1024',
      n: 1,
      quality: 'high',
    });
    assert.deepEqual(r.images, [{ b64: 'aW1hZ2VieXRlc2hlcmU=' }]);
  });

  it('editImage (json, default): images as data URLs with detected mime, mask as {image_url}', async () => {
    await createGatewayClient({ baseUrl: server!.url, apiKey: 'k' }).editImage({
      model: 'gpt-image-demo',
      prompt: 'edit',
      images: [{ data: PNG }, { data: JPEG }],
      mask: { data: PNG },
    });
    const seen = server!.requests[0];
    assert.equal(seen.url, '/v1/images/edits');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(seen.headers['authorization'], 'Bearer k');
    const body = JSON.parse(seen.body.toString());
    assert.equal(body.images[0].image_url, `data:image/png;base64,${Buffer.from(PNG).toString('base64')}`);
    assert.match(body.images[1].image_url, /^data:image\/jpeg;base64,/);
    assert.match(body.mask.image_url, /^data:image\/png;base64,/);
    assert.equal(body.prompt, 'edit');
  });

  it('editImage (multipart): image[] for several sources, image for one, mask, fields, Bearer', async () => {
    const client = createGatewayClient({ baseUrl: server!.url, apiKey: 'k', editEncoding: 'multipart' });
    await client.editImage({
      model: 'm',
      prompt: 'p',
      size: '512x512',
      images: [{ data: PNG, filename: 'a.png' }, { data: JPEG }],
      mask: { data: PNG },
    });
    await client.editImage({ model: 'm', prompt: 'p', images: [{ data: WEBP }] });
    const [several, one] = server!.requests;
    assert.match(String(several.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.equal(several.headers['authorization'], 'Bearer k');
    const text = several.body.toString('latin1');
    assert.equal(text.split('name="image[]"').length - 1, 2);
    assert.match(text, /name="image\[\]"; filename="a.png"\r\nContent-Type: image\/png/);
    assert.match(text, /name="image\[\]"; filename="image-2.jpg"\r\nContent-Type: image\/jpeg/);
    assert.match(text, /name="mask"; filename="mask.png"/);
    assert.match(text, /name="size"\r\n\r\n512x512/);
    assert.ok(text.includes(Buffer.from(PNG).toString('latin1')));
    assert.match(one.body.toString('latin1'), /name="image"; filename="image-1.webp"\r\nContent-Type: image\/webp/);
  });

  it('a multipart edit can be sent again after a 429 (the form body is re-readable)', async () => {
    await server!.close();
    server = await startServer((_req, res, body, seen) => {
      if (seen.length === 1) return json(res, 429, {}, { 'retry-after-ms': '5' });
      json(res, 200, { data: [{ url: `https://cdn/${body.length}.png` }] });
    });
    const r = await createGatewayClient({ baseUrl: server.url, apiKey: 'k', editEncoding: 'multipart' }).editImage({
      model: 'm',
      prompt: 'p',
      images: [{ data: PNG }],
    });
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1].body.length, server.requests[0].body.length);
    assert.equal(r.images.length, 1);
  });
});
