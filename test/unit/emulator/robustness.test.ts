// Hostile input never crashes the emulator: every reply is a clean status with a request id.

import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import fc from 'fast-check';
import { DEMO, imageHeaders, messagesHeaders, post, useEmulator } from './helpers';

describe('emulator: robustness', () => {
  const emu = useEmulator();

  it('arbitrary JSON bodies on the API routes get 200/400/403, never a 5xx', async () => {
    const routes = ['/v1/messages', '/v1/images/generations', '/v1/images/edits', '/v1/images/generations/async'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.jsonValue(), fc.boolean(), async (route, body, asMessages) => {
        const headers = route === '/v1/messages' || asMessages ? messagesHeaders() : imageHeaders();
        const res = await post(emu(), route, JSON.stringify(body), { ...headers, authorization: `Bearer ${DEMO}` });
        await res.arrayBuffer();
        assert.ok([200, 202, 400, 403].includes(res.status), `${route} ${JSON.stringify(body)} → ${res.status}`);
        assert.ok(res.headers.get('request-id'));
      }),
      { numRuns: 60 },
    );
  });

  it('arbitrary bytes and odd request lines get a clean answer and the server keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        const res = await post(emu(), '/v1/messages', Buffer.from(bytes).toString('latin1'), messagesHeaders());
        await res.arrayBuffer();
        assert.ok(res.status === 400 || res.status === 200, String(res.status));
      }),
      { numRuns: 40 },
    );
    for (const path of [
      '/v1/images/tasks/%E0%A4%A',
      '/v1/images/tasks/..%2F..%2Fadmin',
      '/%00',
      '/v1/models?limit=-1&after_id=%FF',
    ]) {
      const res = await fetch(emu().url + path, { headers: { authorization: `Bearer ${DEMO}` } });
      assert.ok(res.status < 500, `${path} → ${res.status}`);
      await res.arrayBuffer();
    }
    // A raw request with a broken Host header.
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(emu().port, '127.0.0.1', () =>
        socket.end('GET /v1/models HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (c) => {
        text += c.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 (400|401)/);
    assert.equal((await fetch(`${emu().url}/v1/models`, { headers: { 'x-api-key': DEMO } })).status, 200);
  });
});
