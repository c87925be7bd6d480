// One long-lived AbortSignal (a chat session) over many calls: every call removes what it added to it,
// on every path (success, HTTP error, mid-stream error, cut, abort of one stream, 429 queue).
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createGatewayClient, type GatewayClient } from '../../../src/gateway';
import { json, startServer, type TestServer } from './server';
import { fixture, MESSAGE_REQUEST } from './streamHelpers';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;
const MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};

/** Answers by the first word of the user's prompt: ok | cut | drop | error | http500 | hang | json. */
async function gateway(): Promise<GatewayClient> {
  server = await startServer(async (req, res, body) => {
    if (req.url?.startsWith('/v1/images/tasks/'))
      return json(res, 200, { id: 't1', status: 'succeeded', data: [{ url: 'http://x/1.png' }] });
    if (req.url === '/v1/models') return json(res, 200, { data: [{ id: 'a' }] });
    if (req.url === '/v1/images/generations') return json(res, 200, { created: 1, data: [{ url: 'http://x/1.png' }] });
    if (req.url === '/v1/images/generations/async') return json(res, 202, { id: 't1', status: 'processing' });
    const mode = String(
      (JSON.parse(body.toString()) as { messages: Array<{ content: string }> }).messages[0].content,
    ).split(' ')[0];
    if (mode === 'http500') return json(res, 500, { error: { type: 'api_error', message: 'boom' } });
    if (mode === 'json') return json(res, 200, MESSAGE);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const text = fixture(mode === 'error' ? 'mid_stream_error.sse' : mode === 'ok' ? 'text_basic.sse' : 'cut_off.sse');
    if (mode === 'hang') {
      res.write(text.subarray(0, 200));
      return;
    }
    res.write(text);
    if (mode === 'drop') res.destroy();
    else res.end();
  });
  return createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 });
}

const ask = (word: string) => ({
  ...MESSAGE_REQUEST,
  messages: [{ role: 'user' as const, content: `${word} please` }],
});

describe('gateway: no abort listener is left on a long-lived caller signal', () => {
  it('12 streams on one signal (finished, mid-stream error, ended early, dropped, JSON reply) leave 0 listeners', async () => {
    const client = await gateway();
    const session = new AbortController();
    const modes = ['ok', 'error', 'cut', 'drop', 'json', 'http500'];
    for (let i = 0; i < 12; i++) {
      await client
        .streamMessage(ask(modes[i % modes.length]), { signal: session.signal })
        .finalMessage()
        .catch(() => undefined);
    }
    assert.equal(listeners(session.signal), 0);
  });

  it('a stream in flight holds exactly one listener, released when it is aborted on its own', async () => {
    const client = await gateway();
    const session = new AbortController();
    const stream = client.streamMessage(ask('hang'), { signal: session.signal });
    const settled = stream.finalMessage().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(listeners(session.signal), 1);
    stream.abort();
    assert.equal(((await settled) as { kind: string }).kind, 'aborted');
    assert.equal(listeners(session.signal), 0);
    assert.equal(session.signal.aborted, false);
  });

  it('breaking out of the iteration releases the listener', async () => {
    const client = await gateway();
    const session = new AbortController();
    for (let i = 0; i < 3; i++) {
      for await (const _event of client.streamMessage(ask('ok'), { signal: session.signal })) break;
    }
    assert.equal(listeners(session.signal), 0);
  });

  it('the caller aborting still cancels the stream in flight', async () => {
    const client = await gateway();
    const session = new AbortController();
    const stream = client.streamMessage(ask('hang'), { signal: session.signal });
    const settled = stream.finalMessage().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    session.abort();
    assert.equal(((await settled) as { kind: string }).kind, 'aborted');
    assert.equal(listeners(session.signal), 0);
  });

  it('createMessage, listModels, waitForImageTask, generateImage and submitImageTask on one signal leave 0 listeners', async () => {
    const client = await gateway();
    const session = new AbortController();
    for (let i = 0; i < 4; i++) {
      await client.createMessage(ask('json'), { signal: session.signal });
      await client.createMessage(ask('http500'), { signal: session.signal }).catch(() => undefined);
      await client.listModels({ signal: session.signal });
      await client.waitForImageTask('t1', { signal: session.signal });
      await client.generateImage({ model: 'img', prompt: 'p' }, { signal: session.signal });
      await client.submitImageTask('generation', { model: 'img', prompt: 'p' }, { signal: session.signal });
    }
    assert.equal(listeners(session.signal), 0);
  });

  it('requests queued behind a 429 (Retry-After) leave 0 listeners once sent', async () => {
    let first = true;
    server = await startServer((req, res) => {
      if (first) {
        first = false;
        return json(res, 429, { error: { type: 'rate_limit_error', message: 'slow' } }, { 'retry-after-ms': '30' });
      }
      return json(res, 200, { data: [{ id: 'a' }] });
    });
    const client = createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 1 });
    const session = new AbortController();
    await Promise.all(Array.from({ length: 4 }, () => client.listModels({ signal: session.signal })));
    assert.equal(listeners(session.signal), 0);
  });
});
