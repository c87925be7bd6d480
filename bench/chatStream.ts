// Chat-completions stream benchmark: the same multi-MB `chat.completion.chunk` stream from a local server read
// (a) raw by undici, (b) through the gateway client's chat-completions dialect to finalMessage(), (c) through the
// `openai` package's chat.completions.stream().finalChatCompletion(). Run alone with `npx tsx bench/chatStream.ts`;
// `npm run bench` imports runChatStreamBench().
import { type Agent, request } from 'undici';
import OpenAI from 'openai';
import { createGatewayClient } from '../src/gateway';
import { fmt, fmtStats, stats, type BenchRow } from './table';
import { deltaText, measureReaders, type Reader, type ReaderName } from './streamHarness';

/** A chat-completions stream of `deltas` content deltas (multi-byte text), as OpenAI and one-api send it. */
export function buildChatStream(deltas: number): Buffer {
  const head =
    '{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1722610517,"model":"gpt-bench","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":';
  const parts: string[] = [
    `data: ${head}{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`,
  ];
  for (let i = 0; i < deltas; i++) {
    const text = deltaText(i);
    parts.push(`data: ${head}{"content":"${text}"},"logprobs":null,"finish_reason":null}]}\n\n`);
  }
  parts.push(`data: ${head}{},"logprobs":null,"finish_reason":"stop"}]}\n\n`);
  parts.push(
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1722610517,"model":"gpt-bench","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":${deltas},"total_tokens":${deltas + 12}}}\n\n`,
  );
  parts.push('data: [DONE]\n\n');
  return Buffer.from(parts.join(''), 'utf8');
}

function readers(url: string, dispatcher: Agent): Record<ReaderName, Reader> {
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
): Promise<{ bytes: number; deltas: number; mbps: Record<ReaderName, number[]> }> {
  const payload = buildChatStream(deltas);
  const mbps = await measureReaders(payload, { 'x-request-id': 'req_bench' }, readers, runs);
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
