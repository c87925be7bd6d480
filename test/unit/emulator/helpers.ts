// Shared helpers of the emulator tests: keys, the emulator per suite, and small raw HTTP calls.

import { request } from 'node:http';
import { defaultConfig, type Emulator, type EmulatorConfig } from '../../../src/emulator';

export const DEMO = 'mg-demo-key-0001';
export const CHAT_ONLY = 'mg-chat-only-0002';
export const LOW_BALANCE = 'mg-low-balance-0003';
export const REVOKED = 'mg-revoked-0004';
export const ALT = 'mg-alt-key-0005';
export const RATE_LIMITED = 'mg-rate-limited-0006';
export const DISABLED_GROUP = 'mg-disabled-group-0007';

/** The emulator per suite, for the unit tests that import it from here (the one lifecycle: test/support). */
export { useEmulator } from '../../support/emulatorLifecycle';

/** The default configuration with answers sent at once (no streaming pace): for tests that run whole agent turns. */
export function instantAnswers(): EmulatorConfig {
  const config = defaultConfig();
  config.messages.tokensPerSecond = 0;
  return config;
}

export const messagesHeaders = (key = DEMO): Record<string, string> => ({
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
  'content-type': 'application/json',
});

export const imageHeaders = (key = DEMO): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});

export function chatBody(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'claude-demo-sonnet', max_tokens: 4096, messages: [{ role: 'user', content: text }], ...extra };
}

export async function post(
  emu: Emulator,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<Response> {
  return fetch(emu.url + path, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends `total` bytes in 1 MB chunks (no buffering on our side) and returns the reply. */
export function sendHugeBody(
  emu: Emulator,
  path: string,
  total: number,
  headers: Record<string, string>,
  declareLength: boolean,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      emu.url + path,
      { method: 'POST', headers: { ...headers, ...(declareLength ? { 'content-length': String(total) } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const pump = (): void => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/** Reads an SSE body into [event, data] pairs (event '' when the event line is missing). */
export function parseSse(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? '';
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}
