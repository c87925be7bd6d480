// Peer: the official `openai` package's Responses streaming cases (tests/lib/ResponseStream.test.ts and its recorded
// snapshots, test/peer/fixtures/openai/responses_*.sse) replayed as bytes over 127.0.0.1 to our client (the
// Responses dialect) and to the real package (responses.stream() → finalResponse()) on the same bytes, in every
// chunking. Outcomes are compared; the deliberate differences are asserted and explained here and in
// docs/gateway-protocol.md#responses:
//   1. Reasoning: theirs keeps an item's summary parts and reasoning_text parts apart; ours folds them into one
//      thinking block (summary parts as paragraphs) whose signature is the item's encrypted_content.
//   2. Usage: theirs reports input_tokens with the cached ones inside; ours splits them (input = input − cached,
//      cache_read = cached), as for the other dialects; output_tokens are the same (reasoning included).
//   3. The end: theirs resolves with whatever snapshot it has when the bytes end; ours needs response.completed (or
//      response.incomplete): a stream that ends before it is a cut answer with the partial kept, never a success.
//   4. response.failed: theirs resolves finalResponse() with status "failed"; ours rejects with the failure's code and
//      message (nothing above the client must mistake a failed response for an answer).
//   5. Function calls: ours is a tool_use block whose id is the call_id (what function_call_output refers to) and
//      whose input is the parsed arguments; theirs keeps the arguments string.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { createGatewayClient, isGatewayError, type GatewayError, type Message } from '../../src/gateway';
import { chunkings, replay, type PeerServer } from './support';

let server: PeerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fixture = (name: string): Buffer => readFileSync(join(__dirname, 'fixtures', 'openai', `${name}.sse`));
const sseOf = (events: object[]): Buffer =>
  Buffer.from(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n');

const REQUEST = { model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Say hello' }] };

async function ours(url: string): Promise<{ message?: Message; error?: GatewayError }> {
  const client = createGatewayClient({
    baseUrl: url,
    apiKey: 'k-peer',
    maxRetries: 0,
    dialects: { knowledge: () => ({ override: 'responses' }), learned: () => undefined },
  });
  try {
    return { message: await client.streamMessage(REQUEST).finalMessage() };
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return { error };
  }
}

type Final = Awaited<ReturnType<ReturnType<OpenAI['responses']['stream']>['finalResponse']>>;

async function theirs(url: string): Promise<{ response?: Final; error?: Error }> {
  const client = new OpenAI({ apiKey: 'k-peer', baseURL: `${url}/v1`, maxRetries: 0 });
  try {
    return { response: await client.responses.stream({ model: REQUEST.model, input: 'Say hello' }).finalResponse() };
  } catch (error) {
    return { error: error as Error };
  }
}

type Json = Record<string, unknown>;
const blocksOf = (m: Message | undefined, type: string): Json[] =>
  ((m?.content ?? []) as unknown as Json[]).filter((b) => b.type === type);

/** What both must agree on, read from each side's own shape. */
function agree(m: Message, r: Final): void {
  assert.equal(m.id, r.id);
  assert.equal(m.model, r.model);
  assert.equal(
    blocksOf(m, 'text')
      .map((b) => b.text)
      .join(''),
    r.output_text,
  );
  const reasoning = r.output
    .filter((o) => o.type === 'reasoning')
    .map((o) => {
      const item = o as { summary?: Array<{ text: string }>; content?: Array<{ text: string }> };
      return [...(item.summary ?? []), ...(item.content ?? [])].map((p) => p.text).join('');
    })
    .join('');
  assert.equal(
    blocksOf(m, 'thinking')
      .map((b) => b.thinking)
      .join(''),
    reasoning,
  );
  const calls = r.output.filter((o) => o.type === 'function_call') as Array<{
    call_id: string;
    name: string;
    arguments: string;
  }>;
  assert.deepEqual(
    blocksOf(m, 'tool_use').map((b) => ({ id: b.id, name: b.name, input: b.input })),
    calls.map((c) => ({ id: c.call_id, name: c.name, input: JSON.parse(c.arguments) as unknown })),
  );
  assert.equal(m.stop_reason, calls.length ? 'tool_use' : 'end_turn');
  if (r.usage) {
    // Difference 2: the same tokens, split differently.
    assert.equal(m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0), r.usage.input_tokens);
    assert.equal(m.usage.cache_read_input_tokens, r.usage.input_tokens_details.cached_tokens);
    assert.equal(m.usage.output_tokens, r.usage.output_tokens);
  }
}

const RESPONSE = {
  id: 'resp_123',
  object: 'response',
  created_at: 1,
  model: 'gpt-5',
  output: [],
  error: null,
  incomplete_details: null,
  status: 'in_progress',
  usage: null,
};
const CALL = { id: 'fc_1', type: 'function_call', call_id: 'call_first', name: 'first', status: 'in_progress' };
const FUNCTION_CALL = [
  { type: 'response.created', sequence_number: 0, response: RESPONSE },
  { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...CALL, arguments: '' } },
  {
    type: 'response.function_call_arguments.delta',
    sequence_number: 2,
    item_id: 'fc_1',
    output_index: 0,
    delta: '{"first":',
  },
  {
    type: 'response.function_call_arguments.delta',
    sequence_number: 3,
    item_id: 'fc_1',
    output_index: 0,
    delta: 'true}',
  },
  {
    type: 'response.output_item.done',
    sequence_number: 4,
    output_index: 0,
    item: { ...CALL, status: 'completed', arguments: '{"first":true}' },
  },
  {
    type: 'response.completed',
    sequence_number: 5,
    response: {
      ...RESPONSE,
      status: 'completed',
      output: [{ ...CALL, status: 'completed', arguments: '{"first":true}' }],
      usage: {
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 8 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 25,
      },
    },
  },
];

describe('peer: the openai package on the same Responses bytes', function () {
  this.timeout(30_000);

  for (const name of ['responses_standard_text', 'responses_reasoning'])
    it(`recorded stream "${name}": the same text, reasoning, id, model and usage in every chunking`, async () => {
      for (const { label, chunks } of chunkings(fixture(name))) {
        server = await replay(chunks);
        const a = await ours(server.url);
        const b = await theirs(server.url);
        assert.ok(a.message, `${label}: ${a.error?.message}`);
        assert.ok(b.response, `${label}: ${b.error?.message}`);
        agree(a.message, b.response);
        await server.close();
        server = undefined;
      }
    });

  it('a function call (argument deltas by output_index): the same call in every chunking (difference 5)', async () => {
    for (const { label, chunks } of chunkings(sseOf(FUNCTION_CALL))) {
      server = await replay(chunks);
      const a = await ours(server.url);
      const b = await theirs(server.url);
      assert.ok(a.message, `${label}: ${a.error?.message}`);
      assert.ok(b.response, `${label}: ${b.error?.message}`);
      agree(a.message, b.response);
      await server.close();
      server = undefined;
    }
  });

  it('"converts an error event into an APIError": both fail with the code and message', async () => {
    server = await replay([
      sseOf([
        { type: 'response.created', sequence_number: 0, response: RESPONSE },
        {
          type: 'error',
          sequence_number: 1,
          code: 'server_error',
          message: 'The server had an error while processing your request.',
          param: null,
        },
      ]),
    ]);
    const a = await ours(server.url);
    const b = await theirs(server.url);
    assert.equal((b.error as { code?: string }).code, 'server_error');
    assert.equal(a.error?.serverCode, 'server_error');
    assert.match(a.error?.message ?? '', /The server had an error while processing your request\./);
    assert.equal(b.error?.message, 'The server had an error while processing your request.');
  });

  it('"preserves failed response snapshots": theirs resolves with status failed, ours rejects (difference 4)', async () => {
    server = await replay([
      sseOf([
        { type: 'response.created', sequence_number: 0, response: RESPONSE },
        {
          type: 'response.failed',
          sequence_number: 1,
          response: { ...RESPONSE, status: 'failed', error: { code: 'server_error', message: 'The response failed.' } },
        },
      ]),
    ]);
    const a = await ours(server.url);
    const b = await theirs(server.url);
    assert.equal(b.response?.status, 'failed');
    assert.equal(a.error?.serverCode, 'server_error');
    assert.match(a.error?.message ?? '', /The response failed\./);
  });

  it('bytes that end before response.completed: theirs resolves with its snapshot, ours is a cut (difference 3)', async () => {
    server = await replay([sseOf(FUNCTION_CALL.slice(0, 4))]);
    const a = await ours(server.url);
    const b = await theirs(server.url);
    assert.ok(b.response, b.error?.message);
    assert.ok(a.error?.cut, 'a cut answer');
    assert.match(a.error?.message ?? '', /response\.completed/);
  });
});
