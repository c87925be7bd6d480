// A TCP pass-through between our client and the gateway that records, per connection, the request line
// it carried and whether the client closed it first, so a test can see that an abort really dropped the
// connection (not just rejected a promise).
import net from 'node:net';
import { listenLocally } from '../support/httpServer';

export interface TapConnection {
  /** First line the client sent ('' while nothing was sent), e.g. 'POST /v1/messages HTTP/1.1'. */
  requestLine: string;
  /** True once the client closed the connection while the gateway side was still open. */
  closedByClient: boolean;
}

export interface TcpTap {
  url: string;
  connections: TapConnection[];
  /** True once a connection that carried `METHOD path` was closed by the client. */
  clientClosed(method: string, path: string): boolean;
  close(): Promise<void>;
}

export async function startTcpTap(targetPort: number): Promise<TcpTap> {
  const targets = new Set<net.Socket>();
  const connections: TapConnection[] = [];
  const server = net.createServer((client) => {
    const conn: TapConnection = { requestLine: '', closedByClient: false };
    connections.push(conn);
    const target = net.connect(targetPort, '127.0.0.1');
    targets.add(target);
    let targetGone = false;
    client.once('data', (d: Buffer) => {
      conn.requestLine = d.toString('latin1').split('\r\n')[0];
    });
    client.pipe(target);
    target.pipe(client);
    target.on('close', () => {
      targetGone = true;
      client.destroy();
    });
    client.on('close', () => {
      // Counted only when the client went first: a close caused by the gateway is not the client's doing.
      if (!targetGone) conn.closedByClient = true;
      target.destroy();
    });
    client.on('error', () => undefined);
    target.on('error', () => undefined);
  });
  const local = await listenLocally(server);
  return {
    url: local.url,
    connections,
    clientClosed: (method, path) =>
      connections.some((c) => c.closedByClient && c.requestLine.startsWith(`${method} ${path} `)),
    close: async () => {
      for (const s of targets) s.destroy();
      await local.close();
    },
  };
}
