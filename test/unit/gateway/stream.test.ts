import * as assert from 'node:assert/strict';
import { createGatewayClient, type Message, type StreamEvent } from '../../../src/gateway';
import { startServer, writeChunked, type TestServer } from './server';
import { fixture, MESSAGE_REQUEST, sseServer } from './streamHelpers';
import { failure } from '../../support/failure';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function streamFixture(
  name: string,
  o: { eol?: '\n' | '\r\n' | '\r'; chunkSize?: number; ending?: 'end' | 'destroy' } = {},
): Promise<Message> {
  server = await sseServer(fixture(name, o.eol), { chunkSize: o.chunkSize, ending: o.ending });
  const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k-test' });
  return client.streamMessage(MESSAGE_REQUEST).finalMessage();
}

const BASIC_TEXT = 'Héllo, wörld! 日本語 🚀 "quoted"\nnext line — spaced JSON';

describe('gateway stream: recorded SSE fixtures', () => {
  for (const eol of ['\n', '\r\n', '\r'] as const) {
    for (const chunkSize of [1, 3, 7, 65536]) {
      it(`assembles text_basic with ${JSON.stringify(eol)} line endings in ${chunkSize}-byte chunks`, async () => {
        const m = await streamFixture('text_basic.sse', { eol, chunkSize });
        assert.equal(m.content.length, 1);
        assert.deepEqual(m.content[0], { type: 'text', text: BASIC_TEXT });
        assert.equal(m.stop_reason, 'end_turn');
        assert.deepEqual(m.usage, { input_tokens: 25, output_tokens: 15 });
        assert.equal(m.id, 'msg_01');
      });
    }
  }

  it('dispatches events without an event: line on their JSON type (pings ignored)', async () => {
    const m = await streamFixture('no_event_lines.sse', { chunkSize: 5 });
    assert.deepEqual(m.content, [{ type: 'text', text: 'no event lines, still fine' }]);
    assert.equal(m.stop_reason, 'max_tokens');
  });

  it('assembles thinking + signature, redacted thinking, citations and tool input parsed at block stop', async () => {
    const m = await streamFixture('thinking_tool_citations.sse', { chunkSize: 2 });
    assert.deepEqual(m.content[0], {
      type: 'thinking',
      thinking: 'Let me think step by step.',
      signature: 'EqQBCgIYAhIM',
    });
    assert.deepEqual(m.content[1], { type: 'redacted_thinking', data: 'opaque-blob' });
    assert.equal((m.content[2] as { text: string }).text, 'The answer, with a source.');
    assert.equal((m.content[2] as { citations: unknown[] }).citations.length, 1);
    assert.deepEqual(m.content[3], {
      type: 'tool_use',
      id: 'toolu_01',
      name: 'get_weather',
      input: { location: 'San Francisco, CA', unit: '°C' },
    });
    assert.equal(m.stop_reason, 'tool_use');
    assert.equal(m.usage.cache_read_input_tokens, 10);
  });

  it('overwrites cumulative usage (never adds), ignores unknown events, deltas and [DONE], keeps unknown blocks', async () => {
    const m = await streamFixture('usage_and_unknown.sse');
    assert.deepEqual(m.usage, { input_tokens: 100, output_tokens: 30, cache_creation_input_tokens: 5 });
    assert.deepEqual(m.content, [
      { type: 'text', text: 'abc' },
      { type: 'hologram', payload: { kept: true } },
    ]);
  });

  it('rejects on a mid-stream error event with a typed error and keeps the partial message', async () => {
    const error = await failure(streamFixture('mid_stream_error.sse', { chunkSize: 4 }));
    assert.equal(error.kind, 'server');
    assert.equal(error.serverCode, 'overloaded_error');
    assert.equal(error.serverMessage, 'Overloaded');
    assert.equal(error.requestId, 'req_sse_1');
    assert.deepEqual(error.partial?.content, [{ type: 'text', text: 'Partial answer before' }]);
  });

  it('rejects on an error without an event: line too (rate_limit_error → rate_limited)', async () => {
    const error = await failure(streamFixture('mid_stream_error_no_event.sse'));
    assert.equal(error.kind, 'rate_limited');
    assert.deepEqual(error.partial?.content, [{ type: 'text', text: 'Partial' }]);
  });

  it('a stream that ends cleanly before message_stop rejects as protocol, outcome unknown, partial kept', async () => {
    const error = await failure(streamFixture('cut_off.sse', { chunkSize: 3 }));
    assert.equal(error.kind, 'protocol');
    assert.equal(error.outcomeUnknown, true);
    assert.equal(
      error.partial?.content[0] && (error.partial.content[0] as { text: string }).text,
      'This answer is cut off',
    );
  });

  it('a dropped connection mid-stream rejects as network, outcome unknown, partial kept', async () => {
    const error = await failure(streamFixture('cut_off.sse', { ending: 'destroy' }));
    assert.equal(error.kind, 'network');
    assert.equal(error.outcomeUnknown, true);
    assert.match((error.partial?.content[0] as { text: string }).text, /^This answer is cut/);
  });
});

describe('gateway stream: iteration, snapshots, abort', () => {
  it('iterates every assembled event once, in order, and finalMessage still resolves', async () => {
    server = await sseServer(fixture('text_basic.sse'), { chunkSize: 11 });
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST);
    const types: string[] = [];
    for await (const ev of stream) types.push(ev.type);
    assert.deepEqual(types, [
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    assert.equal(((await stream.finalMessage()).content[0] as { text: string }).text, BASIC_TEXT);
    assert.equal(stream.requestId, 'req_sse_1');
  });

  it('the iterator throws the GatewayError after delivering the events that arrived', async () => {
    server = await sseServer(fixture('mid_stream_error.sse'));
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST);
    const seen: StreamEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const ev of stream) seen.push(ev);
      })(),
    );
    assert.equal(error.kind, 'server');
    assert.deepEqual(
      seen.slice(-2).map((e) => e.type),
      ['content_block_delta', 'error'],
    );
  });

  it('abort() closes the socket at once (the server sees the close) and rejects with aborted + partial', async () => {
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((r) => (release = r));
    server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunked(res, fixture('cut_off.sse'), 65536, false);
      await stalled; // never ends by itself
    });
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST);
    const events = stream[Symbol.asyncIterator]();
    while ((await events.next()).value?.type !== 'content_block_delta') {
      /* wait for content */
    }
    const closed = server.nextClose();
    stream.abort();
    await closed;
    const error = await failure(stream.finalMessage());
    assert.equal(error.kind, 'aborted');
    assert.match((error.partial?.content[0] as { text: string }).text, /^This answer/);
    release();
  });

  it('leaving a for-await loop early aborts the stream and closes the socket', async () => {
    server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunked(res, fixture('cut_off.sse'), 65536, false); // then stays open
    });
    const closed = server.nextClose();
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST);
    for await (const ev of stream) if (ev.type === 'content_block_delta') break;
    await closed;
    assert.equal((await failure(stream.finalMessage())).kind, 'aborted');
  });

  it('abort() via an AbortSignal before the headers arrive closes the socket too', async () => {
    server = await startServer(() => undefined); // never answers
    const controller = new AbortController();
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST, {
      signal: controller.signal,
    });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const closed = server.nextClose();
    controller.abort();
    await closed;
    assert.equal((await failure(stream.finalMessage())).kind, 'aborted');
  });

  it('currentMessage() gives snapshots while streaming; a JSON reply to stream:true is accepted', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'm',
          type: 'message',
          role: 'assistant',
          model: 'x',
          content: [{ type: 'text', text: 'whole' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
    });
    const stream = createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST);
    assert.equal(stream.currentMessage(), undefined);
    assert.deepEqual((await stream.finalMessage()).content, [{ type: 'text', text: 'whole' }]);
  });

  it('a 200 web page instead of an event stream is a protocol error with a known outcome', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><title>Sign in</title></html>');
    });
    const error = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST).finalMessage(),
    );
    assert.equal(error.kind, 'protocol');
    assert.equal(error.outcomeUnknown, false);
    assert.equal(error.status, 200);
  });

  it('sends stream: true with the Messages headers and an event-stream accept', async () => {
    server = await sseServer(fixture('text_basic.sse'));
    await createGatewayClient({ baseUrl: server.url, apiKey: 'k-stream' })
      .streamMessage(MESSAGE_REQUEST)
      .finalMessage();
    const seen = server.requests[0];
    assert.equal(JSON.parse(seen.body.toString()).stream, true);
    assert.equal(seen.headers['x-api-key'], 'k-stream');
    assert.equal(seen.headers['authorization'], undefined);
    assert.equal(seen.headers['accept'], 'text/event-stream');
  });
});
