// Large events read from their bytes (byteText.ts#parseJsonBytes, ResponsesEventReader.parseLarge): the same value as
// JSON.parse of the decoded text, less the repeats of streamed text the reader never reads; and over 127.0.0.1, the
// Responses events that repeat a long answer (output_item.done, response.completed / incomplete) give the same message
// whether its text streamed or arrived only in them.
import * as assert from 'node:assert/strict';
import { createGatewayClient, type MessagesRequest } from '../../../src/gateway';
import { fromBytes, parseJsonBytes, toBytes } from '../../../src/gateway/stream/byteText';
import { startServer, writeChunked, type TestServer } from './server';

const keep = (): void => undefined;

describe('parseJsonBytes: JSON of a byte string', () => {
  it('gives what JSON.parse of the text gives (multi-byte text, ASCII escapes, __proto__, arrays, scalars)', () => {
    const values: unknown[] = [
      { a: 'Héllo 🚀 日本語', b: ['ελληνικά', 1, null, true, { c: 'x\u0041\n"q"\\' }] },
      JSON.parse('{"__proto__":{"polluted":"é"},"k":"v"}'),
      ['é', ['🚀', ['日']]],
      'just a string é',
      42,
      null,
    ];
    for (const v of values) {
      const text = JSON.stringify(v);
      assert.deepEqual(parseJsonBytes(toBytes(text), keep), JSON.parse(text));
    }
    const proto = parseJsonBytes(toBytes('{"__proto__":{"p":"é"}}'), keep) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(proto), Object.prototype);
    assert.deepEqual(Object.keys(proto), ['__proto__']);
  });

  it('leaves to the usual way a \\u escape above U+007F and a member name that is not ASCII', () => {
    assert.equal(parseJsonBytes(toBytes('{"a":"\\u00e9"}'), keep), undefined);
    assert.equal(parseJsonBytes(toBytes('{"a":"\\ud83d\\ude80"}'), keep), undefined);
    assert.equal(parseJsonBytes(toBytes('{"é":1}'), keep), undefined);
    assert.deepEqual(parseJsonBytes(toBytes('{"a":"\\u007f\\u0041"}'), keep), { a: '\u007fA' });
  });

  it('throws on what is not JSON, decodes nothing that prune dropped, and survives deep nesting', () => {
    assert.throws(() => parseJsonBytes(toBytes('{"a":'), keep));
    const seen: unknown[] = [];
    const v = parseJsonBytes(toBytes('{"long":"日本語","short":"é"}'), (value) => {
      seen.push((value as { long: string }).long);
      (value as { long?: string }).long = undefined;
    });
    assert.deepEqual(seen, [toBytes('日本語')]); // prune sees the bytes, before any decoding
    assert.deepEqual(v, { long: undefined, short: 'é' });
    const deep = '['.repeat(5000) + '"é"' + ']'.repeat(5000);
    let inner = parseJsonBytes(toBytes(deep), keep);
    for (let depth = 0; depth < 5000; depth++) inner = (inner as unknown[])[0];
    assert.equal(inner, 'é');
  });
});

describe('fromBytes: long texts', () => {
  it('decodes as Buffer#toString does: wide characters (ICU), Latin-1 only, and invalid UTF-8 (U+FFFD)', () => {
    const wide = 'Héllo 🚀 日本語 ελληνικά \ufeff\uffff '.repeat(4000);
    const latin = 'Héllo naïve café '.repeat(6000);
    for (const text of [wide, latin]) assert.equal(fromBytes(toBytes(text)), text);
    const bytes = toBytes(wide);
    for (const bad of ['\xed\xa0\x80', '\xc0\x80', '\xf4\x90\x80\x80', '\xff', '\xe6\x97']) {
      const broken = bytes.slice(0, 70_000) + bad + bytes.slice(70_000);
      assert.equal(fromBytes(broken), Buffer.from(broken, 'latin1').toString('utf8'));
      assert.match(fromBytes(broken), /\ufffd/);
    }
  });
});

describe('Responses: large events repeating the answer (127.0.0.1)', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const REQUEST: MessagesRequest = { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] };
  const LONG = 'Héllo 🚀 日本語 "q" \\ '.repeat(2000); // ~60 KB: above the large-event size
  const ev = (e: Record<string, unknown>): string => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;
  const item = (text: string) => ({
    id: 'msg_1',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', annotations: [], text }],
  });
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 4 }, output_tokens: 7 };
  const done = (status: string, output: unknown[]) =>
    ev({
      type: status === 'completed' ? 'response.completed' : 'response.incomplete',
      response: {
        id: 'resp_1',
        model: 'gpt-x',
        status,
        ...(status === 'incomplete' ? { incomplete_details: { reason: 'max_output_tokens' } } : {}),
        output,
        usage,
      },
    });
  const head =
    ev({ type: 'response.created', response: { id: 'resp_1', model: 'gpt-x', output: [] } }) +
    ev({ type: 'response.output_item.added', output_index: 0, item: { ...item(''), content: [] } });
  const streamed =
    head +
    ev({ type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'output_text' } }) +
    [0, 1, 2, 3]
      .map((i) => LONG.slice((i * LONG.length) / 4, ((i + 1) * LONG.length) / 4))
      .map((delta) => ev({ type: 'response.output_text.delta', output_index: 0, content_index: 0, delta }))
      .join('') +
    ev({ type: 'response.output_text.done', output_index: 0, content_index: 0, text: LONG });
  const itemDone = ev({ type: 'response.output_item.done', output_index: 0, item: item(LONG) });

  async function read(body: string) {
    server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await writeChunked(res, Buffer.from(body, 'utf8'), 4096);
    });
    const client = createGatewayClient({
      baseUrl: server.url,
      apiKey: 'large-key-000000',
      maxRetries: 0,
      dialects: { knowledge: () => ({ override: 'responses' }), learned: () => undefined },
    });
    return client.streamMessage(REQUEST).finalMessage();
  }

  it('streamed text: the repeats in output_item.done and response.completed add nothing; usage is read', async () => {
    const message = await read(streamed + itemDone + done('completed', [item(LONG)]));
    assert.deepEqual(message.content, [{ type: 'text', text: LONG }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.deepEqual(message.usage, { input_tokens: 6, output_tokens: 7, cache_read_input_tokens: 4 });
  });

  it('text sent only in output_item.done is the message; response.incomplete says max_tokens', async () => {
    const message = await read(head + itemDone + done('incomplete', [item(LONG)]));
    assert.deepEqual(message.content, [{ type: 'text', text: LONG }]);
    assert.equal(message.stop_reason, 'max_tokens');
  });

  it('a gateway that sends only response.completed: its output is the message', async () => {
    const message = await read(done('completed', [item(LONG), item('second é')]));
    assert.deepEqual(message.content, [
      { type: 'text', text: LONG },
      { type: 'text', text: 'second é' },
    ]);
    assert.equal(message.usage.output_tokens, 7);
  });

  it('a \\u escape above U+007F in a large event is read the usual way', async () => {
    // The text arrives only in the done event, which cannot be read from its bytes.
    const escaped = itemDone.replace('"status":"completed"', '"status":"completed","note":"\\u00e9"');
    assert.notEqual(escaped, itemDone);
    const message = await read(head + escaped + done('completed', [item(LONG)]));
    assert.deepEqual(message.content, [{ type: 'text', text: LONG }]);
  });
});
