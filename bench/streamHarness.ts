// What the three stream benchmarks (bench/stream.ts: Messages, bench/chatStream.ts: chat-completions,
// bench/responsesStream.ts: Responses) share: the
// multi-byte text pieces, a local server that writes one payload with backpressure, and the interleaved timing of
// the three readers (raw undici, the gateway client, the provider's own package).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';

export const PIECES = [
  'Héllo wörld, ',
  'naïve café ',
  '日本語のテキスト ',
  'emoji 🚀✨ ',
  'ελληνικά ',
  'plain ascii words here ',
  '\\"quoted\\" ',
  'line\\n',
];

/** The text of delta `i`: two pieces, so consecutive deltas differ. */
export const deltaText = (i: number): string => PIECES[i % PIECES.length] + PIECES[(i * 7 + 3) % PIECES.length];

export type ReaderName = 'raw' | 'client' | 'sdk';
/** Reads one whole stream; resolves with how much it saw (must be > 0). */
export type Reader = () => Promise<number>;

/** Serves `payload` as an event stream to every request, in 64 KB writes that wait for drain. */
async function serve(
  payload: Buffer,
  headers: Record<string, string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
      let offset = 0;
      const pump = (): void => {
        while (offset < payload.length) {
          const chunk = payload.subarray(offset, offset + 65536);
          offset += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function timed(read: Reader, bytes: number): Promise<number> {
  const started = process.hrtime.bigint();
  const seen = await read();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (seen <= 0) throw new Error('nothing read');
  return bytes / 1e6 / seconds;
}

/** MB/s of each reader over `payload`, interleaved, `runs` times each after one warm-up. */
export async function measureReaders(
  payload: Buffer,
  headers: Record<string, string>,
  readers: (url: string, dispatcher: Agent) => Record<ReaderName, Reader>,
  runs: number,
): Promise<Record<ReaderName, number[]>> {
  const server = await serve(payload, headers);
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const mbps: Record<ReaderName, number[]> = { raw: [], client: [], sdk: [] };
  const names = ['raw', 'client', 'sdk'] as const;
  try {
    const r = readers(server.url, dispatcher);
    for (const name of names) await timed(r[name], payload.length); // warm-up
    for (let i = 0; i < runs; i++) for (const name of names) mbps[name].push(await timed(r[name], payload.length));
  } finally {
    await dispatcher.close();
    await server.close();
  }
  return mbps;
}
