// A local HTTP server on 127.0.0.1:0 for gateway tests: records requests (headers, body) and whether
// each connection was closed by the client.
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { listenLocally } from '../../support/httpServer';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
  seen: SeenRequest[],
) => void | Promise<void>;

export interface TestServer {
  url: string;
  origin: string;
  requests: SeenRequest[];
  /** Resolves when the next client connection closes (used to prove that abort closes the socket). */
  nextClose(): Promise<void>;
  openSockets(): number;
  close(): Promise<void>;
}

/** Starts a server whose every request is answered by `handler`. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let closeWaiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(seen);
      Promise.resolve(handler(req, res, seen.body, requests)).catch((e: unknown) => {
        res.destroy(e instanceof Error ? e : undefined);
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      const waiters = closeWaiters;
      closeWaiters = [];
      for (const w of waiters) w();
    });
  });
  const { url, close } = await listenLocally(server);
  return {
    url,
    origin: url,
    requests,
    nextClose: () => new Promise<void>((resolve) => closeWaiters.push(resolve)),
    openSockets: () => sockets.size,
    close,
  };
}

/** Sends JSON with a status and optional headers. */
export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes `data` in chunks of `size` bytes, one per event-loop turn, then ends (or not). */
export async function writeChunked(res: http.ServerResponse, data: Buffer, size: number, end = true): Promise<void> {
  for (let i = 0; i < data.length; i += size) {
    res.write(data.subarray(i, i + size));
    if (size < 64 && i % (size * 64) === 0) await new Promise((r) => setImmediate(r));
  }
  if (end) res.end();
}

export const CANARY_KEY = 'mg-canary-SECRET-7f3a9c2e1b';
