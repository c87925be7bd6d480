// Stream benchmark: the same multi-MB Messages SSE stream from a local server read (a) raw by undici,
// (b) through the gateway client to finalMessage(), (c) through @anthropic-ai/sdk's
// messages.stream().finalMessage(). Run alone with `npx tsx bench/stream.ts`; `npm run bench` imports
// runStreamBench().
import { type Agent, request } from 'undici';
import Anthropic from '@anthropic-ai/sdk';
import { createGatewayClient } from '../src/gateway';
import { fmt, fmtStats, stats, type BenchRow } from './table';
import { deltaText, measureReaders, type Reader, type ReaderName } from './streamHarness';

/** Builds a Messages SSE stream of `deltas` text deltas (multi-byte text), as gateways send it. */
export function buildStream(deltas: number): Buffer {
  const parts: string[] = [
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_bench","type":"message","role":"assistant","model":"claude-demo-sonnet","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}\n\n',
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  ];
  for (let i = 0; i < deltas; i++) {
    const text = deltaText(i);
    parts.push(
      `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${text}"}}\n\n`,
    );
    if (i % 5000 === 0) parts.push('event: ping\ndata: {"type": "ping"}\n\n');
  }
  parts.push('event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n');
  parts.push(
    `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":${deltas}}}\n\n`,
  );
  parts.push('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  return Buffer.from(parts.join(''), 'utf8');
}

function readers(url: string, dispatcher: Agent): Record<ReaderName, Reader> {
  const request0 = {
    model: 'claude-demo-sonnet',
    max_tokens: 100000,
    messages: [{ role: 'user' as const, content: 'bench' }],
  };
  const client = createGatewayClient({ baseUrl: url, apiKey: 'bench-key', dispatcher });
  const sdk = new Anthropic({ baseURL: url, apiKey: 'bench-key', maxRetries: 0 });
  return {
    raw: async () => {
      const res = await request(url + '/v1/messages', { method: 'POST', body: '{}', dispatcher });
      let n = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) n += chunk.length;
      return n;
    },
    client: async () => (await client.streamMessage(request0).finalMessage()).content.length,
    sdk: async () => (await sdk.messages.stream(request0).finalMessage()).content.length,
  };
}

export interface StreamBenchResult {
  bytes: number;
  deltas: number;
  mbps: Record<ReaderName, number[]>;
}

/** Measures the three readers, interleaved, `runs` times each (after one warm-up). */
export async function measureStream(deltas = 40_000, runs = 7): Promise<StreamBenchResult> {
  const payload = buildStream(deltas);
  const mbps = await measureReaders(payload, { 'request-id': 'req_bench' }, readers, runs);
  return { bytes: payload.length, deltas, mbps };
}

/** The benchmark rows for `npm run bench` (the array also carries itself as `.rows`). */
export async function runStreamBench(): Promise<BenchRow[] & { rows: BenchRow[] }> {
  const result = await measureStream();
  const raw = stats(result.mbps.raw);
  const client = stats(result.mbps.client);
  const sdk = stats(result.mbps.sdk);
  const size = `${fmt(result.bytes / 1e6)} MB, ${result.deltas} text deltas`;
  const rows: BenchRow[] = [
    {
      figure: 'SSE stream: raw undici body read (a)',
      baseline: '-',
      value: fmtStats(raw, 'MB/s'),
      target: '-',
      met: undefined,
      note: size,
    },
    {
      figure: 'SSE stream: @anthropic-ai/sdk finalMessage (c)',
      baseline: '-',
      value: fmtStats(sdk, 'MB/s'),
      target: '-',
      met: undefined,
    },
    {
      figure: 'SSE stream: gateway client finalMessage (b)',
      baseline: `sdk ${fmt(sdk.median)} MB/s, raw ${fmt(raw.median)} MB/s`,
      value: fmtStats(client, 'MB/s'),
      target: '-',
      met: undefined,
    },
    {
      figure: 'ratio b/a (client vs raw read, medians)',
      baseline: 'raw undici read',
      value: fmt(client.median / raw.median, 2),
      target: '≥ 0.3',
      met: client.median / raw.median >= 0.3,
    },
    {
      figure: 'ratio b/c (client vs official SDK, medians)',
      baseline: '@anthropic-ai/sdk',
      value: fmt(client.median / sdk.median, 2),
      target: '≥ 5',
      met: client.median / sdk.median >= 5,
    },
  ];
  return Object.assign(rows, { rows });
}

if (require.main === module) {
  runStreamBench()
    .then((rows) => {
      for (const r of rows)
        console.log(
          `${r.figure}: ${r.value}${r.baseline !== '-' ? ` (baseline: ${r.baseline})` : ''}${r.met === undefined ? '' : r.met ? ' [met]' : ' [NOT met]'}${r.note ? ` — ${r.note}` : ''}`,
        );
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    });
}
