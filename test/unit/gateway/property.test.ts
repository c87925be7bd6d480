// Property: whatever bytes a gateway sends, the client yields a message or a GatewayError, never
// another exception. FC_RUNS raises the run count for soak runs (e.g. FC_RUNS=10000).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { createGatewayClient, isGatewayError } from '../../../src/gateway';
import { fromBytes, toBytes } from '../../../src/gateway/stream/byteText';
import { readTextDelta } from '../../../src/gateway/stream/fastDelta';

/** The fast path on a JSON text, answering in text (the stream works on byte strings). */
function parseTextDelta(data: string): { index: number; text: string } | undefined {
  const at = { fastBlock: -1 };
  const bytes = readTextDelta(toBytes(data), at);
  return bytes === undefined ? undefined : { index: at.fastBlock, text: fromBytes(bytes) };
}
import { startServer, type TestServer } from './server';
import { MESSAGE_REQUEST } from './streamHelpers';

const RUNS = Number(process.env.FC_RUNS ?? 300);

interface Reply {
  status: number;
  contentType: string;
  body: Buffer;
  chunks: number[];
  iterate: boolean;
}

const EVENTS = [
  '{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}',
  '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
  '{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}',
  '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo 🚀"}}',
  '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\":"}}',
  '{"type":"content_block_delta","index":7,"delta":{"type":"thinking_delta","thinking":"hm"}}',
  '{"type":"content_block_delta","index":99999999,"delta":{"type":"text_delta","text":"far"}}',
  '{"type":"content_block_delta","index":-1,"delta":null}',
  '{"type":"content_block_stop","index":1}',
  '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}',
  '{"type":"message_delta","delta":"x","usage":[1]}',
  '{"type":"message_stop"}',
  '{"type":"ping"}',
  '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  '{"type":"error","error":"plain"}',
  '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"cut',
  '[DONE]',
  'null',
  '[1,2,3]',
  '{"type":{"nested":true}}',
  '{"__proto__":{"polluted":true},"type":"message_start","message":{"__proto__":{"x":1}}}',
];

const eol = fc.constantFrom('\n', '\r\n', '\r');
const sseLine = fc.oneof(
  fc
    .tuple(
      fc.option(fc.constantFrom('message_start', 'error', 'ping', 'content_block_delta', 'weird'), { nil: undefined }),
      fc.constantFrom(...EVENTS),
      eol,
    )
    .map(([event, data, e]) => `${event ? `event: ${event}${e}` : ''}data: ${data}${e}${e}`),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(': comment\n', 'retry: x\n', 'id: 1\n', 'data: {"type":"content_block_delta"', '\n\n', '\r'),
);
const structured = fc.array(sseLine, { maxLength: 25 }).map((lines) => Buffer.from(lines.join(''), 'utf8'));
const bytes = fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b));

const reply: fc.Arbitrary<Reply> = fc.record({
  status: fc.constantFrom(200, 200, 200, 200, 400, 401, 403, 404, 429, 500, 502, 529),
  contentType: fc.constantFrom('text/event-stream', 'text/event-stream', 'application/json', 'text/html', 'text/plain'),
  body: fc.oneof(structured, structured, bytes),
  chunks: fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }),
  iterate: fc.boolean(),
});

describe('property: any bytes → a message or a GatewayError', function () {
  this.timeout(Math.max(60_000, RUNS * 50));
  let server: TestServer;
  let current: Reply;
  const stray: unknown[] = [];
  const onStray = (e: unknown): void => void stray.push(e);

  before(async () => {
    process.on('unhandledRejection', onStray);
    process.on('uncaughtException', onStray);
    server = await startServer(async (_req, res) => {
      const r = current;
      res.writeHead(r.status, { 'content-type': r.contentType, 'retry-after-ms': '0' });
      let offset = 0;
      for (let i = 0; offset < r.body.length; i++) {
        const size = r.chunks[i % r.chunks.length];
        res.write(r.body.subarray(offset, offset + size));
        offset += size;
        if (i % 4 === 3) await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  });
  after(async () => {
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
    await server.close();
  });

  it(`streamMessage settles with a Message or a GatewayError (${RUNS} runs)`, async () => {
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'prop-key-000000', maxRetries: 0 });
    await fc.assert(
      fc.asyncProperty(reply, async (r) => {
        current = r;
        const stream = client.streamMessage(MESSAGE_REQUEST);
        const iterated = r.iterate
          ? (async () => {
              for await (const ev of stream) assert.equal(typeof ev.type, 'string');
            })()
          : Promise.resolve();
        const outcome = await stream.finalMessage().then(
          (m) => m,
          (e: unknown) => e,
        );
        const iteration = await iterated.then(
          () => undefined,
          (e: unknown) => e,
        );
        if (isGatewayError(outcome)) {
          assert.ok(iteration === undefined || isGatewayError(iteration));
        } else {
          assert.ok(Array.isArray((outcome as { content: unknown }).content), `not a message: ${String(outcome)}`);
          assert.equal(iteration, undefined);
        }
        stream.abort();
      }),
      { numRuns: RUNS },
    );
    assert.deepEqual(stray, []);
  });

  it(`createMessage / listModels settle with a value or a GatewayError (${Math.ceil(RUNS / 3)} runs)`, async () => {
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'prop-key-000000', maxRetries: 0 });
    await fc.assert(
      fc.asyncProperty(reply, fc.boolean(), async (r, models) => {
        current = r;
        const outcome = await (models ? client.listModels() : client.createMessage(MESSAGE_REQUEST)).then(
          (v) => v,
          (e: unknown) => e,
        );
        if (outcome instanceof Error) assert.ok(isGatewayError(outcome), String(outcome));
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
    assert.deepEqual(stray, []);
  });
});

describe('property: streamed text is exactly the concatenated deltas', function () {
  this.timeout(Math.max(60_000, RUNS * 50));
  let server: TestServer;
  let payload = Buffer.alloc(0);
  let chunks: number[] = [1];
  before(async () => {
    server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let offset = 0;
      for (let i = 0; offset < payload.length; i++) {
        const size = chunks[i % chunks.length];
        res.write(payload.subarray(offset, offset + size));
        offset += size;
        if (i % 8 === 7) await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  });
  after(async () => {
    await server.close();
  });

  const delta = fc.tuple(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.constantFrom('compact', 'spaced', 'ascii-escaped'),
  );
  it(`any unicode text, any delta shapes, any chunking (${RUNS} runs)`, async () => {
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'prop-key-000000', maxRetries: 0 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(delta, { maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        async (deltas, sizes, eol, iterate) => {
          const lines = [
            '{"type":"message_start","message":{"id":"m","model":"x","usage":{"input_tokens":1,"output_tokens":1}}}',
            '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
          ];
          for (const [text, shape] of deltas) {
            if (shape === 'spaced')
              lines.push(
                JSON.stringify(
                  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
                  null,
                  1,
                ).replace(/\n/g, ' '),
              );
            else {
              const literal =
                shape === 'compact'
                  ? JSON.stringify(text)
                  : JSON.stringify(text).replace(
                      /[\u007f-\uffff]/g,
                      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
                    );
              lines.push(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${literal}}}`);
            }
          }
          lines.push('{"type":"content_block_stop","index":0}', '{"type":"message_stop"}');
          payload = Buffer.from(lines.map((l) => `event: x${eol}data: ${l}${eol}${eol}`).join(''), 'utf8');
          chunks = sizes;
          const stream = client.streamMessage(MESSAGE_REQUEST);
          const seen: string[] = [];
          const iterated = iterate
            ? (async () => {
                for await (const ev of stream)
                  if (ev.type === 'content_block_delta') seen.push((ev.delta as { text: string }).text);
              })()
            : Promise.resolve();
          const message = await stream.finalMessage();
          await iterated;
          const expected = deltas.map(([text]) => text).join('');
          assert.equal((message.content[0] as { text: string }).text, expected);
          if (iterate) assert.equal(seen.join(''), expected);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('property: the text-delta fast path agrees with JSON.parse', () => {
  it('reads every compact text_delta exactly as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat({ max: 5000 }), (text, index) => {
        const data = JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
        assert.deepEqual(parseTextDelta(data), { index, text });
      }),
      { numRuns: RUNS * 10 },
    );
  });

  it('reads \\u-escaped text (ensure_ascii encoders, surrogate pairs) exactly as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat({ max: 50 }), (text, index) => {
        const literal = JSON.stringify(text).replace(
          /[\u007f-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
        const data = `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":${literal}}}`;
        assert.deepEqual(parseTextDelta(data), { index, text });
      }),
      { numRuns: RUNS * 10 },
    );
  });

  it('never accepts what JSON.parse reads differently', () => {
    const near = fc
      .tuple(
        fc.nat({ max: 30 }),
        fc.string({ unit: 'binary', maxLength: 30 }),
        fc.constantFrom('"}}', '"}} ', '"} }', '"}}x', '","x":1}}', '\\"}}'),
      )
      .map(
        ([i, s, end]) => `{"type":"content_block_delta","index":${i},"delta":{"type":"text_delta","text":"${s}${end}`,
      );
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ unit: 'binary' })), (data) => {
        const fast = parseTextDelta(data);
        if (fast === undefined) return;
        let parsed: { index: number; delta: { text: string } };
        try {
          parsed = JSON.parse(data) as typeof parsed;
        } catch {
          // The one deliberate difference: raw control characters in the text are kept, not rejected.
          assert.match(data, /[\u0000-\u001f]/);
          return;
        }
        assert.deepEqual(fast, { index: parsed.index, text: parsed.delta.text });
        assert.deepEqual(Object.keys(parsed.delta), ['type', 'text']);
      }),
      { numRuns: RUNS * 10 },
    );
  });
});
