// The SSE stream in the upstream format: event order, directives, max_tokens, tool input deltas, disconnects.

import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { MULTIBYTE_LINE } from '../../../src/emulator/models/text';
import { chatBody, messagesHeaders, parseSse, post, useEmulator } from './helpers';
import { waitUntil } from '../../support/poll';

describe('emulator: messages stream', () => {
  const emu = useEmulator();

  async function stream(text: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const res = await post(emu(), '/v1/messages', chatBody(text, { stream: true, ...extra }), {
      ...messagesHeaders(),
      ...headers,
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    return parseSse(await res.text());
  }

  const texts = (events: ReturnType<typeof parseSse>): string =>
    events
      .filter((e) => e.event === 'content_block_delta' && (e.data.delta as { type: string }).type === 'text_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('');

  it('sends message_start, ping, block events, message_delta with usage, message_stop, in order', async () => {
    const events = await stream('Order **check** `x` 🚀');
    const names = events.map((e) => e.event);
    assert.equal(names[0], 'message_start');
    assert.deepEqual(names.slice(1, 3), ['content_block_start', 'ping']);
    assert.deepEqual(names.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
    assert.ok(names.slice(3, -3).every((n) => n === 'content_block_delta'));
    for (const e of events) assert.equal(e.data.type, e.event, 'the JSON type matches the event name');
    const text = texts(events);
    assert.ok(text.startsWith('You wrote:\n\nOrder **check** `x` 🚀\n\n'));
    assert.ok(text.includes('```ts\n'));
    assert.ok(text.endsWith(MULTIBYTE_LINE));
    const delta = events[events.length - 2].data as {
      delta: { stop_reason: string };
      usage: { output_tokens: number; input_tokens: number };
    };
    assert.equal(delta.delta.stop_reason, 'end_turn');
    assert.ok(delta.usage.output_tokens > 20);
    assert.ok(delta.usage.input_tokens > 0);
  });

  it('is deterministic: the same prompt gives the same text', async () => {
    assert.equal(texts(await stream('same [[tokens=40]]')), texts(await stream('same [[tokens=40]]')));
  });

  it('[[tokens=N]] sets the reply length; max_tokens cuts with stop_reason max_tokens', async () => {
    const long = await stream('count [[tokens=300]]', { max_tokens: 1000 });
    const final = long[long.length - 2].data as { delta: { stop_reason: string }; usage: { output_tokens: number } };
    assert.equal(final.usage.output_tokens, 300);
    assert.equal(final.delta.stop_reason, 'end_turn');
    const cut = await stream('count [[tokens=300]]', { max_tokens: 25 });
    const cutFinal = cut[cut.length - 2].data as { delta: { stop_reason: string }; usage: { output_tokens: number } };
    assert.equal(cutFinal.delta.stop_reason, 'max_tokens');
    assert.equal(cutFinal.usage.output_tokens, 25);
    assert.ok(texts(long).startsWith(texts(cut)));
  });

  it('non-streaming honours max_tokens and stop_sequences too', async () => {
    const res = await post(emu(), '/v1/messages', chatBody('x [[tokens=100]]', { max_tokens: 7 }), messagesHeaders());
    const body = (await res.json()) as {
      stop_reason: string;
      usage: { output_tokens: number };
      content: Array<{ text: string }>;
    };
    assert.equal(body.stop_reason, 'max_tokens');
    assert.equal(body.usage.output_tokens, 7);
    const stopped = (await (
      await post(emu(), '/v1/messages', chatBody('abc', { stop_sequences: ['deterministic'] }), messagesHeaders())
    ).json()) as { stop_reason: string; stop_sequence: string; content: Array<{ text: string }> };
    assert.equal(stopped.stop_reason, 'stop_sequence');
    assert.equal(stopped.stop_sequence, 'deterministic');
    assert.ok(!stopped.content[0].text.includes('deterministic'));
  });

  it('[[thinking]] streams a thinking block with a signature before the text', async () => {
    const events = await stream('why? [[thinking]]');
    const starts = events
      .filter((e) => e.event === 'content_block_start')
      .map((e) => (e.data.content_block as { type: string }).type);
    assert.deepEqual(starts, ['thinking', 'text']);
    const deltaTypes = new Set(
      events.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { type: string }).type),
    );
    assert.deepEqual([...deltaTypes].sort(), ['signature_delta', 'text_delta', 'thinking_delta']);
  });

  it('[[tool]] with tools: input_json_delta split across several deltas, stop_reason tool_use', async () => {
    const events = await stream('do it [[tool]]', {
      tools: [{ name: 'run', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
    });
    const parts = events
      .filter((e) => (e.data.delta as { type?: string } | undefined)?.type === 'input_json_delta')
      .map((e) => (e.data.delta as { partial_json: string }).partial_json);
    assert.ok(parts.length > 2);
    assert.deepEqual(JSON.parse(parts.join('')), { command: 'do it' });
    assert.equal((events[events.length - 2].data.delta as { stop_reason: string }).stop_reason, 'tool_use');
    // Without tools in the request, [[tool]] is just text.
    assert.ok(texts(await stream('do it [[tool]]')).includes('do it [[tool]]'));
  });

  it('a client disconnect is logged as aborted and generation stops', async () => {
    const url = new URL(`${emu().url}/v1/messages`);
    const body = JSON.stringify(chatBody('long [[tokens=100000]]', { stream: true, max_tokens: 200000 }));
    await new Promise<void>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { ...messagesHeaders(), 'x-emulator-fault': '{"tokensPerSecond":200}' } },
        (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', () => undefined);
      req.end(body);
      setTimeout(() => reject(new Error('no data')), 5000);
    });
    await waitUntil(
      () =>
        emu()
          .requests()
          .some((r) => r.aborted),
      'the aborted entry',
    );
    const entry = emu().requests()[0];
    assert.equal(entry.aborted, true);
    assert.equal(entry.stream, true);
    assert.equal(entry.billable, true);
    const events = entry.events;
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(emu().requests()[0].events, events, 'no events after the disconnect');
  });
});
