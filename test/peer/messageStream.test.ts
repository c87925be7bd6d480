// Peer: the SDK's MessageStream / BetaMessageStream cases (tests/api-resources/MessageStream.test.ts,
// BetaMessageStream.test.ts) as bytes over 127.0.0.1, through our client and, for the differential
// cases, through the real SDK on the same bytes. Deliberate differences are asserted and explained.
import * as assert from 'node:assert/strict';
import { createGatewayClient, isGatewayError } from '../../src/gateway';
import {
  chunkings,
  fixture,
  peerServer,
  plain,
  replay,
  REQUEST,
  sseOf,
  viaGateway,
  viaSdk,
  type PeerServer,
} from './support';

let server: PeerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Facts from the SDK's test suite (expected values of its fixtures).
const EXPECTED_BASIC_MESSAGE = {
  id: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK',
  model: 'claude-opus-4-8',
  role: 'assistant',
  stop_reason: 'end_turn',
  stop_sequence: null,
  type: 'message',
  content: [{ type: 'text', text: 'Hello there!' }],
  usage: { input_tokens: 11, output_tokens: 6 },
};
const EXPECTED_BASIC_EVENT_TYPES = [
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_delta',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
];
const EXPECTED_TOOL_USE_MESSAGE = {
  id: 'msg_019Q1hrJbZG26Fb9BQhrkHEr',
  model: 'claude-opus-4-8',
  role: 'assistant',
  stop_reason: 'tool_use',
  stop_sequence: null,
  type: 'message',
  content: [
    { type: 'text', text: "I'll check the current weather in Paris for you." },
    { type: 'tool_use', id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', input: { location: 'Paris' } },
  ],
  usage: {
    input_tokens: 377,
    output_tokens: 65,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    service_tier: 'standard',
  },
};
const EXPECTED_TOOL_USE_EVENT_TYPES = [
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_delta',
  'content_block_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_delta',
  'content_block_delta',
  'content_block_delta',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
];

describe('peer (SDK MessageStream): recorded fixtures, every chunking, same result as the SDK', () => {
  for (const [name, expected, types] of [
    ['basic_response.sse', EXPECTED_BASIC_MESSAGE, EXPECTED_BASIC_EVENT_TYPES],
    ['tool_use_response.sse', EXPECTED_TOOL_USE_MESSAGE, EXPECTED_TOOL_USE_EVENT_TYPES],
  ] as const) {
    for (const { label, chunks } of chunkings(fixture(name))) {
      it(`${name}, ${label}: the SDK's expected events and message, deep-equal to the SDK's own result`, async () => {
        server = await replay(chunks);
        const ours = await viaGateway(server.url);
        const sdk = await viaSdk(server.url);
        assert.equal(ours.error, undefined, String(ours.error));
        // ping is not an assembled event for either client.
        assert.deepEqual(ours.events, types);
        assert.deepEqual(sdk.events, types);
        assert.deepEqual(plain(ours.message), expected);
        assert.deepEqual(plain(ours.message), plain(sdk.message));
      });
    }
  }

  it('exposes the request id from the response headers (the SDK: request_id)', async () => {
    server = await replay([fixture('basic_response.sse')], {
      headers: { 'request-id': 'req_xxx', 'anthropic-workspace-id': 'wrkspc_xxx' },
    });
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(REQUEST);
    await stream.finalMessage();
    assert.equal(stream.requestId, 'req_xxx');
    // Deliberate: workspace_id is not exposed; support only ever needs the five fields (docs/gateway-protocol.md#support-facts).
  });
});

describe('peer (SDK MessageStream): break, network errors', () => {
  it('aborts on break: leaving the loop at "He" (rest not sent yet) rejects finalMessage as aborted, partial kept', async () => {
    const bytes = fixture('basic_response.sse');
    const cut = bytes.indexOf('"Hello"}}\n\n') + '"Hello"}}\n\n'.length;
    server = await replay([bytes.subarray(0, cut)], { ending: 'hold' });
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(REQUEST);
    for await (const event of stream) {
      const delta = event.delta as { type?: string; text?: string } | undefined;
      if (event.type === 'content_block_delta' && delta?.type === 'text_delta' && delta.text?.includes('He')) break;
    }
    await assert.rejects(stream.finalMessage(), (e: unknown) => isGatewayError(e) && e.kind === 'aborted');
    assert.deepEqual(stream.currentMessage()?.content, [{ type: 'text', text: 'Hello' }]);
  });

  it('break after the whole answer already arrived: finalMessage still resolves (deliberate difference)', async () => {
    // The SDK reads the body only as the loop pulls, so a break always aborts. We read the body as it
    // comes: when message_stop is already in, there is nothing left to cancel or bill, and the complete
    // answer is kept rather than thrown away.
    server = await replay([fixture('basic_response.sse')], { ending: 'hold' });
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(REQUEST);
    await stream.finalMessage();
    for await (const _event of stream) break;
    assert.deepEqual(plain((await stream.finalMessage()).content), EXPECTED_BASIC_MESSAGE.content);
  });

  for (const via of ['finalMessage', 'the async iterator'] as const) {
    it(`handles network errors on ${via}: a typed network error (the SDK: APIConnectionError)`, async () => {
      const refused = await peerServer(() => undefined);
      const url = refused.url;
      await refused.close();
      const stream = createGatewayClient({ baseUrl: url, apiKey: 'k', maxRetries: 0 }).streamMessage(REQUEST);
      const run =
        via === 'finalMessage'
          ? stream.finalMessage()
          : (async () => {
              for await (const _event of stream) break;
            })();
      await assert.rejects(
        run,
        (e: unknown) => isGatewayError(e) && e.kind === 'network' && e.outcomeUnknown === false && e.cut === undefined,
      );
    });
  }
});

describe('peer (SDK MessageStream): message_delta fields', () => {
  const start = (usage: object, extra: object = {}) => ({
    type: 'message_start',
    message: {
      id: 'msg_delta_01',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-opus-4-8',
      stop_reason: null,
      stop_sequence: null,
      container: null,
      ...extra,
      usage,
    },
  });
  const text = (t: string) => [
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } },
    { type: 'content_block_stop', index: 0 },
  ];
  const START_USAGE = {
    input_tokens: 10,
    output_tokens: 1,
    cache_creation_input_tokens: 2,
    cache_read_input_tokens: 3,
    cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 },
    service_tier: 'standard',
  };

  async function both(events: object[]): Promise<{ ours: Record<string, unknown>; sdk: Record<string, unknown> }> {
    server = await replay(chunkings(sseOf(events))[6].chunks);
    const ours = await viaGateway(server.url);
    const sdk = await viaSdk(server.url);
    assert.equal(ours.error, undefined, String(ours.error));
    assert.equal(sdk.error, undefined, String(sdk.error));
    return { ours: plain(ours.message) as Record<string, unknown>, sdk: plain(sdk.message) as Record<string, unknown> };
  }

  it('applies every message_delta field onto the accumulated message (container, usage counters), as the SDK does', async () => {
    const { ours, sdk } = await both([
      start(START_USAGE),
      ...text('Done.'),
      {
        type: 'message_delta',
        delta: {
          stop_reason: 'end_turn',
          stop_sequence: null,
          stop_details: null,
          container: { id: 'container_01', expires_at: '2026-01-01T00:00:00Z' },
        },
        usage: {
          input_tokens: 42,
          output_tokens: 99,
          cache_creation_input_tokens: 7,
          cache_read_input_tokens: 8,
          server_tool_use: { web_search_requests: 1, web_fetch_requests: 2 },
          output_tokens_details: { thinking_tokens: 30 },
        },
      },
      { type: 'message_stop' },
    ]);
    assert.deepEqual(ours.container, { id: 'container_01', expires_at: '2026-01-01T00:00:00Z' });
    assert.deepEqual(ours.usage, {
      input_tokens: 42,
      output_tokens: 99,
      cache_creation_input_tokens: 7,
      cache_read_input_tokens: 8,
      server_tool_use: { web_search_requests: 1, web_fetch_requests: 2 },
      output_tokens_details: { thinking_tokens: 30 },
      cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 0 },
      service_tier: 'standard',
    });
    assert.deepEqual(ours, sdk);
  });

  it('keeps message_start usage when message_delta omits the optional keys; container stays null', async () => {
    const { ours, sdk } = await both([
      start(START_USAGE),
      ...text('Hi.'),
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } },
      { type: 'message_stop' },
    ]);
    assert.deepEqual(ours.usage, { ...START_USAGE, output_tokens: 12 });
    assert.equal(ours.container, null);
    assert.deepEqual(ours, sdk);
  });

  it('carries stop_details (refusal) from message_delta into the final message', async () => {
    const details = { type: 'refusal', category: 'cyber', explanation: 'Declined by a streaming policy classifier.' };
    const { ours, sdk } = await both([
      start({ input_tokens: 15, output_tokens: 1 }),
      ...text('I cannot help'),
      {
        type: 'message_delta',
        delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: details },
        usage: { output_tokens: 8 },
      },
      { type: 'message_stop' },
    ]);
    assert.equal(ours.stop_reason, 'refusal');
    assert.deepEqual(ours.stop_details, details);
    assert.deepEqual(ours, sdk);
  });

  it('carries usage fields it does not know (fallback_credit) from message_delta', async () => {
    const { ours } = await both([
      start({ input_tokens: 12, output_tokens: 1 }),
      ...text('Hello again!'),
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 7, fallback_credit: { status: { type: 'redeemed' } } },
      },
      { type: 'message_stop' },
    ]);
    assert.equal((ours.usage as { output_tokens: number }).output_tokens, 7);
    // The non-beta SDK copies only the usage counters it knows; we keep every field (BetaMessageStream does too).
    assert.deepEqual((ours.usage as Record<string, unknown>).fallback_credit, { status: { type: 'redeemed' } });
  });

  it('applies context_management (event level) and keeps container/context_management when a later message_delta omits or nulls them', async () => {
    const cm = {
      applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_input_tokens: 100, cleared_tool_uses: 2 }],
    };
    const container = { id: 'container_01', expires_at: '2026-01-01T00:00:00Z', skills: null };
    server = await replay([
      sseOf([
        start(START_USAGE, { context_management: null }),
        ...text('Done.'),
        {
          type: 'message_delta',
          context_management: cm,
          delta: { stop_reason: 'pause_turn', stop_sequence: null, container },
          usage: { output_tokens: 5 },
        },
        {
          type: 'message_delta',
          context_management: null,
          delta: { stop_reason: 'end_turn', stop_sequence: null, container: null },
          usage: { output_tokens: 9 },
        },
        { type: 'message_stop' },
      ]),
    ]);
    const ours = plain((await viaGateway(server.url)).message) as Record<string, unknown>;
    assert.deepEqual(ours.context_management, cm);
    assert.deepEqual(ours.container, container);
    assert.equal(ours.stop_reason, 'end_turn');
  });
});

describe('peer (SDK BetaMessageStream): tool input JSON', () => {
  const toolEvents = (fragments: string[], stop = true) => [
    {
      type: 'message_start',
      message: {
        type: 'message',
        id: 'msg_test',
        role: 'assistant',
        content: [],
        model: 'claude-opus-4-8',
        stop_reason: null,
        stop_sequence: null,
        usage: { output_tokens: 0, input_tokens: 10 },
      },
    },
    {
      type: 'content_block_start',
      content_block: { type: 'tool_use', id: 'toolu_test', name: 'test_tool', input: {} },
      index: 0,
    },
    ...fragments.map((partial_json) => ({
      type: 'content_block_delta',
      delta: { type: 'input_json_delta', partial_json },
      index: 0,
    })),
    ...(stop ? [{ type: 'content_block_stop', index: 0 }] : []),
    { type: 'message_delta', usage: { output_tokens: 5 }, delta: { stop_reason: 'end_turn', stop_sequence: null } },
    { type: 'message_stop' },
  ];

  it('partial JSON parsing errors in input_json_delta: an error naming the raw JSON (the SDK: "Unable to parse tool parameter JSON")', async () => {
    const fragments = ['{"foo": "bar", "baz": ', '"qux": "quux"}', 'invalid malformed json with syntax errors}'];
    server = await replay(chunkings(sseOf(toolEvents(fragments)))[4].chunks);
    const ours = await viaGateway(server.url);
    assert.equal(ours.error?.kind, 'protocol');
    assert.equal(ours.error?.toolInputProblems?.[0].raw, fragments.join(''));
    assert.ok(ours.error?.toolInputProblems?.[0].raw.includes('{"foo": "bar", "baz": "qux": "quux"}'));
    assert.equal(ours.error?.toolInputProblems?.[0].name, 'test_tool');
  });

  it('incomplete partial JSON (cut by max_tokens) is an error with the raw text; the SDK returns a partially parsed input (deliberate difference)', async () => {
    server = await replay(chunkings(fixture('incomplete_partial_json_response.sse'))[5].chunks);
    const ours = await viaGateway(server.url);
    const sdk = await viaSdk(server.url);
    // The SDK hands back {filename, lines_of_text: [...]} as if it were the model's whole input. We never
    // hand a caller a tool input that is not the parsed object without saying so (issue 13): running a
    // tool on a silently truncated input (half a file) is worse than a visible error.
    assert.equal(sdk.error, undefined);
    const sdkInput = (sdk.message?.content[1] as { input: Record<string, unknown> }).input;
    assert.equal(sdkInput.filename, 'taxes.txt');
    assert.equal(ours.error?.kind, 'protocol');
    assert.equal(ours.error?.partial?.stop_reason, 'max_tokens');
    assert.match(ours.error?.message ?? '', /max_tokens/);
    assert.match(
      ours.error?.toolInputProblems?.[0].raw ?? '',
      /^\{"filename": "taxes\.txt", "lines_of_text": \[\n"# COMPREHENSIVE TAX GUIDE/,
    );
    // Everything else matches the SDK's message: text, ids, usage, stop reason.
    assert.deepEqual(
      plain({ ...ours.error?.partial, content: ours.error?.partial?.content.slice(0, 1) }),
      plain({ ...sdk.message, content: sdk.message?.content.slice(0, 1) }),
    );
  });

  it('input fragments after content_block_stop (a router interleaving two tool calls): same input as the SDK', async () => {
    const events = [
      {
        type: 'message_start',
        message: {
          type: 'message',
          id: 'msg_i',
          role: 'assistant',
          content: [],
          model: 'm',
          stop_reason: null,
          stop_sequence: null,
          usage: { output_tokens: 1, input_tokens: 10 },
        },
      },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_a', name: 'weather', input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_b', name: 'time', input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"tz":' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"CET"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } },
      { type: 'message_stop' },
    ];
    server = await replay(chunkings(sseOf(events))[5].chunks);
    const ours = await viaGateway(server.url);
    const sdk = await viaSdk(server.url);
    assert.deepEqual((ours.message?.content[0] as { input: unknown }).input, { city: 'Paris' });
    assert.deepEqual(plain(ours.message), plain(sdk.message));
  });
});
