// Our client through a real third-party gateway (@musistudio/llms, the fastify router behind
// claude-code-router) that turns POST /v1/messages into OpenAI-style chat completions of our upstream.
// Everything here crosses real sockets: client → gateway (child process) → upstream (test/realgw/upstream.ts).
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { adviseOnError } from '../../src/gateway';
import { clientFor, request } from './client';
import { useRealGateway } from './gateway';
import { MULTIBYTE_REPLY, SLOW_PREFIX, TEXT_REPLY, TOOL_CALLS, TOOLS_USAGE } from './upstream';
import { startTcpTap } from './tcpTap';
import { waitUntil } from '../support/poll';
import { failure } from '../support/failure';

const TOOLS = [
  {
    name: 'get_weather',
    description: 'Weather of a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } },
  },
  {
    name: 'get_time',
    description: 'Time in a zone',
    input_schema: { type: 'object', properties: { zone: { type: 'string' } } },
  },
];

describe('real gateway (@musistudio/llms): Messages streams', function () {
  this.timeout(30_000);
  const gw = useRealGateway();

  it('streams plain text and assembles it exactly, ending with end_turn', async () => {
    const client = clientFor(gw().url);
    const stream = client.streamMessage(request('text'));
    const events: string[] = [];
    for await (const ev of stream) events.push(ev.type);
    const message = await stream.finalMessage();
    assert.equal(message.content.length, 1);
    assert.deepEqual(message.content[0], { type: 'text', text: TEXT_REPLY });
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(events[0], 'message_start');
    assert.equal(events.at(-1), 'message_stop');
    // The gateway got the upstream's answer for exactly one request.
    assert.equal(gw().upstream.requests.length, 1);
  });

  it('answers a non-streaming request with the same text', async () => {
    const message = await clientFor(gw().url).createMessage(request('text'));
    assert.deepEqual(message.content, [{ type: 'text', text: TEXT_REPLY }]);
    assert.equal(message.stop_reason, 'end_turn');
  });

  it('keeps multi-byte UTF-8 intact when the upstream splits characters across chunks', async () => {
    const message = await clientFor(gw().url).streamMessage(request('multibyte')).finalMessage();
    assert.equal((message.content[0] as { text: string }).text, MULTIBYTE_REPLY);
    assert.ok(!MULTIBYTE_REPLY.includes('\ufffd'));
    assert.ok(!(message.content[0] as { text: string }).text.includes('\ufffd'), 'no replacement characters');
  });

  it('assembles two tool calls whose argument fragments interleave (a fragment for a block after its content_block_stop)', async () => {
    const message = await clientFor(gw().url)
      .streamMessage(request('tools', { tools: TOOLS }))
      .finalMessage();
    assert.equal(message.stop_reason, 'tool_use');
    const tools = message.content.filter((b) => b.type === 'tool_use') as Array<{
      id: string;
      name: string;
      input: unknown;
    }>;
    assert.deepEqual(
      tools.map((t) => ({ id: t.id, name: t.name, input: t.input })),
      TOOL_CALLS.map((c) => ({ id: c.id, name: c.name, input: c.args })),
    );
    assert.deepEqual(message.content[0], { type: 'text', text: 'Let me check.' });
    // message_start said 0/0; the real counts only arrive in message_delta, input_tokens included.
    assert.equal(message.usage.input_tokens, TOOLS_USAGE.prompt_tokens);
    assert.equal(message.usage.output_tokens, TOOLS_USAGE.completion_tokens);
  });

  it('tool input seen while iterating events equals the final input (no stale parse at content_block_stop)', async () => {
    const stream = clientFor(gw().url).streamMessage(request('tools', { tools: TOOLS }));
    let partialJson = '';
    for await (const ev of stream) {
      const delta = ev.delta as { type?: string; partial_json?: string } | undefined;
      if (ev.type === 'content_block_delta' && delta?.type === 'input_json_delta')
        partialJson += delta.partial_json ?? '';
    }
    const message = await stream.finalMessage();
    // Every fragment was delivered to the iterator as well, late ones included.
    assert.equal(
      partialJson.length,
      TOOL_CALLS.reduce((n, c) => n + JSON.stringify(c.args).length, 0),
    );
    const inputs = message.content.filter((b) => b.type === 'tool_use').map((b) => (b as { input: unknown }).input);
    assert.deepEqual(
      inputs,
      TOOL_CALLS.map((c) => c.args),
    );
  });

  it("removes its abort listener from the caller's signal once the stream settles", async () => {
    const controller = new AbortController();
    const stream = clientFor(gw().url).streamMessage(request('text'), { signal: controller.signal });
    await stream.finalMessage();
    assert.equal(
      getEventListeners(controller.signal, 'abort').length,
      0,
      'a finished stream must not keep a listener (and the stream) alive on a long-lived signal',
    );
  });

  it("abort closes the client's connection to the gateway at once and rejects with kind aborted, partial kept", async () => {
    const tap = await startTcpTap(Number(new URL(gw().url).port));
    try {
      const controller = new AbortController();
      const stream = clientFor(tap.url).streamMessage(request('slow'), { signal: controller.signal });
      let text = '';
      for await (const ev of stream) {
        const delta = ev.delta as { type?: string; text?: string } | undefined;
        if (delta?.type === 'text_delta') text += delta.text ?? '';
        if (text.startsWith(SLOW_PREFIX)) break; // leaving the loop early aborts the stream
      }
      const error = await failure(stream.finalMessage());
      assert.equal(error.kind, 'aborted');
      assert.ok(
        (error.partial?.content[0] as { text?: string } | undefined)?.text?.startsWith(SLOW_PREFIX),
        'partial text kept',
      );
      await waitUntil(
        () => tap.clientClosed('POST', '/v1/messages'),
        'the client to close its socket to the gateway',
        5000,
      );
      assert.equal(adviseOnError(error, { surface: 'chat' }).title, 'Cancelled.');
    } finally {
      await tap.close();
    }
  });

  it("abort through the caller's signal closes the connection too", async () => {
    const tap = await startTcpTap(Number(new URL(gw().url).port));
    try {
      const controller = new AbortController();
      const stream = clientFor(tap.url).streamMessage(request('slow'), { signal: controller.signal });
      await waitUntil(
        () =>
          (stream.currentMessage()?.content[0] as { text?: string } | undefined)?.text?.startsWith(SLOW_PREFIX) ===
          true,
        'the first text',
        10_000,
      );
      controller.abort();
      const error = await failure(stream.finalMessage());
      assert.equal(error.kind, 'aborted');
      await waitUntil(
        () => tap.clientClosed('POST', '/v1/messages'),
        'the client to close its socket to the gateway',
        5000,
      );
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    } finally {
      await tap.close();
    }
  });
});
