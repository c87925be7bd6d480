// Responses stream benchmark: the same multi-MB Responses event stream from a local server read (a) raw by undici,
// (b) through the gateway client's Responses dialect to finalMessage(), (c) through the `openai` package's
// responses.stream().finalResponse(). Run alone with `npx tsx bench/responsesStream.ts`; `npm run bench` imports
// runResponsesStreamBench().
import { type Agent, request } from 'undici';
import OpenAI from 'openai';
import { createGatewayClient } from '../src/gateway';
import { fmt, fmtStats, stats, type BenchRow } from './table';
import { deltaText, measureReaders, type Reader, type ReaderName } from './streamHarness';

/** A Responses stream of `deltas` output_text deltas (multi-byte text), framed as OpenAI sends it. */
export function buildResponsesStream(deltas: number): Buffer {
  let seq = 0;
  const ev = (type: string, data: string): string =>
    `event: ${type}\ndata: {"type":"${type}","sequence_number":${seq++},${data}}\n\n`;
  const response = (status: string, output: string, usage: string): string =>
    `"response":{"id":"resp_bench","object":"response","created_at":1722610517,"model":"gpt-bench","status":"${status}","error":null,"incomplete_details":null,"output":${output},"usage":${usage}}`;
  const parts: string[] = [
    ev('response.created', response('in_progress', '[]', 'null')),
    ev('response.in_progress', response('in_progress', '[]', 'null')),
    ev(
      'response.output_item.added',
      '"output_index":0,"item":{"id":"msg_bench","type":"message","status":"in_progress","role":"assistant","content":[]}',
    ),
    ev(
      'response.content_part.added',
      '"item_id":"msg_bench","output_index":0,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}',
    ),
  ];
  const texts: string[] = [];
  for (let i = 0; i < deltas; i++) {
    const text = deltaText(i);
    texts.push(text);
    parts.push(
      ev(
        'response.output_text.delta',
        `"item_id":"msg_bench","output_index":0,"content_index":0,"delta":"${text}","logprobs":[],"obfuscation":"x9Qa"`,
      ),
    );
  }
  const all = texts.join('');
  const item = `{"id":"msg_bench","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"${all}"}]}`;
  parts.push(
    ev(
      'response.output_text.done',
      `"item_id":"msg_bench","output_index":0,"content_index":0,"text":"${all}","logprobs":[]`,
    ),
  );
  parts.push(ev('response.output_item.done', `"output_index":0,"item":${item}`));
  parts.push(
    ev(
      'response.completed',
      response(
        'completed',
        `[${item}]`,
        `{"input_tokens":12,"input_tokens_details":{"cached_tokens":0},"output_tokens":${deltas},"output_tokens_details":{"reasoning_tokens":0},"total_tokens":${deltas + 12}}`,
      ),
    ),
  );
  return Buffer.from(parts.join(''), 'utf8');
}

function readers(url: string, dispatcher: Agent): Record<ReaderName, Reader> {
  const body = { model: 'gpt-bench', max_tokens: 100000, messages: [{ role: 'user' as const, content: 'bench' }] };
  const client = createGatewayClient({
    baseUrl: url,
    apiKey: 'bench-key',
    dispatcher,
    dialects: { knowledge: () => ({ override: 'responses' }), learned: () => undefined },
  });
  const sdk = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'bench-key', maxRetries: 0 });
  return {
    raw: async () => {
      const res = await request(url + '/v1/responses', { method: 'POST', body: '{}', dispatcher });
      let n = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) n += chunk.length;
      return n;
    },
    client: async () => (await client.streamMessage(body).finalMessage()).content.length,
    sdk: async () => (await sdk.responses.stream({ model: body.model, input: 'bench' }).finalResponse()).output.length,
  };
}

/** Measures the three readers, interleaved, `runs` times each (after one warm-up). */
export async function measureResponsesStream(
  deltas = 40_000,
  runs = 7,
): Promise<{ bytes: number; deltas: number; mbps: Record<ReaderName, number[]> }> {
  const payload = buildResponsesStream(deltas);
  const mbps = await measureReaders(payload, { 'x-request-id': 'req_bench' }, readers, runs);
  return { bytes: payload.length, deltas, mbps };
}

/** The benchmark rows for `npm run bench`. */
export async function runResponsesStreamBench(): Promise<BenchRow[]> {
  const result = await measureResponsesStream();
  const raw = stats(result.mbps.raw);
  const client = stats(result.mbps.client);
  const sdk = stats(result.mbps.sdk);
  return [
    {
      figure: 'Responses stream: raw undici body read (a)',
      baseline: '-',
      value: fmtStats(raw, 'MB/s'),
      target: '-',
      met: undefined,
      note: `${fmt(result.bytes / 1e6)} MB, ${result.deltas} output_text deltas`,
    },
    {
      figure: 'Responses stream: openai finalResponse (c)',
      baseline: '-',
      value: fmtStats(sdk, 'MB/s'),
      target: '-',
      met: undefined,
    },
    {
      figure: 'Responses stream: gateway client finalMessage (b)',
      baseline: `openai ${fmt(sdk.median)} MB/s, raw ${fmt(raw.median)} MB/s`,
      value: fmtStats(client, 'MB/s'),
      target: '-',
      met: undefined,
    },
    {
      figure: 'Responses ratio b/a (client vs raw read, medians)',
      baseline: 'raw undici read',
      value: fmt(client.median / raw.median, 2),
      target: '≥ 0.3',
      met: client.median / raw.median >= 0.3,
    },
    {
      figure: 'Responses ratio b/c (client vs openai package, medians)',
      baseline: 'openai',
      value: fmt(client.median / sdk.median, 2),
      target: '≥ 5',
      met: client.median / sdk.median >= 5,
    },
  ];
}

if (require.main === module) {
  runResponsesStreamBench()
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
