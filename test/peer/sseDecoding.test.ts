// Peer: the SDK's SSE decoder and line decoder cases (tests/streaming.test.ts,
// tests/internal/decoders/line.test.ts). Each byte sequence of those tests is embedded as one event of a
// complete Messages stream and sent with the SDK's exact chunk boundaries (and then one byte per chunk)
// from a real socket; the assembled text proves how our client framed the lines and events.
import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../src/gateway';
import { peerServer, replay, splitAt, viaGateway, viaSdk, type PeerServer } from './support';
import { failure } from '../support/failure';

let server: PeerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const START =
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_peer","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n';
const END =
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n' +
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}\n\n' +
  'event: message_stop\ndata: {"type":"message_stop"}\n\n';
const delta = (text: string): string =>
  JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });

type Chunk = string | Buffer | number[];
const bytes = (c: Chunk): Buffer => (typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c));

/** The case's chunks between a message start and end, as sent (exact boundaries), then one byte per chunk. */
async function textOf(chunks: Chunk[], mode: 'exact' | 'bytes'): Promise<string> {
  const middle = chunks.map(bytes);
  const all = [bytes(START), ...middle, bytes(END)];
  server = await replay(
    mode === 'exact'
      ? all
      : splitAt(
          Buffer.concat(all),
          Array.from({ length: Buffer.concat(all).length }, (_, i) => i),
        ),
  );
  const result = await viaGateway(server.url);
  assert.equal(result.error, undefined, String(result.error));
  await server.close();
  server = undefined;
  return (result.message?.content[0] as { text: string }).text;
}

function both(title: string, chunks: Chunk[], expected: string): void {
  for (const mode of ['exact', 'bytes'] as const) {
    it(`${title} (${mode === 'exact' ? "the SDK's chunk boundaries" : 'one byte per chunk'})`, async () => {
      assert.equal(await textOf(chunks, mode), expected);
    });
  }
}

describe('peer (SDK streaming decoder): event framing', () => {
  both(
    'basic: event line, data line and blank line in separate chunks',
    ['event: content_block_delta\n', `data: ${delta('foo')}\n`, '\n'],
    'foo',
  );
  both('data without event: dispatched on its JSON type', [`data: ${delta('foo')}\n`, '\n'], 'foo');
  both(
    'event without data: ignored',
    ['event: foo\n', '\n', `event: content_block_delta\ndata: ${delta('x')}\n\n`],
    'x',
  );
  both(
    'multiple events without data (foo, ping): ignored',
    ['event: foo\n', '\n', 'event: ping\n', '\n', `data: ${delta('y')}\n\n`],
    'y',
  );
  both(
    'multiple events with data',
    [
      'event: content_block_delta\n',
      `data: ${delta('foo')}\n`,
      '\n',
      'event: content_block_delta\n',
      `data: ${delta('bar')}\n`,
      '\n',
    ],
    'foobar',
  );
  both(
    'multiple data lines with empty data lines: joined with \\n into one JSON document',
    [
      'event: content_block_delta\n',
      'data: {\n',
      'data: "type":"content_block_delta","index":0,\n',
      'data: \n',
      'data:\n',
      'data: "delta":{"type":"text_delta","text":"foo"}}\n',
      '\n\n',
    ],
    'foo',
  );
  both(
    'data json escaped double new line (no event boundary inside the JSON string)',
    ['event: content_block_delta\n', `data: ${delta('my long\n\ncontent')}`, '\n\n'],
    'my long\n\ncontent',
  );
  both(
    'special new line characters: a raw U+2028 in its own chunk is not a line break',
    [
      `data: ${delta('culpa ')}\n`,
      '\n',
      `data: ${delta('').slice(0, -3)}`,
      [0xe2, 0x80, 0xa8],
      '"}}\n',
      '\n',
      `data: ${delta('foo')}\n`,
      '\n',
    ],
    'culpa \u2028foo',
  );
  both(
    'multi-byte characters across chunks (известни split inside its characters)',
    [
      'event: content_block_delta\n',
      `data: ${delta('').slice(0, -3)}`,
      [0xd0],
      [0xb8, 0xd0, 0xb7, 0xd0],
      [0xb2, 0xd0, 0xb5, 0xd1, 0x81, 0xd1, 0x82, 0xd0, 0xbd, 0xd0, 0xb8],
      '"}}\n',
      '\n',
    ],
    'известни',
  );
});

describe('peer (SDK line decoder): line endings and where chunks split them', () => {
  const two = (eol: string): string[] => [
    `data: {"type":"content_block_delta","index":0,${eol}`,
    `data: "delta":{"type":"text_delta","text":"ab"}}${eol}`,
  ];
  // An event split over two data lines: a line break counted twice (an extra blank line) would dispatch
  // the first half alone, which is not JSON, and the text would be lost.
  both('\\r\\n with \\r and \\n in separate chunks', [...two('\r').flatMap((l) => [l, '\n']), '\r', '\n'], 'ab');
  both('single \\r line endings', [...two('\r'), '\r'], 'ab');
  both(
    'double \\r is an event boundary, split between the two \\r',
    [
      'event: content_block_delta\r',
      `data: ${delta('foo')}\r`,
      '\r',
      `event: content_block_delta\rdata: ${delta('bar')}\r\r`,
    ],
    'foobar',
  );
  both(
    'double \\r then \\r\\n (two blank lines)',
    ['event: content_block_delta\r', `data: ${delta('foo')}\r`, '\r', '\r', '\n', `data: ${delta('bar')}\n`, '\n'],
    'foobar',
  );
  both(
    '\\r\\n\\r\\n with the last \\n in the next chunk (incomplete boundary)',
    [
      `event: content_block_delta\r\ndata: ${delta('foo')}\r\n\r`,
      `\nevent: content_block_delta\r\ndata: ${delta('bar')}\r\n\r\n`,
    ],
    'foobar',
  );
  both(
    'line split mid-way over chunks ("foo", " bar\\nbaz")',
    ['event: content_bl', `ock_delta\ndata: ${delta('foo bar').slice(0, 20)}`, `${delta('foo bar').slice(20)}\n\n`],
    'foo bar',
  );
  both(
    'escaped \\r\\n inside the JSON is text, not a line ending',
    ['event: content_block_delta\n', `data: ${delta('foo bar\r\nbaz')}\n`, '\n'],
    'foo bar\r\nbaz',
  );

  it('a last event ended by a single \\r and no blank line still completes the stream (flush)', async () => {
    const body = (START + `data: ${delta('end')}\n\n` + END).replace(/\n/g, '\r').replace(/\r\r$/, '\r');
    server = await replay([Buffer.from(body)]);
    const result = await viaGateway(server.url);
    assert.equal((result.message?.content[0] as { text: string }).text, 'end');
  });
});

describe('peer (SDK streaming): errors', () => {
  const ERROR = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';

  it('an error event (data without trailing newline, then \\n\\n) rejects with its type, like the SDK', async () => {
    server = await replay(
      [Buffer.from(START), Buffer.from('event: error\n'), Buffer.from(`data: ${ERROR}`), Buffer.from('\n\n')],
      { ending: 'hold' },
    );
    const ours = await viaGateway(server.url);
    assert.equal(ours.error?.kind, 'server');
    assert.equal(ours.error?.serverCode, 'overloaded_error');
    assert.equal(ours.error?.serverMessage, 'Overloaded');
    assert.equal(ours.error?.cut, undefined);
    const sdk = await viaSdk(server.url);
    assert.equal((sdk.error as { type?: string }).type, 'overloaded_error');
  });

  it('an error without an event: line is still an error for us; the SDK skips it (deliberate difference, docs/gateway-protocol.md#messages-stream)', async () => {
    server = await replay([Buffer.from(START + `data: ${delta('Partial')}\n\ndata: ${ERROR}\n\n`)], { ending: 'hold' });
    const ours = await viaGateway(server.url);
    assert.equal(ours.error?.serverCode, 'overloaded_error');
    assert.equal((ours.error?.partial?.content[0] as { text: string }).text, 'Partial');
  });

  it('HTTP 400 exposes the error type and status (the SDK: APIError.type); 500 without a type has none', async () => {
    server = await peerServer((_req, res, n) => {
      const [status, body] =
        n === 1
          ? [400, { type: 'error', error: { type: 'invalid_request_error', message: 'Bad request' } }]
          : [500, { message: 'Internal error' }];
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_123' });
      res.end(JSON.stringify(body));
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
    const request = {
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 1,
      messages: [{ role: 'user' as const, content: 'hi' }],
    };
    const e400 = await failure(client.createMessage(request));
    assert.equal(e400.serverCode, 'invalid_request_error');
    assert.equal(e400.status, 400);
    assert.equal(e400.kind, 'bad_request');
    assert.equal(e400.requestId, 'req_123');
    const e500 = await failure(client.createMessage(request));
    assert.equal(e500.serverCode, undefined);
    // Deliberate: a message that only restates the status ("Internal error") is dropped; the SDK keeps it.
    assert.equal(e500.serverMessage, undefined);
    assert.match(e500.message, /HTTP 500/);
  });
});
