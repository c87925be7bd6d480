// The Responses dialect (src/gateway/dialects/responsesMapping.ts, responsesEvents.ts) with real SSE bytes over 127.0.0.1:
// the request body, text / reasoning / function-call events assembled into a Message (in every chunking), usage,
// incomplete → max_tokens, failed and error events, a cut stream, a whole JSON reply; the fallback rules that lead
// to it and away from a list's refused claim; reasoning effort per dialect, and a gateway that rejects it.
import * as assert from 'node:assert/strict';
import { adviseOnError, createGatewayClient, type DialectKnowledge } from '../../../src/gateway';
import { json, startServer, writeChunked, type TestServer } from './server';
import { toResponsesRequest } from '../../../src/gateway/dialects/responsesMapping';
import { failure } from '../../support/failure';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Ev = Record<string, unknown> & { type: string };
const sse = (events: Ev[]): Buffer =>
  Buffer.from(
    events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join(''),
  );

const RESPONSE = { id: 'resp_1', object: 'response', model: 'gpt-x', status: 'in_progress', output: [] };
const REASONING = { id: 'rs_1', type: 'reasoning', summary: [] };
const CALL = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '' };
const MSG = { id: 'msg_1', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
const USAGE = {
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 40 },
  output_tokens: 30,
  output_tokens_details: { reasoning_tokens: 12 },
  total_tokens: 130,
};

const FULL: Ev[] = [
  { type: 'response.created', response: RESPONSE },
  { type: 'response.output_item.added', output_index: 0, item: REASONING },
  {
    type: 'response.reasoning_summary_text.delta',
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    delta: 'Think ',
  },
  {
    type: 'response.reasoning_summary_text.delta',
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    delta: 'first.',
  },
  { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 1, delta: 'Then.' },
  {
    type: 'response.output_item.done',
    output_index: 0,
    item: { ...REASONING, summary: [{ type: 'summary_text', text: 'Think first.' }], encrypted_content: 'ENC==' },
  },
  { type: 'response.output_item.added', output_index: 1, item: MSG },
  {
    type: 'response.content_part.added',
    item_id: 'msg_1',
    output_index: 1,
    content_index: 0,
    part: { type: 'output_text', annotations: [], text: '' },
  },
  {
    type: 'response.output_text.delta',
    item_id: 'msg_1',
    output_index: 1,
    content_index: 0,
    delta: 'Héllo "',
    logprobs: [],
  },
  {
    type: 'response.output_text.delta',
    item_id: 'msg_1',
    output_index: 1,
    content_index: 0,
    delta: 'wörld 🚀',
    logprobs: [],
  },
  { type: 'response.output_item.added', output_index: 2, item: CALL },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 2, delta: '{"path":' },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 2, delta: '"a.ts"}' },
  { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 2, arguments: '{"path":"a.ts"}' },
  { type: 'response.output_item.done', output_index: 2, item: { ...CALL, arguments: '{"path":"a.ts"}' } },
  { type: 'response.completed', response: { ...RESPONSE, status: 'completed', usage: USAGE } },
];

const REQUEST = {
  model: 'gpt-x',
  max_tokens: 200,
  system: 'Be brief.',
  messages: [{ role: 'user' as const, content: 'Hi' }],
  tools: [{ name: 'read_file', description: 'Reads', input_schema: { type: 'object' } }],
};

function client(url: string, knowledge: DialectKnowledge = { override: 'responses' }, extra = {}) {
  return createGatewayClient({
    baseUrl: url,
    apiKey: 'sk-test',
    maxRetries: 0,
    dialects: { knowledge: () => knowledge, learned: () => undefined },
    ...extra,
  });
}

const serve = (bytes: Buffer, size = 0) =>
  startServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (size > 0) await writeChunked(res, bytes, size);
    else res.end(bytes);
  });

describe('Responses dialect', () => {
  it('sends instructions, input items, function tools, max_output_tokens, store:false and the encrypted reasoning', async () => {
    server = await serve(sse(FULL));
    await client(server.url).streamMessage(REQUEST).finalMessage();
    const seen = server.requests[0];
    assert.equal(seen.url, '/v1/responses');
    assert.equal(seen.headers.authorization, 'Bearer sk-test');
    assert.equal(seen.headers['x-api-key'], undefined);
    const body = JSON.parse(seen.body.toString()) as Record<string, unknown>;
    assert.deepEqual(body, {
      model: 'gpt-x',
      input: [{ type: 'message', role: 'user', content: 'Hi' }],
      max_output_tokens: 200,
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      instructions: 'Be brief.',
      tools: [
        { type: 'function', name: 'read_file', description: 'Reads', parameters: { type: 'object' }, strict: false },
      ],
    });
  });

  for (const size of [0, 1, 7, 64])
    it(`assembles reasoning, text and a function call with usage (chunks of ${size || 'all'} bytes)`, async () => {
      server = await serve(sse(FULL), size);
      const m = await client(server.url).streamMessage(REQUEST).finalMessage();
      assert.deepEqual(m.content, [
        { type: 'thinking', thinking: 'Think first.\n\nThen.', signature: 'ENC==' },
        { type: 'text', text: 'Héllo "wörld 🚀' },
        { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.ts' } },
      ]);
      assert.equal(m.stop_reason, 'tool_use');
      assert.equal(m.id, 'resp_1');
      assert.deepEqual(m.usage, { input_tokens: 60, output_tokens: 30, cache_read_input_tokens: 40 });
    });

  it('the iterator yields thinking and text deltas as Messages events', async () => {
    server = await serve(sse(FULL));
    const kinds: string[] = [];
    for await (const ev of client(server.url).streamMessage(REQUEST)) {
      const d = ev.delta as { type?: string } | undefined;
      if (ev.type === 'content_block_delta' && d?.type) kinds.push(d.type);
    }
    assert.deepEqual([...new Set(kinds)], ['thinking_delta', 'signature_delta', 'text_delta', 'input_json_delta']);
  });

  it('response.incomplete (max_output_tokens) → stop_reason max_tokens, the partial text kept', async () => {
    server = await serve(
      sse([
        ...FULL.slice(0, 1),
        ...FULL.slice(6, 9),
        {
          type: 'response.incomplete',
          response: {
            ...RESPONSE,
            status: 'incomplete',
            incomplete_details: { reason: 'max_output_tokens' },
            usage: USAGE,
          },
        },
      ]),
    );
    const m = await client(server.url).streamMessage(REQUEST).finalMessage();
    assert.equal(m.stop_reason, 'max_tokens');
    assert.deepEqual(m.content, [{ type: 'text', text: 'Héllo "' }]);
  });

  it('response.failed and an error event are errors with the server code and message; a cut stream is a cut', async () => {
    server = await serve(
      sse([
        ...FULL.slice(0, 1),
        {
          type: 'response.failed',
          response: { ...RESPONSE, status: 'failed', error: { code: 'server_error', message: 'upstream broke' } },
        },
      ]),
    );
    let e = await failure(client(server.url).streamMessage(REQUEST).finalMessage());
    assert.equal(e.serverCode, 'server_error');
    assert.match(e.message, /upstream broke/);
    await server.close();
    server = await serve(
      sse([...FULL.slice(0, 1), { type: 'error', code: 'rate_limit_exceeded', message: 'slow down' }]),
    );
    e = await failure(client(server.url).streamMessage(REQUEST).finalMessage());
    assert.equal(e.serverCode, 'rate_limit_exceeded');
    assert.match(e.message, /slow down/);
    await server.close();
    server = await serve(sse(FULL.slice(0, 10)));
    e = await failure(client(server.url).streamMessage(REQUEST).finalMessage());
    assert.ok(e.cut, 'a cut answer');
    assert.match(e.message, /response\.completed/);
    assert.deepEqual(e.partial?.content[1], { type: 'text', text: 'Héllo "wörld 🚀' });
  });

  it('a whole JSON response (createMessage, and a gateway ignoring stream: true)', async () => {
    const body = {
      ...RESPONSE,
      status: 'completed',
      output: [
        { ...REASONING, summary: [{ type: 'summary_text', text: 'S' }], encrypted_content: 'E' },
        { ...MSG, content: [{ type: 'output_text', text: 'Done.', annotations: [] }] },
        { ...CALL, arguments: '{"path":"b"}' },
      ],
      usage: USAGE,
    };
    server = await startServer((_req, res) => json(res, 200, body));
    const expected = [
      { type: 'thinking', thinking: 'S', signature: 'E' },
      { type: 'text', text: 'Done.' },
      { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'b' } },
    ];
    const whole = await client(server.url).createMessage(REQUEST);
    assert.deepEqual(whole.content, expected);
    assert.equal(JSON.parse(server.requests[0].body.toString()).stream, false);
    const streamed = await client(server.url).streamMessage(REQUEST).finalMessage();
    assert.deepEqual(streamed.content, expected);
  });

  it('input items: tool results, images as data URLs, and the reasoning of the current turn only', async () => {
    server = await serve(sse(FULL));
    const thinking = { type: 'thinking' as const, thinking: 'T', signature: 'ENC' };
    await client(server.url)
      .streamMessage({
        model: 'gpt-x',
        max_tokens: 50,
        messages: [
          { role: 'user', content: 'old question' },
          { role: 'assistant', content: [thinking, { type: 'text', text: 'old answer' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
            ],
          },
          {
            role: 'assistant',
            content: [thinking, { type: 'tool_use', id: 'c1', name: 'read_file', input: { p: 1 } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'file text', is_error: true }] },
        ],
      })
      .finalMessage();
    const body = JSON.parse(server.requests[0].body.toString()) as { input: unknown[] };
    assert.deepEqual(body.input, [
      { type: 'message', role: 'user', content: 'old question' },
      { type: 'message', role: 'assistant', content: 'old answer' },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAA', detail: 'auto' },
        ],
      },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'T' }], encrypted_content: 'ENC' },
      { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"p":1}' },
      { type: 'function_call_output', call_id: 'c1', output: 'Error: file text' },
    ]);
  });
});

describe('dialect fallbacks into and out of a claim', () => {
  it('chat-completions answered "only supported in v1/responses": the same request once on Responses, learned', async () => {
    server = await startServer(async (req, res) => {
      if (req.url === '/v1/chat/completions')
        return json(res, 404, {
          error: {
            message: 'This model is only supported in v1/responses and not in v1/chat/completions.',
            type: 'invalid_request_error',
            code: 'model_not_found',
          },
        });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(FULL));
    });
    const learned: string[] = [];
    const c = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      maxRetries: 0,
      dialects: {
        knowledge: () => ({ endpointTypes: ['openai', 'openai-response'] }),
        learned: (model, d, evidence) => learned.push(`${model}:${evidence.from}→${d}`),
      },
    });
    const m = await c.streamMessage(REQUEST).finalMessage();
    assert.equal(m.stop_reason, 'tool_use');
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/v1/chat/completions', '/v1/responses'],
    );
    assert.deepEqual(learned, ['gpt-x:chat-completions→responses']);
  });

  it("the list says Messages and the route is refused before processing: once on the list's next dialect", async () => {
    server = await startServer(async (req, res) => {
      if (req.url === '/v1/messages')
        return json(res, 500, {
          type: 'error',
          error: { type: 'new_api_error', message: 'not implemented: no conversion' },
        });
      json(res, 200, {
        id: 'c',
        object: 'chat.completion',
        model: 'gpt-x',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      });
    });
    const learned: string[] = [];
    const c = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      maxRetries: 0,
      dialects: {
        knowledge: () => ({ endpointTypes: ['anthropic', 'openai'] }),
        learned: (model, d) => learned.push(`${model}:${d}`),
      },
    });
    const m = await c.createMessage(REQUEST);
    assert.deepEqual(m.content, [{ type: 'text', text: 'ok' }]);
    assert.deepEqual(learned, ['gpt-x:chat-completions']);
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/v1/messages', '/v1/chat/completions'],
    );
  });
});

describe('reasoning effort per model', () => {
  const bodies = async (dialect: 'messages' | 'chat-completions' | 'responses', effort: string) => {
    server = await startServer((_req, res) => json(res, 400, { error: { message: 'nope' } }));
    await client(server.url, { override: dialect }, { reasoning: () => effort })
      .createMessage({ ...REQUEST, max_tokens: 8000, temperature: 0.5 })
      .catch(() => undefined);
    const body = JSON.parse(server.requests[0].body.toString()) as Record<string, unknown>;
    await server.close();
    server = undefined;
    return body;
  };

  it('chat-completions reasoning_effort, Responses reasoning.effort, Messages thinking.budget_tokens; off sends none', async () => {
    assert.equal((await bodies('chat-completions', 'high')).reasoning_effort, 'high');
    assert.deepEqual((await bodies('responses', 'low')).reasoning, { effort: 'low', summary: 'auto' });
    const messages = await bodies('messages', 'medium');
    assert.deepEqual(messages.thinking, { type: 'enabled', budget_tokens: 4000 });
    assert.equal(messages.temperature, undefined);
    assert.equal((await bodies('chat-completions', 'off')).reasoning_effort, undefined);
    assert.equal((await bodies('responses', 'off')).reasoning, undefined);
  });

  it('a gateway that rejects the parameter gets one sentence naming the setting, and no retry', async () => {
    server = await startServer((_req, res) =>
      json(res, 400, {
        error: { message: 'Unrecognized request argument supplied: reasoning_effort', type: 'invalid_request_error' },
      }),
    );
    const e = await failure(
      client(server.url, { override: 'chat-completions' }, { reasoning: () => 'high' }).createMessage(REQUEST),
    );
    assert.match(e.message, /modelGateway\.models\.reasoning/);
    assert.match(adviseOnError(e, { surface: 'chat' }).detail, /modelGateway\.models\.reasoning/);
    assert.equal(server.requests.length, 1);
  });
});

describe('Responses request mapping of images', () => {
  it("a tool result's image follows its function_call_output as an input_image data URL in a user message", () => {
    const image = {
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/jpeg' as const, data: 'BBB' },
    };
    const body = toResponsesRequest(
      {
        model: 'gpt-x',
        max_tokens: 50,
        messages: [
          { role: 'user', content: 'read it' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read_file', input: {} }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'shot.jpg' }, image] }],
          },
        ],
      },
      false,
    );
    assert.deepEqual((body.input as unknown[]).slice(2), [
      { type: 'function_call_output', call_id: 'c1', output: 'shot.jpg' },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_image', image_url: 'data:image/jpeg;base64,BBB', detail: 'auto' }],
      },
    ]);
  });
});
