// The emulator's gateway dialects on the wire (raw HTTP, no client): each reproduces the shapes its
// gateway family sends (see the facts at the top of each src/emulator/dialects/*.ts), the switch works
// by emulator.json and by header, and without a dialect nothing changes.
import assert from 'node:assert/strict';
import { defaultConfig, FAULT_HEADER, parseConfigText } from '../../../src/emulator';
import { DIALECT_HEADER } from '../../../src/emulator/dialects';
import { chatBody, DEMO, LOW_BALANCE, messagesHeaders, post, useEmulator } from './helpers';

const dialect = (name: string, extra: Record<string, string> = {}): Record<string, string> => ({
  ...messagesHeaders(),
  [DIALECT_HEADER]: name,
  ...extra,
});
const fault = (f: Record<string, unknown>): Record<string, string> => ({ [FAULT_HEADER]: JSON.stringify(f) });
const TOOL_BODY = chatBody('Use it [[tool]]', {
  stream: true,
  tools: [{ name: 'lookup', input_schema: { type: 'object', properties: { query: { type: 'string' } } } }],
});

/** SSE text → [{event, data}] keeping events without an `event:` line ('' then) and comment lines (as event ':'). */
function frames(text: string): Array<{ event: string; data: string }> {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => l.startsWith(':'))) return { event: ':', data: lines.join('\n') };
      return {
        event: lines.find((l) => l.startsWith('event: '))?.slice(7) ?? '',
        data: lines
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n'),
      };
    });
}

describe('emulator dialects on the wire', () => {
  const emu = useEmulator();

  it('without a dialect nothing changes: Messages error body with request_id, both request-id headers', async () => {
    const res = await post(emu(), '/v1/messages', chatBody('hi'), { ...messagesHeaders('mg-wrong-0000') });
    assert.equal(res.status, 401);
    const id = res.headers.get('request-id');
    assert.ok(id && res.headers.get('x-request-id') === id);
    assert.deepEqual(await res.json(), {
      type: 'error',
      error: { type: 'authentication_error', message: 'Invalid API key: the key is incomplete or wrong.' },
      request_id: id,
    });
  });

  it('an unknown dialect name in the header is a 400 naming the known ones; in emulator.json it is refused at load', async () => {
    const res = await post(emu(), '/v1/messages', chatBody('hi'), dialect('nope'));
    assert.equal(res.status, 400);
    assert.match(
      ((await res.json()) as { error: { message: string } }).error.message,
      /unknown dialect 'nope'.*new-api/,
    );
    assert.throws(
      () => parseConfigText(JSON.stringify({ ...defaultConfig(), dialect: 'nope' })),
      /unknown dialect 'nope'/,
    );
    assert.equal(parseConfigText(JSON.stringify({ ...defaultConfig(), dialect: 'litellm' })).dialect, 'litellm');
  });

  it('new-api: X-Oneapi-Request-Id, "(request id: …)" in every message, new_api_error middleware shape, Claude shape for relay errors, ": PING" comments', async () => {
    const auth = await post(
      emu(),
      '/v1/messages',
      chatBody('hi'),
      dialect('new-api', { 'x-api-key': 'mg-wrong-0000' }),
    );
    const id = auth.headers.get('x-oneapi-request-id');
    assert.ok(id);
    assert.equal(auth.headers.get('request-id'), null);
    const body = (await auth.json()) as { error: { message: string; type: string } };
    assert.equal(body.error.type, 'new_api_error');
    assert.ok(body.error.message.endsWith(` (request id: ${id})`), body.error.message);

    const relay = await post(emu(), '/v1/messages', chatBody('hi'), dialect('new-api', fault({ status: 503 })));
    const relayBody = (await relay.json()) as {
      type: string;
      error: { type: string; message: string };
      request_id?: string;
    };
    assert.equal(relayBody.type, 'error');
    assert.equal(relayBody.request_id, undefined);
    assert.match(relayBody.error.message, /\(request id: req_emu_/);

    const stream = await post(emu(), '/v1/messages', chatBody('hi', { stream: true }), dialect('new-api'));
    const f = frames(await stream.text());
    assert.equal(f[0].event, ':');
    assert.ok(f.filter((x) => x.event === ':').length >= 2);
    assert.equal(f.at(-1)?.event, 'message_stop');

    const unknown = await fetch(`${emu().url}/v1/nowhere`, { headers: dialect('new-api') });
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), {
      error: { message: 'Invalid URL (GET /v1/nowhere)', type: 'invalid_request_error', param: '', code: '' },
    });
  });

  it('one-api: {"error":{"message":"… (request id: …)","type":"one_api_error"}} on every error', async () => {
    // one-api has no /v1/messages: its errors are seen on /v1/chat/completions, with the key as a bearer token.
    const res = await post(
      emu(),
      '/v1/chat/completions',
      { model: 'claude-demo-sonnet', messages: [{ role: 'user', content: 'hi' }] },
      dialect('one-api', { authorization: `Bearer ${LOW_BALANCE}` }),
    );
    assert.equal(res.status, 403);
    const body = (await res.json()) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error).sort(), ['message', 'type']);
    assert.equal(body.error.type, 'one_api_error');
    assert.match(String(body.error.message), /balance.*\(request id: req_emu_/);
  });

  it('sub2api: flat key errors, upstream 5xx remapped to 502 upstream_error, a bare ping before message_start, a bare error frame mid-stream', async () => {
    const flat = await post(emu(), '/v1/messages', chatBody('hi'), dialect('sub2api', { 'x-api-key': LOW_BALANCE }));
    assert.equal(flat.status, 403);
    assert.deepEqual(Object.keys((await flat.json()) as object).sort(), ['code', 'message']);

    const up = await post(emu(), '/v1/messages', chatBody('hi'), dialect('sub2api', fault({ status: 500 })));
    assert.equal(up.status, 502);
    assert.deepEqual(await up.json(), {
      type: 'error',
      error: { type: 'upstream_error', message: 'Upstream service temporarily unavailable' },
    });

    const stream = await post(
      emu(),
      '/v1/messages',
      chatBody('hi', { stream: true }),
      dialect('sub2api', fault({ errorAfterEvents: 5, tokensPerSecond: 0 })),
    );
    const f = frames(await stream.text());
    assert.deepEqual(f[0], { event: '', data: '{"type": "ping"}' });
    assert.equal(f[1].event, 'message_start');
    const last = f.at(-1)!;
    assert.equal(last.event, '');
    assert.equal((JSON.parse(last.data) as { type: string }).type, 'error');
  });

  it('litellm: x-litellm-call-id, {"error":{message,type,param,code:"<status>"}}, the key\'s last 4 echoed, FastAPI 404, a bare {"error":…} frame mid-stream', async () => {
    const auth = await post(
      emu(),
      '/v1/messages',
      chatBody('hi'),
      dialect('litellm', { 'x-api-key': 'mg-wrong-key-WXYZ' }),
    );
    assert.equal(auth.status, 401);
    assert.match(auth.headers.get('x-litellm-call-id') ?? '', /^[0-9a-f-]{36}$/);
    const body = (await auth.json()) as { error: { message: string; type: string; param: string; code: string } };
    assert.equal(body.error.code, '401');
    assert.equal(body.error.type, 'token_not_found_in_db');
    assert.match(body.error.message, /Received API Key = sk-\.\.\.WXYZ, Key Hash/);
    assert.ok(!body.error.message.includes('mg-wrong-key-WXYZ'));

    const unknown = await fetch(`${emu().url}/v1/nowhere`, { headers: dialect('litellm') });
    assert.deepEqual(await unknown.json(), { detail: 'Not Found' });

    const stream = await post(
      emu(),
      '/v1/messages',
      chatBody('hi', { stream: true }),
      dialect('litellm', fault({ errorAfterEvents: 5, tokensPerSecond: 0 })),
    );
    const last = frames(await stream.text()).at(-1)!;
    assert.equal(last.event, '');
    const err = JSON.parse(last.data) as Record<string, unknown>;
    assert.equal(err.type, undefined, 'no "type":"error" at the top');
    assert.match(
      String((err.error as { message: string }).message),
      /^litellm\.InternalServerError: .*overloaded_error/,
    );
  });

  it('router: fastify 404 for GET /v1/models and image routes, no request id, zero usage in message_start, a tool fragment after its content_block_stop', async () => {
    const models = await fetch(`${emu().url}/v1/models`, {
      headers: { ...dialect('router'), authorization: `Bearer ${DEMO}` },
    });
    assert.equal(models.status, 404);
    assert.deepEqual(await models.json(), {
      message: 'Route GET:/v1/models not found',
      error: 'Not Found',
      statusCode: 404,
    });
    assert.equal(models.headers.get('request-id'), null);
    assert.equal(models.headers.get('x-request-id'), null);
    const images = await post(
      emu(),
      '/v1/images/generations',
      { model: 'gpt-image-demo', prompt: 'x' },
      { ...dialect('router'), authorization: `Bearer ${DEMO}` },
    );
    assert.equal(images.status, 404);

    const cut = await post(emu(), '/v1/messages', chatBody('hi'), dialect('router', fault({ status: 500 })));
    assert.deepEqual(await cut.json(), { statusCode: 500, error: 'Internal Server Error', message: 'terminated' });

    const stream = await post(emu(), '/v1/messages', TOOL_BODY, dialect('router', fault({ tokensPerSecond: 0 })));
    const events = frames(await stream.text()).map((x) => ({
      event: x.event,
      data: JSON.parse(x.data) as Record<string, unknown>,
    }));
    assert.deepEqual((events[0].data.message as { usage: unknown }).usage, { input_tokens: 0, output_tokens: 0 });
    assert.ok(!events.some((e) => e.event === 'ping'), 'no ping events');
    const toolIndex = events.findIndex(
      (e) => (e.data.content_block as { type?: string } | undefined)?.type === 'tool_use',
    );
    const index = events[toolIndex].data.index;
    const stopAt = events.findIndex((e) => e.event === 'content_block_stop' && e.data.index === index);
    const after = events.slice(stopAt + 1).filter((e) => e.event === 'content_block_delta' && e.data.index === index);
    assert.equal(after.length, 1, 'one input_json_delta after the block was closed');
    const delta = events.find((e) => e.event === 'message_delta')!.data.usage as Record<string, number>;
    assert.ok(delta.input_tokens > 0 && delta.output_tokens > 0);
  });

  it('html-proxy: nginx pages for 502/503/504 and 413, Cloudflare pages for 52x, no gateway request id on them; other errors pass through', async () => {
    const nginx = await post(emu(), '/v1/messages', chatBody('hi'), dialect('html-proxy', fault({ status: 504 })));
    assert.equal(nginx.status, 504);
    assert.equal(nginx.headers.get('server'), 'nginx');
    assert.equal(nginx.headers.get('request-id'), null);
    assert.match(await nginx.text(), /<title>504 Gateway Time-out<\/title>[\s\S]*<center>nginx<\/center>/);

    const cf = await post(emu(), '/v1/messages', chatBody('hi'), dialect('html-proxy', fault({ status: 524 })));
    assert.equal(cf.status, 524);
    assert.match(cf.headers.get('cf-ray') ?? '', /^[0-9a-f]{16}-FRA$/);
    assert.match(await cf.text(), /524: A timeout occurred/);

    const passes = await post(emu(), '/v1/messages', chatBody('hi'), dialect('html-proxy', fault({ status: 500 })));
    assert.equal(passes.status, 500);
    assert.equal(((await passes.json()) as { type: string }).type, 'error');
  });
});
