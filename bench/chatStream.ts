// Chat-completions stream benchmark: the same multi-MB `chat.completion.chunk` stream from a local server read
// (a) raw by undici, (b) through the gateway client's chat-completions dialect to finalMessage(), (c) through the
// `openai` package's chat.completions.stream().finalChatCompletion(). Run alone with `npx tsx bench/chatStream.ts`;
// `npm run bench` imports runChatStreamBench().
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import OpenAI from 'openai';
import { createGatewayClient } from '../src/gateway';
import { fmt, fmtStats, stats, type BenchRow } from './table';

const PIECES = [
  'Héllo wörld, ',
  'naïve café ',
  '日本語のテキスト ',
  'emoji 🚀✨ ',
  'ελληνικά ',
  'plain ascii words here ',
  '\\"quoted\\" ',
  'line\\n',
];

/** A chat-completions stream of `deltas` content deltas (multi-byte text), as OpenAI and one-api send it. */
export function buildChatStream(deltas: number): Buffer {
  const head =
    '{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1722610517,"model":"gpt-bench","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":';
  const parts: string[] = [
    `data: ${head}{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
  ];
  for (let i = 0; i < deltas; i++) {
    const text = PIECES[i % PIECES.length] + PIECES[(i * 7 + 3) % PIECES.length];
    parts.push(`data: ${head}{"content":"${text}"},"logprobs":null,"finish_reason":null}]}\n\n`);
  }
  parts.push(`data: ${head}{},"logprobs":null,"finish_reason":"stop"}]}\n\n`);
  parts.push(
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1722610517,"model":"gpt-bench","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":${deltas},"total_tokens":${deltas + 12}}}\n\n`,
  );
  parts.push('data: [DONE]\n\n');
  return Buffer.from(parts.join(''), 'utf8');
}

async function serve(payload: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_bench' });
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

type Reader = () => Promise<number>;

async function timed(read: Reader, bytes: number): Promise<number> {
  const started = process.hrtime.bigint();
  const seen = await read();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (seen <= 0) throw new Error('nothing read');
  return bytes / 1e6 / seconds;
}

function readers(url: string, dispatcher: Agent): Record<'raw' | 'client' | 'sdk', Reader> {
  const body = { model: 'gpt-bench', max_tokens: 100000, messages: [{ role: 'user' as const, content: 'bench' }] };
  const client = createGatewayClient({
    baseUrl: url,
    apiKey: 'bench-key',
    dispatcher,
    dialects: { knowledge: () => ({ override: 'chat-completions' }), learned: () => undefined },
  });
  const sdk = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'bench-key', maxRetries: 0 });
  return {
    raw: async () => {
      const res = await request(url + '/v1/chat/completions', { method: 'POST', body: '{}', dispatcher });
      let n = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) n += chunk.length;
      return n;
    },
    client: async () => (await client.streamMessage(body).finalMessage()).content.length,
    sdk: async () =>
      (await sdk.chat.completions.stream({ model: body.model, messages: body.messages }).finalChatCompletion()).choices
        .length,
  };
}

/** Measures the three readers, interleaved, `runs` times each (after one warm-up). */
export async function measureChatStream(
  deltas = 40_000,
  runs = 7,
): Promise<{ bytes: number; deltas: number; mbps: Record<'raw' | 'client' | 'sdk', number[]> }> {
  const payload = buildChatStream(deltas);
  const server = await serve(payload);
  const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
  const mbps: Record<'raw' | 'client' | 'sdk', number[]> = { raw: [], client: [], sdk: [] };
  try {
    const r = readers(server.url, dispatcher);
    for (const name of ['raw', 'client', 'sdk'] as const) await timed(r[name], payload.length); // warm-up
    for (let i = 0; i < runs; i++) {
      for (const name of ['raw', 'client', 'sdk'] as const) mbps[name].push(await timed(r[name], payload.length));
    }
  } finally {
    await dispatcher.close();
    await server.close();
  }
  return { bytes: payload.length, deltas, mbps };
}

/** The benchmark rows for `npm run bench`. */
export async function runChatStreamBench(): Promise<BenchRow[]> {
  const result = await measureChatStream();
  const raw = stats(result.mbps.raw);
  const client = stats(result.mbps.client);
  const sdk = stats(result.mbps.sdk);
  return [
    {
      figure: 'chat-completions stream: raw undici body read (a)',
      baseline: '-',
      value: fmtStats(raw, 'MB/s'),
      target: '-',
      met: undefined,
      note: `${fmt(result.bytes / 1e6)} MB, ${result.deltas} content deltas`,
    },
    {
      figure: 'chat-completions stream: openai finalChatCompletion (c)',
      baseline: '-',
      value: fmtStats(sdk, 'MB/s'),
      target: '-',
      met: undefined,
    },
    {
      figure: 'chat-completions stream: gateway client finalMessage (b)',
      baseline: `openai ${fmt(sdk.median)} MB/s, raw ${fmt(raw.median)} MB/s`,
      value: fmtStats(client, 'MB/s'),
      target: '-',
      met: undefined,
    },
    {
      figure: 'chat-completions ratio b/a (client vs raw read, medians)',
      baseline: 'raw undici read',
      value: fmt(client.median / raw.median, 2),
      target: '≥ 0.3',
      met: client.median / raw.median >= 0.3,
    },
    {
      figure: 'chat-completions ratio b/c (client vs openai package, medians)',
      baseline: 'openai',
      value: fmt(client.median / sdk.median, 2),
      target: '≥ 5',
      met: client.median / sdk.median >= 5,
    },
  ];
}

if (require.main === module) {
  runChatStreamBench()
    .then((rows) => {
      for (const r of rows)
        console.log(
          `${r.figure}: ${r.value}${r.met === undefined ? '' : r.met ? ' [met]' : ' [NOT met]'}${r.note ? ` — ${r.note}` : ''}`,
        );
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    });
}
