// Serving recorded SSE fixtures with any chunking and line endings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, writeChunked, type TestServer } from './server';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'sse');

/** A fixture as bytes, with its line endings rewritten ('\n' as recorded, '\r\n' or '\r'). */
export function fixture(name: string, eol: '\n' | '\r\n' | '\r' = '\n'): Buffer {
  const text = readFileSync(join(FIXTURES, name), 'utf8');
  return Buffer.from(eol === '\n' ? text : text.replace(/\n/g, eol), 'utf8');
}

export interface SseServeOptions {
  chunkSize?: number;
  /** End the response after the data (default), or destroy the socket. */
  ending?: 'end' | 'destroy';
  headers?: Record<string, string>;
}

/** A server that answers every POST with `payload` as an SSE stream. */
export function sseServer(payload: Buffer, o: SseServeOptions = {}): Promise<TestServer> {
  return startServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_sse_1', ...o.headers });
    await writeChunked(res, payload, o.chunkSize ?? 65536, false);
    if (o.ending === 'destroy') res.destroy();
    else res.end();
  });
}

export const MESSAGE_REQUEST = {
  model: 'claude-demo-sonnet',
  max_tokens: 64,
  messages: [{ role: 'user' as const, content: 'hi' }],
};
