// The emulator's POST /v1/responses (src/emulator/routes/responses.ts) read by the real gateway client over a real
// socket: a whole response and a stream give the same answer, max_output_tokens ends it as incomplete, and the
// fault mechanism cuts it (dropAfterEvents), ends it with an error event (errorAfterEvents) or fails the response
// (responseFailed); a reasoning item whose encrypted content is not the emulator's own is refused; a tool result's
// image reaches the vision model (from the client, and as a function_call_output of input_image parts).
import { strict as assert } from 'node:assert';
import { instantAnswers, useEmulator, DEMO } from './helpers';
import { createGatewayClient } from '../../../src/gateway';
import { pngBytes } from '../../support/imageBytes';
import { failure } from '../../support/failure';

const REQUEST = {
  model: 'claude-demo-sonnet',
  max_tokens: 400,
  messages: [{ role: 'user' as const, content: 'Hello over Responses' }],
};

describe('emulator: POST /v1/responses', function () {
  this.timeout(30_000);
  const emulator = useEmulator(instantAnswers);
  const client = () =>
    createGatewayClient({
      baseUrl: emulator().url,
      apiKey: DEMO,
      maxRetries: 0,
      dialects: { knowledge: () => ({ override: 'responses' }), learned: () => undefined },
    });
  beforeEach(() => {
    emulator().reset();
    emulator().setFaults(DEMO, null);
  });

  it('a whole response and a stream carry the same answer and usage; one billable request each', async () => {
    const whole = await client().createMessage(REQUEST);
    const streamed = await client().streamMessage(REQUEST).finalMessage();
    const text = (m: typeof whole): string => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    assert.match(text(whole), /Hello over Responses/);
    assert.equal(text(streamed), text(whole));
    assert.equal(streamed.stop_reason, 'end_turn');
    assert.deepEqual(streamed.usage, whole.usage);
    assert.equal(emulator().billableCount('responses'), 2);
  });

  it('max_output_tokens reached: response.incomplete → stop_reason max_tokens', async () => {
    const m = await client()
      .streamMessage({ ...REQUEST, max_tokens: 16, messages: [{ role: 'user', content: 'Tell me a long story' }] })
      .finalMessage();
    assert.equal(m.stop_reason, 'max_tokens');
  });

  it('faults: a cut stream, an error event, a failed response', async () => {
    emulator().setFaults(DEMO, { dropAfterEvents: 6 });
    let e = await failure(client().streamMessage(REQUEST).finalMessage());
    assert.ok(e.cut, e.message);
    emulator().setFaults(DEMO, { errorAfterEvents: 6, errorType: 'server_error' });
    e = await failure(client().streamMessage(REQUEST).finalMessage());
    assert.equal(e.serverCode, 'server_error');
    emulator().setFaults(DEMO, { responseFailed: true });
    e = await failure(client().streamMessage(REQUEST).finalMessage());
    assert.equal(e.serverCode, 'server_error');
    assert.match(e.message, /Emulated failure/);
  });

  it('a reasoning item whose encrypted content is not its own is refused with 400', async () => {
    const e = await failure(
      client().createMessage({
        ...REQUEST,
        messages: [
          { role: 'user', content: 'Read it' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'x', signature: 'forged' },
              { type: 'tool_use', id: 'c1', name: 'read_file', input: {} },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'ok' }] },
        ],
      }),
    );
    assert.equal(e.status, 400);
    assert.match(e.message, /encrypted content/);
  });

  it("a tool result's image reaches the model over Responses: from the client, and as an output of parts", async () => {
    const png = pngBytes(40, 30);
    const seen = /Image 1: png 40×30, \d+ bytes, sha256 [0-9a-f]{16}\./;
    const data = png.toString('base64');
    const image = {
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/png' as const, data },
    };
    const m = await client().createMessage({
      ...REQUEST,
      messages: [
        { role: 'user', content: 'Read the screenshot' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'read_file', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'shot.png' }, image] }],
        },
      ],
    });
    const text = m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    assert.match(text, seen);
    const raw = await fetch(`${emulator().url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-demo-sonnet',
        input: [
          { type: 'message', role: 'user', content: 'Read the screenshot' },
          { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{}' },
          {
            type: 'function_call_output',
            call_id: 'c1',
            output: [{ type: 'input_image', image_url: `data:image/png;base64,${png.toString('base64')}` }],
          },
        ],
      }),
    });
    const body = (await raw.json()) as { output: Array<{ type: string; content?: Array<{ text: string }> }> };
    assert.match(body.output.find((o) => o.type === 'message')?.content?.[0].text ?? '', seen);
  });
});
