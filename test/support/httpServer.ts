// A plain local server for a test: listening on 127.0.0.1 on a free port, and closed without waiting for
// keep-alive connections (a client's idle socket would otherwise hold close() open). Works for node:http and
// node:net servers, in plain Node and inside the extension host.
import * as http from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';

export interface LocalServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  /** Destroys the connections still open, then closes the server. */
  close(): Promise<void>;
}

/** Starts `server` listening on 127.0.0.1 on a free port. */
export async function listenLocally(server: Server): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP server on 127.0.0.1 whose every request is answered by `handler`. */
export function startHttpServer(handler: http.RequestListener): Promise<LocalServer> {
  return listenLocally(http.createServer(handler));
}
