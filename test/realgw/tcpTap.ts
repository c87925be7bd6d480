// A TCP pass-through between our client and the gateway that records, per connection, the request line
// it carried and whether the client closed it first, so a test can see that an abort really dropped the
// connection (not just rejected a promise).
import net from 'node:net';
import type { AddressInfo } from 'node:net';

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
  const sockets = new Set<net.Socket>();
  const connections: TapConnection[] = [];
  const server = net.createServer((client) => {
    const conn: TapConnection = { requestLine: '', closedByClient: false };
    connections.push(conn);
    const target = net.connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(target);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    clientClosed: (method, path) =>
      connections.some((c) => c.closedByClient && c.requestLine.startsWith(`${method} ${path} `)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
