// The whole-event runs of plain text deltas (src/gateway/stream/eventFeed.ts, ChunkReader.run) read a stream exactly as
// eventsource-parser plus the per-event paths do: the same events in the same order whatever the chunking (an event
// or a multi-byte character split anywhere), with `\r` line endings arriving mid-stream, a BOM, an event too large;
// and through the client over 127.0.0.1: UTF-8 split in one-byte chunks, a cut stream, [DONE], an error mid-stream.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { createParser } from 'eventsource-parser';
import { createGatewayClient, isGatewayError, type GatewayError, type MessagesRequest } from '../../../src/gateway';
import { EventFeed } from '../../../src/gateway/stream/eventFeed';
import { fromBytes, toBytes } from '../../../src/gateway/stream/byteText';
import { ChatChunkReader, type ChunkReader } from '../../../src/gateway/dialects/chatChunks';
import { MessagesEventReader } from '../../../src/gateway/dialects/messagesEvents';
import { ResponsesEventReader } from '../../../src/gateway/dialects/responsesEvents';
import { startServer, writeChunked, type TestServer } from './server';

type Out = unknown[];
/** How many deltas the last drive() took through the runs. */
let taken = 0;

/**
 * What stream.ts makes of the events: a fast text delta as [block, text], anything else as the reader's events.
 * `runs: false` is the path before eventFeed.ts (the parser reads every event).
 */
function drive(make: () => ChunkReader, pieces: string[], runs: boolean, maxBytes = 1 << 20): Out {
  const reader = make();
  const out: Out = [];
  taken = 0;
  const parser = createParser({
    onEvent: (msg) => {
      const bytes = reader.fastText(msg.data);
      if (bytes !== undefined) return void out.push(['text', reader.fastBlock, fromBytes(bytes)]);
      if (reader.ignores?.(msg.data)) return;
      let chunk: unknown;
      try {
        chunk = JSON.parse(fromBytes(msg.data));
      } catch {
        return void out.push(['not json', fromBytes(msg.data)]);
      }
      out.push(['events', reader.read(chunk, msg.event === undefined ? undefined : fromBytes(msg.event))]);
    },
  });
  const feed = new EventFeed(
    parser,
    runs ? reader : { fastBlock: -1 },
    (block, bytes) => out.push(['text', block, fromBytes(bytes)]) > taken++,
    () => out.push(['too large']),
    maxBytes,
  );
  for (const p of pieces) feed.feed(p);
  feed.end();
  return out;
}

const ev = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const textDelta = (text: string, index = 0): string =>
  ev(`{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}`);

const MESSAGES =
  ev({ type: 'message_start', message: { id: 'm', model: 'x', content: [], usage: { input_tokens: 1 } } }) +
  ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start') +
  `event: content_block_delta\n${textDelta('Héllo 🚀 ').slice(0, -1)}\n` +
  textDelta('日本語 "quoted" \\ back\nline') +
  ': keep-alive comment\n\n' +
  'event: ping\ndata: {"type": "ping"}\n\n' +
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\\u00e9\\ud83d\\ude80 esc"}}\n\n' +
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"bad \\x escape"}}\n\n' +
  'data: {"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"leading zero"}}\n\n' +
  'data:{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"no space"}}\n\n' +
  'id: 7\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"with id"}}\n\n' +
  'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"extra"},"x":1}\n\n' +
  textDelta('to block 3', 3) +
  '\n\n\n' +
  ev({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }) +
  ev({ type: 'message_stop' });

const HEAD = '{"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt/x:1","choices":[{"index":0,"delta":';
const CHAT =
  `data: ${HEAD}{"content":"before the block is open"},"finish_reason":null}]}\n\n` +
  `data: ${HEAD}{"content":"Héllo 🚀 "},"logprobs":null,"finish_reason":null}]}\n\n` +
  `data: ${HEAD}{"content":"日本 \\"q\\" \\u00e9"},"finish_reason":null}],"usage":null}\n\n` +
  `data: {"error":"boom","choices":[{"index":0,"delta":{"content":"an error chunk"},"finish_reason":null}]}\n\n` +
  `data: {"error":null,"choices":[{"index":0,"delta":{"content":"error null"},"finish_reason":null}]}\n\n` +
  ': OPENROUTER PROCESSING\n\n' +
  `data: ${HEAD}{"tool_calls":[{"index":0,"id":"t","function":{"name":"f","arguments":"{}"}}]},"finish_reason":null}]}\n\n` +
  `data: ${HEAD}{"content":"after"},"finish_reason":"stop"}]}\n\n` +
  'data: [DONE]\n\n';

const resp = (seq: number, body: string): string =>
  `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":${seq},"item_id":"msg_1",${body}}\n\n`;
const RESPONSES =
  ev({ type: 'response.created', response: { id: 'r', model: 'x', output: [] } }, 'response.created') +
  ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'message', content: [] } }) +
  ev({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text' } }) +
  resp(3, '"output_index":0,"content_index":0,"delta":"Héllo 🚀 ","logprobs":[],"obfuscation":"a+/=_-Z9"') +
  resp(4, '"output_index":0,"content_index":0,"delta":"日本 \\"q\\" \\\\","logprobs":[]') +
  resp(5, '"output_index":0,"content_index":1,"delta":"to a part never opened"') +
  resp(6, '"output_index":0,"content_index":1,"delta":"then open"') +
  resp(7, '"content_index":0,"output_index":0,"delta":"other order"') +
  resp(8, '"output_index":0,"content_index":0,"delta":"","logprobs":[]') +
  ev({ type: 'response.output_text.done', output_index: 0, content_index: 0, text: 'ignored' }) +
  ev({ type: 'error', code: 'server_error', message: 'mid-stream' }) +
  ev({ type: 'response.completed', response: { status: 'completed', output: [], usage: { output_tokens: 3 } } });

const READERS: [string, () => ChunkReader, string][] = [
  ['Messages', () => new MessagesEventReader(), MESSAGES],
  ['chat-completions', () => new ChatChunkReader(), CHAT],
  ['Responses', () => new ResponsesEventReader(), RESPONSES],
];

/** `bytes` cut at `cuts` (sorted offsets). */
const split = (bytes: string, cuts: number[]): string[] =>
  [0, ...cuts].map((from, i) => bytes.slice(from, i < cuts.length ? cuts[i] : bytes.length));

describe('eventFeed: whole-event runs read a stream as the parser does', () => {
  for (const [name, make, stream] of READERS) {
    const bytes = toBytes(stream);
    const expected = drive(make, [bytes], false);

    it(`${name}: the runs take plain deltas, the rest goes to the parser (same events as without runs)`, () => {
      assert.deepEqual(drive(make, [bytes], true), expected);
      assert.ok(taken >= 2, `${taken} deltas taken by the runs`);
    });

    it(`${name}: split into two pieces at every byte (events and UTF-8 characters cut anywhere)`, () => {
      for (let at = 1; at < bytes.length; at++)
        assert.deepEqual(drive(make, split(bytes, [at]), true), expected, `cut at ${at}`);
    });

    it(`${name}: in pieces of 1 to 9 bytes, and in three pieces`, () => {
      for (let size = 1; size <= 9; size++) {
        const cuts: number[] = [];
        for (let at = size; at < bytes.length; at += size) cuts.push(at);
        assert.deepEqual(drive(make, split(bytes, cuts), true), expected, `pieces of ${size}`);
      }
      for (let a = 7; a < bytes.length; a += 37)
        for (let b = a + 1; b < bytes.length; b += 53)
          assert.deepEqual(drive(make, split(bytes, [a, b]), true), expected, `cuts at ${a}, ${b}`);
    });

    it(`${name}: \\r\\n line endings arriving mid-stream hand the rest to the parser`, () => {
      const half = bytes.indexOf('\n\n', bytes.length >> 1) + 2;
      const crlf = bytes.slice(half).replace(/\n/g, '\r\n');
      const pieces = split(bytes.slice(0, half) + crlf, [half - 5, half + 3]);
      assert.deepEqual(drive(make, pieces, true), drive(make, pieces, false));
      assert.deepEqual(drive(make, [bytes.slice(0, half), crlf], true), expected);
    });

    it(`${name}: a stream without its last blank line, and one with a BOM`, () => {
      const cut = bytes.slice(0, bytes.lastIndexOf('\n\n'));
      assert.deepEqual(drive(make, split(cut, [cut.length - 4]), true), drive(make, [cut], false));
      const bom = '\xef\xbb\xbf' + bytes;
      // A BOM cut in the first piece is not one (as eventsource-parser reads it): the first line is unknown.
      assert.deepEqual(drive(make, split(bom, [1, 2]), true), drive(make, split(bom, [1, 2]), false));
      assert.deepEqual(drive(make, split(bom, [5, 9]), true), expected);
      assert.deepEqual(drive(make, [bom], true), expected);
    });
  }

  it('property: random events of each dialect in random pieces read as without runs (the same pieces)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'é', '日', '🚀', '"', '\\', '\n', '\u0001', ' '),
      maxLength: 12,
    });
    const raw = fc.constantFrom('\\x', '\\u00e9', '\\ud83d', '\\"', '"', '\\');
    const piece = fc.oneof(
      text.map((t) => textDelta(t)),
      fc.tuple(fc.nat(3), text).map(([i, t]) => textDelta(t, i)),
      raw.map(
        (r) => `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a${r}b"}}\n\n`,
      ),
      text.map((t) => `data: ${HEAD}{"content":${JSON.stringify(t)}},"finish_reason":null}]}\n\n`),
      raw.map((r) => `data: ${HEAD}{"content":"a${r}b"},"finish_reason":null}]}\n\n`),
      fc
        .tuple(fc.nat(2), fc.nat(2), text)
        .map(([o, c, t]) => resp(1, `"output_index":${o},"content_index":${c},"delta":${JSON.stringify(t)}`)),
      fc.constantFrom(
        ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        ev({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text' } }),
        `data: ${HEAD}{"content":"x"},"finish_reason":"stop"}]}\n\n`,
        ': comment\n\n',
        '\n',
        'event: ping\n',
        'data: [DONE]\n\n',
        'data: {"type":"content_block_delta"',
        'id: 1\n',
        'data: {"type":"ping"}\r\n\r\n',
        '\ufeff',
      ),
    );
    const streams = fc.tuple(
      fc.array(piece, { maxLength: 20 }),
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }),
    );
    let total = 0;
    fc.assert(
      fc.property(streams, ([pieces, sizes]) => {
        const bytes = toBytes(pieces.join(''));
        const cuts: number[] = [];
        for (let at = sizes[0], i = 1; at < bytes.length; at += sizes[i++ % sizes.length]) cuts.push(at);
        for (const [, make] of READERS) {
          const read = drive(make, split(bytes, cuts), true);
          total += taken;
          assert.deepEqual(read, drive(make, split(bytes, cuts), false));
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300) },
    );
    assert.ok(total > 0, 'some deltas were taken by the runs');
  });

  it('an event longer than the limit before its end is refused once (the parser stops buffering at the same size)', () => {
    const long = toBytes(`data: {"type":"ping","pad":"${'x'.repeat(300)}"}\n\n`);
    const pieces = split(long, [40, 80, 120, 160, 200, 240, 280]);
    const out = drive(() => new MessagesEventReader(), pieces, true, 100);
    assert.deepEqual(out, [['too large']]);
    assert.deepEqual(
      drive(() => new MessagesEventReader(), [long.slice(0, 90), long.slice(90)], true, 100),
      [['events', [{ type: 'ping', pad: 'x'.repeat(300) }]]],
    );
  });
});

describe('eventFeed through the client (127.0.0.1)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const REQUEST: MessagesRequest = { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };

  async function serve(body: string, chunkSize: number): Promise<string> {
    server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunked(res, Buffer.from(body, 'utf8'), chunkSize);
    });
    return server.url;
  }
  const client = (url: string, dialect: 'messages' | 'chat-completions' | 'responses') =>
    createGatewayClient({
      baseUrl: url,
      apiKey: 'feed-key-000000',
      maxRetries: 0,
      dialects: { knowledge: () => ({ override: dialect }), learned: () => undefined },
    });
  const failure = (p: Promise<unknown>): Promise<GatewayError> =>
    p.then(
      () => assert.fail('expected a GatewayError'),
      (e: unknown) => {
        assert.ok(isGatewayError(e), String(e));
        return e;
      },
    );
  const start =
    ev({ type: 'message_start', message: { id: 'm', model: 'x', content: [], usage: {} } }, 'message_start') +
    ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start');
  const pieces = ['Héllo ', '🚀✨ ', '日本語 ', 'ελληνικά ', '"q" \\ '];
  const deltas = pieces.map((t) => `event: content_block_delta\n${textDelta(t)}`).join('');

  it('multi-byte UTF-8 in one-byte chunks: the message and the iterated deltas carry the whole characters', async () => {
    const url = await serve(
      start + deltas + ev({ type: 'message_stop' }, 'message_stop') + ev({ type: 'ping' }, 'ping'),
      1,
    );
    const stream = client(url, 'messages').streamMessage(REQUEST);
    const seen: string[] = [];
    for await (const e of stream)
      if (e.type === 'content_block_delta') seen.push(String((e.delta as { text?: string }).text));
    assert.deepEqual(seen, pieces);
    const message = await stream.finalMessage();
    assert.deepEqual(message.content, [{ type: 'text', text: pieces.join('') }]);
  });

  it('a stream cut after plain deltas (its last event without the blank line): cut error, every delta kept', async () => {
    const url = await serve(start + deltas + textDelta('last').trimEnd(), 7);
    const error = await failure(client(url, 'messages').streamMessage(REQUEST).finalMessage());
    assert.equal(error.kind, 'protocol');
    assert.equal(error.outcomeUnknown, true);
    assert.equal(error.cut?.how, 'ended');
    assert.deepEqual(error.partial?.content, [{ type: 'text', text: pieces.join('') + 'last' }]);
  });

  it('an error event after plain deltas rejects with it and the partial text; later deltas are not read', async () => {
    const url = await serve(
      start +
        deltas +
        ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error') +
        textDelta('after the error') +
        ev({ type: 'message_stop' }),
      5,
    );
    const error = await failure(client(url, 'messages').streamMessage(REQUEST).finalMessage());
    assert.equal(error.serverCode, 'overloaded_error');
    assert.deepEqual(error.partial?.content, [{ type: 'text', text: pieces.join('') }]);
  });

  const chat = (content: string, finish: string | null = null): string =>
    `data: ${HEAD}{"content":${JSON.stringify(content)}},"finish_reason":${JSON.stringify(finish)}}]}\n\n`;

  it('chat-completions: [DONE] after the finish_reason ends the answer; [DONE] without one is a cut', async () => {
    const body = pieces.map((t) => chat(t)).join('');
    let url = await serve(body + chat('.', 'stop') + 'data: [DONE]\n\n', 3);
    const message = await client(url, 'chat-completions').streamMessage(REQUEST).finalMessage();
    assert.deepEqual(message.content, [{ type: 'text', text: pieces.join('') + '.' }]);
    assert.equal(message.stop_reason, 'end_turn');
    await server?.close();
    url = await serve(body + 'data: [DONE]\n\n', 3);
    const error = await failure(client(url, 'chat-completions').streamMessage(REQUEST).finalMessage());
    assert.match(error.message, /\[DONE\] arrived without a finish_reason/);
    assert.deepEqual(error.partial?.content, [{ type: 'text', text: pieces.join('') }]);
  });

  it('Responses: plain deltas then response.failed reject with the partial text', async () => {
    const body =
      ev({ type: 'response.created', response: { id: 'r', model: 'x' } }, 'response.created') +
      ev({ type: 'response.output_item.added', output_index: 0, item: { type: 'message' } }) +
      ev({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text' } }) +
      pieces.map((t, i) => resp(i + 3, `"output_index":0,"content_index":0,"delta":${JSON.stringify(t)}`)).join('') +
      ev({ type: 'response.failed', response: { error: { code: 'server_error', message: 'upstream died' } } });
    const url = await serve(body, 2);
    const error = await failure(client(url, 'responses').streamMessage(REQUEST).finalMessage());
    assert.equal(error.serverCode, 'server_error');
    assert.deepEqual(error.partial?.content, [{ type: 'text', text: pieces.join('') }]);
  });
});
