import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { decodeBase64, obtainImageBytes } from '../../../src/images/download';
import { pngHeader } from './fixtures';
import { startHttpServer, type LocalServer } from '../../support/httpServer';

describe('images/download', () => {
  let server: LocalServer;
  let base: string;
  const seen: http.IncomingHttpHeaders[] = [];

  before(async () => {
    server = await startHttpServer((req, res) => {
      seen.push(req.headers);
      if (req.url === '/img.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from(pngHeader(64, 32)));
        return;
      }
      if (req.url === '/moved') {
        res.writeHead(302, { location: '/img.png' });
        res.end();
        return;
      }
      if (req.url === '/big') {
        res.writeHead(200);
        res.end(Buffer.alloc(4096));
        return;
      }
      res.writeHead(404);
      res.end('gone');
    });
    base = server.url;
  });
  after(() => server.close());

  it('decodes bare base64 and data: URLs', async () => {
    const png = pngHeader(2, 3);
    const b64 = Buffer.from(png).toString('base64');
    assert.deepEqual(decodeBase64(b64), png);
    assert.deepEqual(await obtainImageBytes({ b64 }), png);
    assert.deepEqual(await obtainImageBytes({ url: `data:image/png;base64,${b64}` }), png);
  });

  it('downloads absolute and relative URLs (following redirects) without any auth header', async () => {
    assert.deepEqual(await obtainImageBytes({ url: `${base}/img.png` }), pngHeader(64, 32));
    assert.deepEqual(await obtainImageBytes({ url: '/moved' }, { baseUrl: base }), pngHeader(64, 32));
    assert.ok(seen.every((h) => h.authorization === undefined && h['x-api-key'] === undefined));
  });

  it('reports expired URLs and refuses oversize bodies and non-http schemes', async () => {
    await assert.rejects(obtainImageBytes({ url: `${base}/expired` }), /HTTP 404.*expire/);
    await assert.rejects(obtainImageBytes({ url: `${base}/big` }, { maxBytes: 1000 }), /larger than/);
    await assert.rejects(obtainImageBytes({ url: 'file:///etc/passwd' }), /http\(s\)/);
    await assert.rejects(obtainImageBytes({}), /neither a URL nor base64/);
  });
});
