// The chat-completions dialect of the client (docs/gateway-protocol.md#chat-completions) over real sockets:
// a small local server for exact bytes, the emulator's one-api and new-api dialects for the fallback.
import * as assert from 'node:assert/strict';
import type * as http from 'node:http';
import { createGatewayClient, type DialectSource } from '../../../src/gateway';
import { defaultConfig, startEmulator } from '../../../src/emulator';
import { json, startServer, type TestServer } from './server';
import { failure } from '../../support/failure';

type Emu = Awaited<ReturnType<typeof startEmulator>>;

const sse = (chunks: unknown[], done = true): string =>
  chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-x',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usageChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-x',
  choices: [],
  usage: { prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 60 } },
};
const chatOnly: DialectSource = { knowledge: () => ({ override: 'chat-completions' }), learned: () => undefined };

function streamOf(body: string): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  };
}

describe('chat-completions dialect', function () {
  this.timeout(20_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('streams text, reasoning and interleaved tool_calls into one Messages-shaped message, usage mapped', async () => {
    server = await startServer(
      streamOf(
        sse([
          chunk({ role: 'assistant', content: '' }),
          chunk({ reasoning_content: 'Let me think. ' }),
          chunk({ content: 'I will read ' }),
          chunk({ content: 'two files.' }),
          chunk({
            tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '' } }],
          }),
          chunk({
            tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'list', arguments: '{"p' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.ts"' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: '":"src"}' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '}' } }] }),
          chunk({}, 'tool_calls'),
          usageChunk,
        ]),
      ),
    );
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-test', dialects: chatOnly });
    const events: string[] = [];
    const stream = client.streamMessage({
      model: 'gpt-x',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] }],
      tools: [{ name: 'read', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
    });
    for await (const ev of stream) events.push(ev.type);
    const m = await stream.finalMessage();
    assert.deepEqual(m.content, [
      { type: 'thinking', thinking: 'Let me think. ' },
      { type: 'text', text: 'I will read two files.' },
      { type: 'tool_use', id: 'call_a', name: 'read', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'call_b', name: 'list', input: { p: 'src' } },
    ]);
    assert.equal(m.stop_reason, 'tool_use');
    assert.equal(m.id, 'chatcmpl-1');
    assert.deepEqual(m.usage, { input_tokens: 40, output_tokens: 7, cache_read_input_tokens: 60 });
    assert.ok(events.includes('content_block_delta') && events.at(-1) === 'message_stop', events.join());
    const seen = server.requests[0];
    assert.equal(seen.url, '/v1/chat/completions');
    assert.equal(seen.headers.authorization, 'Bearer sk-test');
    assert.equal(seen.headers['x-api-key'], undefined);
    const body = JSON.parse(seen.body.toString()) as Record<string, unknown>;
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.stream, true);
    assert.ok(!seen.body.toString().includes('cache_control'), 'no cache_control over chat-completions');
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    assert.deepEqual(body.tools, [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }]);
  });

  it('maps tool_use / tool_result to assistant tool_calls and role:"tool" messages, images as data URLs', async () => {
    server = await startServer(streamOf(sse([chunk({ content: 'ok' }, 'stop')])));
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-test', dialects: chatOnly });
    await client
      .streamMessage({
        model: 'gpt-x',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'read it' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Reading.' },
              { type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'file body' }] },
              { type: 'text', text: 'and this' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
            ],
          },
        ],
        tool_choice: { type: 'any' },
        tools: [{ name: 'read', input_schema: { type: 'object' } }],
      })
      .finalMessage();
    const body = JSON.parse(server.requests[0].body.toString()) as Record<string, unknown>;
    assert.deepEqual(body.messages, [
      { role: 'user', content: 'read it' },
      {
        role: 'assistant',
        content: 'Reading.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'file body' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'and this' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
    ]);
    assert.equal(body.tool_choice, 'required');
  });

  it('a stream whose [DONE] comes without a finish_reason is cut, not whole', async () => {
    server = await startServer(streamOf(sse([chunk({ content: 'half an ans' })])));
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-test', dialects: chatOnly });
    const e = await failure(
      client
        .streamMessage({ model: 'gpt-x', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] })
        .finalMessage(),
    );
    assert.equal(e.kind, 'protocol');
    assert.equal(e.cut?.how, 'ended');
    assert.equal(e.outcomeUnknown, true);
    assert.equal(e.route, 'POST /v1/chat/completions');
    assert.deepEqual(e.partial?.content, [{ type: 'text', text: 'half an ans' }]);
  });

  it('an error chunk mid-stream fails with the gateway message; length maps to max_tokens', async () => {
    server = await startServer(
      streamOf(sse([chunk({ content: 'a' }), { error: { message: 'upstream read failed', type: 'one_api_error' } }])),
    );
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-test', dialects: chatOnly });
    const e = await failure(
      client
        .streamMessage({ model: 'gpt-x', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] })
        .finalMessage(),
    );
    assert.equal(e.serverMessage, 'upstream read failed');
    assert.equal(e.serverCode, 'one_api_error');
    await server.close();
    server = await startServer(streamOf(sse([chunk({ content: 'abc' }, 'length')], false)));
    const c2 = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-test', dialects: chatOnly });
    const m = await c2
      .streamMessage({ model: 'gpt-x', max_tokens: 1, messages: [{ role: 'user', content: 'q' }] })
      .finalMessage();
    assert.equal(m.stop_reason, 'max_tokens', 'a finish_reason then the end of the body is a whole answer');
  });

  it('createMessage over chat-completions maps a whole completion', async () => {
    server = await startServer((_req, res) =>
      json(res, 200, {
        id: 'c1',
        model: 'gpt-x',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Hello',
              tool_calls: [{ id: 't1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
            },
            finish_reason: 'content_filter',
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 2 },
      }),
    );
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-test', dialects: chatOnly });
    const m = await client.createMessage({
      model: 'gpt-x',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'q' }],
    });
    assert.deepEqual(m.content, [
      { type: 'text', text: 'Hello' },
      { type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } },
    ]);
    assert.equal(m.stop_reason, 'refusal');
    assert.deepEqual(m.usage, { input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 0 });
    assert.equal(JSON.parse(server.requests[0].body.toString()).stream, false);
  });

  it('stop closes the socket at once', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ content: 'start' }))}\n\n`);
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-test', dialects: chatOnly });
    const stream = client.streamMessage({ model: 'gpt-x', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] });
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const closed = server.nextClose();
    stream.abort();
    await closed;
    assert.equal((await failure(stream.finalMessage())).kind, 'aborted');
  });

  it('a model the list says is Responses-only is called over POST /v1/responses (no longer refused)', async () => {
    server = await startServer((_req, res) => json(res, 500, {}));
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      dialects: {
        knowledge: () => ({ endpointTypes: ['openai-response', 'openai-response-compact'] }),
        learned: () => {},
      },
    });
    const e = await failure(
      client
        .streamMessage({ model: 'codex-x', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] })
        .finalMessage(),
    );
    assert.equal(e.status, 500);
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/v1/responses'],
    );
  });

  it('a 5xx on /v1/messages without refusal evidence is never re-sent on chat-completions', async () => {
    server = await startServer((_req, res) =>
      json(res, 500, { type: 'error', error: { type: 'api_error', message: 'boom' } }),
    );
    let learned = 0;
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'sk-test',
      dialects: { knowledge: () => ({}), learned: () => learned++ },
    });
    const e = await failure(
      client.streamMessage({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'q' }] }).finalMessage(),
    );
    assert.equal(e.status, 500);
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/v1/messages'],
    );
    assert.equal(learned, 0);
  });

  describe('against the emulator', () => {
    let emu: Emu;

    /** A client that knows nothing about dialects yet (every model starts on Messages); its source keeps what it learns. */
    const dialectClient = (key: string, learned: string[]): ReturnType<typeof createGatewayClient> => {
      const kept = new Map<string, 'messages' | 'chat-completions' | 'responses'>();
      return createGatewayClient({
        baseUrl: emu.url,
        apiKey: key,
        dialects: {
          knowledge: (model) => ({ learned: kept.get(model) }),
          learned: (model, d) => {
            kept.set(model, d);
            learned.push(`${model}:${d}`);
          },
        },
      });
    };

    async function withDialect<T>(dialect: string, run: () => Promise<T>): Promise<T> {
      const config = defaultConfig();
      config.dialect = dialect;
      const own = await startEmulator({ config });
      emu = own;
      try {
        return await run();
      } finally {
        await own.close();
      }
    }

    it('one-api (no /v1/messages): the same request once over chat-completions, remembered, one billable request per question', async () => {
      await withDialect('one-api', async () => {
        const learned: string[] = [];
        const client = dialectClient('mg-demo-key-0001', learned);
        const request = {
          model: 'claude-demo-sonnet',
          max_tokens: 200,
          messages: [{ role: 'user' as const, content: 'Hello there' }],
        };
        const m = await client.streamMessage(request).finalMessage();
        assert.ok(m.content.some((b) => b.type === 'text' && (b as { text: string }).text.includes('Hello there')));
        assert.ok(m.usage.output_tokens > 0 && m.usage.input_tokens > 0, JSON.stringify(m.usage));
        await client.streamMessage(request).finalMessage();
        assert.deepEqual(learned, ['claude-demo-sonnet:chat-completions']);
        assert.deepEqual(
          emu.requests().map((r) => `${r.path} ${r.status}`),
          ['/v1/messages 404', '/v1/chat/completions 200', '/v1/chat/completions 200'],
        );
        assert.equal(emu.billableCount(), 2);
        assert.equal(client.dialectFor?.('claude-demo-sonnet').reason, 'learned');
      });
    });

    it('one-api: an agent turn with a tool call goes over tool_calls and its result back as role:"tool"', async () => {
      await withDialect('one-api', async () => {
        const client = dialectClient('mg-demo-key-0001', []);
        const tools = [
          { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        ];
        const first = await client
          .streamMessage({
            model: 'claude-demo-sonnet',
            max_tokens: 400,
            tools,
            messages: [{ role: 'user', content: 'Weather in Paris? [[tool]]' }],
          })
          .finalMessage();
        assert.equal(first.stop_reason, 'tool_use');
        const use = first.content.find((b) => b.type === 'tool_use') as { id: string; name: string; input: unknown };
        assert.equal(use.name, 'get_weather');
        assert.equal(typeof use.input, 'object');
        const second = await client
          .streamMessage({
            model: 'claude-demo-sonnet',
            max_tokens: 400,
            tools,
            messages: [
              { role: 'user', content: 'Weather in Paris? [[tool]]' },
              { role: 'assistant', content: first.content as never },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
            ],
          })
          .finalMessage();
        assert.ok(second.stop_reason);
      });
    });

    it("new-api refusing a model's Messages call with its 500 new_api_error: sent once over chat-completions", async () => {
      await withDialect('new-api', async () => {
        const learned: string[] = [];
        const client = dialectClient('mg-openai-chat-0009', learned);
        const m = await client
          .streamMessage({ model: 'gpt-demo-chat', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
          .finalMessage();
        assert.ok(m.content.length > 0);
        assert.deepEqual(learned, ['gpt-demo-chat:chat-completions']);
        assert.deepEqual(
          emu.requests().map((r) => `${r.path} ${r.status}`),
          ['/v1/messages 500', '/v1/chat/completions 200'],
        );
        // The other model of the same key still speaks Messages.
        await client
          .streamMessage({ model: 'claude-demo-sonnet', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] })
          .finalMessage();
        assert.equal(emu.requests().at(-1)?.path, '/v1/messages');
      });
    });

    it('one-api cut: [DONE] after a dropped upstream read is reported as a cut answer', async () => {
      await withDialect('one-api', async () => {
        emu.setFaults('mg-demo-key-0001', { dropAfterEvents: 3 });
        const client = createGatewayClient({ baseUrl: emu.url, apiKey: 'mg-demo-key-0001', dialects: chatOnly });
        const e = await failure(
          client
            .streamMessage({
              model: 'claude-demo-sonnet',
              max_tokens: 400,
              messages: [{ role: 'user', content: 'Hello' }],
            })
            .finalMessage(),
        );
        assert.equal(e.cut?.how, 'ended');
        assert.equal(emu.billableCount(), 1);
      });
    });

    it('one-api: a 429 with an empty body is a rate_limited error, not a protocol one', async () => {
      await withDialect('one-api', async () => {
        const client = createGatewayClient({
          baseUrl: emu.url,
          apiKey: 'mg-rate-limited-0006',
          dialects: chatOnly,
          maxRetries: 0,
        });
        const ask = (): Promise<unknown> =>
          client.createMessage({
            model: 'claude-demo-sonnet',
            max_tokens: 10,
            messages: [{ role: 'user', content: 'q' }],
          });
        await ask();
        await ask();
        const e = await failure(ask());
        assert.equal(e.kind, 'rate_limited');
        assert.equal(e.status, 429);
      });
    });
  });
});
