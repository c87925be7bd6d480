// Tool input assembled by block index until message_stop (real routers send a block's input_json_delta
// after its content_block_stop), and unusable tool input as a typed error with the raw text kept.
import * as assert from 'node:assert/strict';
import { createGatewayClient, isGatewayError, type StreamEvent } from '../../../src/gateway';
import { adviseOnError } from '../../../src/gateway/errors/advice';
import { MESSAGE_REQUEST, sseServer } from './streamHelpers';
import { json as sendJson, startServer, type TestServer } from './server';
import { failure } from '../../support/failure';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function sse(events: StreamEvent[]): Buffer {
  return Buffer.from(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''), 'utf8');
}

const start: StreamEvent = {
  type: 'message_start',
  message: {
    id: 'msg_t',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 5, output_tokens: 1 },
  },
};
const tool = (index: number, id: string, name: string): StreamEvent => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name, input: {} },
});
const json = (index: number, partial_json: string): StreamEvent => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json },
});
const stop = (index: number): StreamEvent => ({ type: 'content_block_stop', index });
const end = (reason = 'tool_use'): StreamEvent[] => [
  { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 20 } },
  { type: 'message_stop' },
];

async function final(events: StreamEvent[], chunkSize = 7): Promise<ReturnType<typeof Object>> {
  server = await sseServer(sse(events), { chunkSize });
  return createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST).finalMessage();
}

describe('gateway stream: tool input by block index until message_stop', () => {
  it('keeps fragments of block 0 that arrive after its content_block_stop, interleaved with block 1', async () => {
    const m = await final([
      start,
      tool(0, 'toolu_a', 'weather'),
      json(0, '{"city":'),
      stop(0),
      tool(1, 'toolu_b', 'time'),
      json(1, '{"tz":'),
      json(0, '"Paris"}'),
      json(1, '"CET"}'),
      stop(1),
      ...end(),
    ]);
    assert.deepEqual(m.content, [
      { type: 'tool_use', id: 'toolu_a', name: 'weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'toolu_b', name: 'time', input: { tz: 'CET' } },
    ]);
  });

  for (const [label, raw, reason] of [
    ['truncated', '{"city":', /not valid JSON/],
    ['malformed', '{"city": Paris}', /not valid JSON/],
    ['not an object', '"Paris"', /JSON string, not an object/],
  ] as const) {
    it(`a ${label} tool input rejects with a typed protocol error, raw text kept, {} in the partial`, async () => {
      const e = await failure(final([start, tool(0, 'toolu_a', 'weather'), json(0, raw), stop(0), ...end()]));
      assert.equal(e.kind, 'protocol');
      assert.equal(e.outcomeUnknown, false);
      assert.equal(e.toolInputProblems?.length, 1);
      assert.deepEqual(
        { ...e.toolInputProblems![0], reason: undefined },
        { index: 0, id: 'toolu_a', name: 'weather', raw, reason: undefined },
      );
      assert.match(e.toolInputProblems![0].reason, reason);
      assert.deepEqual((e.partial?.content[0] as { input: unknown }).input, {});
      assert.equal(e.partial?.stop_reason, 'tool_use');
      const advice = adviseOnError(e, { surface: 'chat' });
      assert.match(advice.title, /"weather" could not be read/);
      assert.doesNotMatch(advice.title + advice.detail, /cut off|reach/);
    });
  }

  it('a tool input cut by max_tokens is an error that says so', async () => {
    const e = await failure(
      final([
        start,
        tool(0, 'toolu_a', 'make_file'),
        json(0, '{"filename": "taxes.txt", "lines": ["a",'),
        ...end('max_tokens'),
      ]),
    );
    assert.equal(e.toolInputProblems?.[0].raw, '{"filename": "taxes.txt", "lines": ["a",');
    assert.match(e.message, /max_tokens/);
    assert.match(adviseOnError(e, { surface: 'chat' }).detail, /max_tokens limit/);
  });

  it('currentMessage() never holds a string as a tool input mid-stream', async () => {
    server = await sseServer(sse([start, tool(0, 'toolu_a', 'weather'), json(0, '{"city":')]), { ending: 'destroy' });
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST);
    const e = await failure(stream.finalMessage());
    assert.deepEqual((stream.currentMessage()?.content[0] as { input: unknown }).input, {});
    assert.deepEqual((e.partial?.content[0] as { input: unknown }).input, {});
    assert.equal(e.toolInputProblems?.[0].raw, '{"city":');
  });
});

describe('gateway stream: message_delta keeps every field', () => {
  it('copies stop_details, container, unknown delta fields and context_management; usage merged field-wise', async () => {
    const m = (await final([
      {
        type: 'message_start',
        message: {
          id: 'msg_d',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          container: null,
          usage: { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 3, service_tier: 'standard' },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'message_delta',
        context_management: { applied_edits: [] },
        delta: {
          stop_reason: 'refusal',
          stop_sequence: null,
          stop_details: { type: 'refusal', category: 'cyber' },
          container: { id: 'container_01' },
          future_field: 7,
        },
        usage: {
          output_tokens: 99,
          input_tokens: 42,
          cache_read_input_tokens: null,
          server_tool_use: { web_search_requests: 1 },
        },
      },
      { type: 'message_stop' },
    ])) as unknown as Record<string, unknown>;
    assert.equal(m.stop_reason, 'refusal');
    assert.deepEqual(m.stop_details, { type: 'refusal', category: 'cyber' });
    assert.deepEqual(m.container, { id: 'container_01' });
    assert.equal(m.future_field, 7);
    assert.deepEqual(m.context_management, { applied_edits: [] });
    // null = not reported here: keeps message_start's value (as the official SDK does).
    assert.deepEqual(m.usage, {
      input_tokens: 42,
      output_tokens: 99,
      cache_read_input_tokens: 3,
      service_tier: 'standard',
      server_tool_use: { web_search_requests: 1 },
    });
  });
});

describe('gateway: tool input of whole (non-streamed) messages', () => {
  const reply = (input: unknown) => ({
    id: 'msg_w',
    type: 'message',
    role: 'assistant',
    model: 'm',
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 2 },
    content: [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_w', name: 'weather', input },
    ],
  });

  for (const via of ['createMessage', 'a JSON reply to a stream request'] as const) {
    const call = async (input: unknown) => {
      server = await startServer((_req, res) => sendJson(res, 200, reply(input)));
      const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k' });
      return via === 'createMessage'
        ? client.createMessage(MESSAGE_REQUEST)
        : client.streamMessage(MESSAGE_REQUEST).finalMessage();
    };

    it(`${via}: an input sent as a JSON string (OpenAI-style arguments) is handed over parsed`, async () => {
      const m = await call('{"city":"Paris"}');
      assert.deepEqual((m.content[1] as { input: unknown }).input, { city: 'Paris' });
    });

    it(`${via}: an input that is not a JSON object is a typed error with the raw text, never a string`, async () => {
      for (const input of ['{"city":', 'Paris', null, [1]]) {
        const e = await call(input).then(
          () => assert.fail('resolved'),
          (x: unknown) => x,
        );
        await server?.close();
        server = undefined;
        assert.ok(isGatewayError(e));
        assert.equal(e.kind, 'protocol');
        assert.equal(e.toolInputProblems?.[0].name, 'weather');
        assert.equal(e.toolInputProblems?.[0].raw, typeof input === 'string' ? input : JSON.stringify(input));
        assert.deepEqual((e.partial?.content[1] as { input: unknown }).input, {});
        assert.match(adviseOnError(e, { surface: 'chat' }).title, /"weather" could not be read/);
      }
    });
  }
});
