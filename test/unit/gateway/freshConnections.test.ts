// Pooled connections and the server's idle timeout (src/gateway/freshConnections.ts), over real sockets.
// The agent-level reproduction (a long tool, then a billable step) is test/unit/agent/staleSocket.test.ts.
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as net from 'node:net';
import { createGatewayClient } from '../../../src/gateway';
import { idleLimitOf, IDLE_WITHOUT_HINT_MS } from '../../../src/gateway/freshConnections';
import { createDispatcher, planProxy } from '../../../src/platform/proxy';
import { listenLocally } from '../../support/httpServer';

const MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [{ type: 'text', text: 'hi' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};

/** A Messages server counting requests and connections; Node's own Keep-Alive hint unless told otherwise. */
async function messagesServer(keepAliveTimeout: number): Promise<{
  url: string;
  posts: () => number;
  connections: () => number;
  close: () => Promise<void>;
}> {
  let posts = 0;
  let connections = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(MESSAGE));
    });
  });
  server.keepAliveTimeout = keepAliveTimeout;
  server.on('connection', () => connections++);
  const { url, close } = await listenLocally(server);
  return { url, posts: () => posts, connections: () => connections, close };
}

function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const ask = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('gateway client: pooled connections and the server idle timeout', function () {
  this.timeout(20_000);

  it('reads the safe idle time from Keep-Alive: the hint less 2 s (at most half), else 2 s', () => {
    assert.equal(idleLimitOf('timeout=5'), 3000);
    assert.equal(idleLimitOf('timeout=5, max=1000'), 3000);
    assert.equal(idleLimitOf('max=10, timeout=60'), 58_000);
    assert.equal(idleLimitOf('timeout=1'), 500);
    assert.equal(idleLimitOf(undefined), IDLE_WITHOUT_HINT_MS);
    assert.equal(idleLimitOf('max=5'), IDLE_WITHOUT_HINT_MS);
  });

  it('keeps using a connection the server said it keeps (Keep-Alive: timeout=5) after an idle gap within it', async () => {
    const server = await messagesServer(5000);
    try {
      const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
      await client.createMessage(ask);
      await new Promise((resolve) => setTimeout(resolve, 20)); // the connection goes back to the pool
      blockFor(IDLE_WITHOUT_HINT_MS + 300); // over the no-hint default, under the hint's 3 s
      await client.createMessage(ask);
      assert.equal(server.posts(), 2);
      assert.equal(server.connections(), 1, 'the hinted server keeps the connection: no new handshake');
    } finally {
      await server.close();
    }
  });

  it('sends a POST once more when its connection failed before any byte of it was written (proxy reset)', async () => {
    const target = await messagesServer(5000);
    let connects = 0;
    // A proxy that resets the first tunnel it is asked for, then tunnels normally.
    const proxy = net.createServer((socket) => {
      socket.once('data', (head) => {
        connects++;
        if (connects === 1) {
          socket.resetAndDestroy();
          return;
        }
        const [host, port] = /^CONNECT ([^\s:]+):(\d+)/.exec(head.toString('latin1'))?.slice(1) ?? [];
        const upstream = net.connect(Number(port), host, () => {
          socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
          socket.pipe(upstream).pipe(socket);
        });
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
      });
    });
    const { url: proxyUrl, close: closeProxy } = await listenLocally(proxy);
    const dispatcher = createDispatcher(planProxy({ proxy: proxyUrl, noProxy: [], strictSSL: true }));
    try {
      const client = createGatewayClient({ baseUrl: target.url, apiKey: 'k', maxRetries: 0, dispatcher });
      const message = await client.createMessage(ask);
      assert.equal(message.content[0]?.type, 'text');
      assert.equal(connects, 2, 'the reset tunnel, then a new one');
      assert.equal(target.posts(), 1, 'the gateway received the request exactly once');
    } finally {
      await dispatcher?.destroy();
      await closeProxy();
      await target.close();
    }
  });
});
