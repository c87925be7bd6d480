// Peer tests: the official Anthropic TypeScript SDK's own test cases (streaming decoder, line decoder,
// MessageStream, abort-listener cleanup, retries), replayed as real bytes over real sockets on 127.0.0.1
// against our gateway client, and where useful through the real SDK too, comparing the outcomes.
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { listenLocally } from '../support/httpServer';
import {
  createGatewayClient,
  isGatewayError,
  type GatewayClientOptions,
  type GatewayError,
  type Message,
  type StreamEvent,
} from '../../src/gateway';

export const REQUEST = {
  model: 'claude-opus-4-8',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'Say hello there!' }],
};

/** A recorded SDK fixture (test/peer/fixtures), as bytes. */
export function fixture(name: string): Buffer {
  return readFileSync(join(__dirname, 'fixtures', name));
}

/** Events as the Messages API frames them: `event: <type>` + `data: <json>` + blank line. */
export function sseOf(events: object[]): Buffer {
  return Buffer.from(
    events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join(''),
    'utf8',
  );
}

/** Splits bytes at the given offsets (any offset: inside a line, a CRLF or a UTF-8 character). */
export function splitAt(bytes: Buffer, offsets: number[]): Buffer[] {
  const cuts = [...new Set(offsets.filter((o) => o > 0 && o < bytes.length))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of cuts) {
    out.push(bytes.subarray(from, cut));
    from = cut;
  }
  out.push(bytes.subarray(from));
  return out;
}

/** A small seeded PRNG (mulberry32), so a failing random chunking can be replayed by its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Chunkings of `bytes`: whole, every byte, every 2 and 5 bytes, and three seeded random splits. */
export function chunkings(bytes: Buffer): Array<{ label: string; chunks: Buffer[] }> {
  const every = (n: number): number[] => Array.from({ length: Math.ceil(bytes.length / n) }, (_, i) => i * n);
  const random = (seed: number): number[] => {
    const next = prng(seed);
    const cuts: number[] = [];
    for (let at = 0; at < bytes.length; at += 1 + Math.floor(next() * 40)) cuts.push(at);
    return cuts;
  };
  return [
    { label: 'one chunk', chunks: [bytes] },
    { label: '1-byte chunks', chunks: splitAt(bytes, every(1)) },
    { label: '2-byte chunks', chunks: splitAt(bytes, every(2)) },
    { label: '5-byte chunks', chunks: splitAt(bytes, every(5)) },
    ...[7, 42, 1234].map((seed) => ({ label: `random chunks (seed ${seed})`, chunks: splitAt(bytes, random(seed)) })),
  ];
}

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void | Promise<void>;

export interface PeerServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 answering every request with `handler` (n = 1-based request count). */
export async function peerServer(handler: Handler): Promise<PeerServer> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      Promise.resolve(handler(req, res, seen.length)).catch(() => res.destroy());
    });
  });
  server.on('connection', (s: Socket) => s.setNoDelay(true));
  const { url, close } = await listenLocally(server);
  return { url, seen, close };
}

/** Writes the chunks one per event-loop turn (so they leave as separate writes), then ends or drops. */
export async function writeChunks(
  res: http.ServerResponse,
  chunks: Buffer[],
  ending: 'end' | 'destroy' | 'hold' = 'end',
): Promise<void> {
  for (const chunk of chunks) {
    if (res.destroyed) return;
    res.write(chunk);
    await new Promise((r) => setImmediate(r));
  }
  if (ending === 'end') res.end();
  else if (ending === 'destroy') res.destroy();
}

/** A server replaying `chunks` as a 200 event stream to every request. */
export function replay(
  chunks: Buffer[],
  o: { ending?: 'end' | 'destroy' | 'hold'; headers?: Record<string, string> } = {},
): Promise<PeerServer> {
  return peerServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', ...o.headers });
    await writeChunks(res, chunks, o.ending);
  });
}

export interface Outcome {
  /** Event types in the order the consumer saw them. */
  events: string[];
  message?: Message;
  error?: unknown;
}

/** Our client: iterate the stream, then finalMessage(). */
export async function viaGateway(
  url: string,
  options: Partial<GatewayClientOptions> = {},
): Promise<Outcome & { error?: GatewayError }> {
  const stream = createGatewayClient({ baseUrl: url, apiKey: 'k-peer', maxRetries: 0, ...options }).streamMessage(
    REQUEST,
  );
  const events: string[] = [];
  try {
    for await (const event of stream as AsyncIterable<StreamEvent>) events.push(event.type);
    return { events, message: await stream.finalMessage() };
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { events, error };
  }
}

/** The official SDK on the same server: messages.stream(), iterate, then finalMessage(). */
export async function viaSdk(url: string): Promise<Outcome> {
  const stream = new Anthropic({ apiKey: 'k-peer', baseURL: url, maxRetries: 0 }).messages.stream(REQUEST);
  const events: string[] = [];
  try {
    for await (const event of stream) events.push(event.type);
    // parsed_output is the SDK's own structured-output helper field (null without output_format), not wire data.
    const { parsed_output: _helper, ...message } = (await stream.finalMessage()) as unknown as Message & {
      parsed_output?: unknown;
    };
    return { events, message };
  } catch (error) {
    return { events, error };
  }
}

/** A message as JSON would carry it (drops undefined fields and getters' laziness), for comparisons. */
export function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
