// Every error row of the spec, in the body shapes real gateways send, with a request id on every reply.

import { strict as assert } from 'node:assert';
import { defaultConfig, startEmulator } from '../../../src/emulator';
import {
  ALT,
  CHAT_ONLY,
  DEMO,
  DISABLED_GROUP,
  LOW_BALANCE,
  REVOKED,
  chatBody,
  imageHeaders,
  messagesHeaders,
  post,
  useEmulator,
} from './helpers';

const IMAGE = { model: 'gpt-image-demo', prompt: 'p', size: '64x64' };

describe('emulator: error rows', () => {
  const emu = useEmulator();

  async function expectMessagesError(res: Response, status: number, type: string, pattern: RegExp): Promise<void> {
    assert.equal(res.status, status);
    const id = res.headers.get('request-id');
    assert.ok(id && id === res.headers.get('x-request-id'));
    const body = (await res.json()) as { type: string; error: { type: string; message: string }; request_id: string };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, type);
    assert.match(body.error.message, pattern);
    assert.equal(body.request_id, id);
  }

  async function expectOpenAiError(res: Response, status: number, pattern: RegExp, code?: string): Promise<void> {
    assert.equal(res.status, status);
    const body = (await res.json()) as {
      error: { message: string; type: string; code: string | null };
      request_id: string;
    };
    assert.match(body.error.message, pattern);
    if (code) assert.equal(body.error.code, code);
    assert.equal(body.request_id, res.headers.get('request-id'));
  }

  async function expectFlat(res: Response, code: string, pattern: RegExp): Promise<void> {
    assert.equal(res.status, 403);
    const body = (await res.json()) as { code: string; message: string; request_id: string };
    assert.equal(body.code, code);
    assert.match(body.message, pattern);
    assert.equal(body.request_id, res.headers.get('request-id'));
  }

  it('401 on /v1/messages: missing, wrong and revoked keys each say why (Messages style)', async () => {
    const h = messagesHeaders();
    delete h['x-api-key'];
    await expectMessagesError(
      await post(emu(), '/v1/messages', chatBody('x'), h),
      401,
      'authentication_error',
      /Missing API key.*x-api-key/,
    );
    await expectMessagesError(
      await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders('mg-wrong')),
      401,
      'authentication_error',
      /Invalid API key/,
    );
    await expectMessagesError(
      await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders(REVOKED)),
      401,
      'authentication_error',
      /revoked/,
    );
  });

  it('401 on image routes: OpenAI style; x-api-key alone is not accepted there', async () => {
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', IMAGE, imageHeaders('mg-wrong')),
      401,
      /Invalid API key/,
      'INVALID_API_KEY',
    );
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', IMAGE, imageHeaders(REVOKED)),
      401,
      /revoked/,
      'API_KEY_DISABLED',
    );
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', IMAGE, { 'x-api-key': DEMO, 'content-type': 'application/json' }),
      401,
      /Bearer/,
    );
  });

  it('GET /v1/models takes either auth header and is scoped to the key', async () => {
    const viaBearer = (await (
      await fetch(`${emu().url}/v1/models`, { headers: { authorization: `Bearer ${ALT}` } })
    ).json()) as { data: Array<{ id: string }> };
    assert.deepEqual(
      viaBearer.data.map((m) => m.id),
      ['claude-alt-opus', 'flux-demo-schnell'],
    );
    const viaApiKey = (await (
      await fetch(`${emu().url}/v1/models`, { headers: { 'x-api-key': CHAT_ONLY } })
    ).json()) as { data: Array<{ id: string }> };
    assert.deepEqual(
      viaApiKey.data.map((m) => m.id),
      ['claude-demo-sonnet', 'claude-demo-haiku'],
    );
    assert.equal((await fetch(`${emu().url}/v1/models`)).status, 401);
  });

  it('403: group disabled, route not enabled, model not in group, balance: each its own code and message', async () => {
    await expectFlat(
      await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders(DISABLED_GROUP)),
      'GROUP_DISABLED',
      /disabled/,
    );
    await expectFlat(
      await post(emu(), '/v1/images/generations', IMAGE, imageHeaders(CHAT_ONLY)),
      'IMAGE_NOT_ENABLED',
      /image generation is not enabled for this group/,
    );
    await expectFlat(
      await post(emu(), '/v1/messages', chatBody('x', { model: 'claude-alt-opus' }), messagesHeaders(DEMO)),
      'MODEL_NOT_AVAILABLE',
      /model not available for this group/,
    );
    await expectFlat(
      await post(emu(), '/v1/images/generations', { ...IMAGE, model: 'gpt-image-demo' }, imageHeaders(ALT)),
      'MODEL_NOT_AVAILABLE',
      /gpt-image-demo/,
    );
    await expectFlat(
      await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders(LOW_BALANCE)),
      'INSUFFICIENT_BALANCE',
      /balance/,
    );
  });

  it('a chat model on an image route and an image model on /v1/messages are refused with a clear message', async () => {
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', { ...IMAGE, model: 'claude-demo-sonnet' }, imageHeaders()),
      400,
      /chat \(Messages\) model.*image routes/,
    );
    await expectMessagesError(
      await post(emu(), '/v1/messages', chatBody('x', { model: 'flux-demo-schnell' }), messagesHeaders()),
      400,
      'invalid_request_error',
      /image model.*\/v1\/messages/,
    );
  });

  it('404 with a base-URL hint for wrong paths; 405 for a wrong method', async () => {
    for (const path of ['/v1/v1/messages', '/messages', '/v1/complete', '/v1/messages/v1/messages', '/']) {
      const res = await post(emu(), path, chatBody('x'), messagesHeaders());
      assert.equal(res.status, 404, path);
      assert.ok(res.headers.get('request-id'));
      const text = await res.text();
      assert.match(text, /base URL/, path);
    }
    await expectMessagesError(
      await post(emu(), '/v1/v1/messages', chatBody('x'), messagesHeaders()),
      404,
      'not_found_error',
      /\/v1 twice/,
    );
    assert.equal((await fetch(`${emu().url}/v1/messages`, { headers: messagesHeaders() })).status, 405);
  });

  it('400: missing or unknown version header, malformed JSON, bad fields', async () => {
    const h = messagesHeaders();
    delete h['anthropic-version'];
    await expectMessagesError(
      await post(emu(), '/v1/messages', chatBody('x'), h),
      400,
      'invalid_request_error',
      /anthropic-version: header is required/,
    );
    await expectMessagesError(
      await post(emu(), '/v1/messages', chatBody('x'), { ...messagesHeaders(), 'anthropic-version': '1999-01-01' }),
      400,
      'invalid_request_error',
      /not a supported version/,
    );
    await expectMessagesError(
      await post(emu(), '/v1/messages', '{"model": "claude', messagesHeaders()),
      400,
      'invalid_request_error',
      /Malformed JSON/,
    );
    await expectMessagesError(
      await post(emu(), '/v1/messages', { model: 'claude-demo-sonnet', messages: [] }, messagesHeaders()),
      400,
      'invalid_request_error',
      /max_tokens/,
    );
    await expectOpenAiError(await post(emu(), '/v1/images/generations', '[1,2', imageHeaders()), 400, /Malformed JSON/);
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', IMAGE, { ...imageHeaders(), 'content-type': 'text/plain' }),
      400,
      /content-type: expected application\/json/,
    );
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', { ...IMAGE, size: '4096x4096' }, imageHeaders()),
      400,
      /size/,
    );
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', { ...IMAGE, size: '8x8' }, imageHeaders()),
      400,
      /16 to 2048/,
    );
    await expectOpenAiError(
      await post(emu(), '/v1/images/generations', { ...IMAGE, prompt: '' }, imageHeaders()),
      400,
      /prompt/,
    );
  });

  it('the version header name is configurable', async () => {
    const config = defaultConfig();
    config.messages.versionHeader = 'vendor-version';
    const other = await startEmulator({ config });
    try {
      const ok = await post(other, '/v1/messages', chatBody('x'), {
        'x-api-key': DEMO,
        'vendor-version': '2023-06-01',
        'content-type': 'application/json',
      });
      assert.equal(ok.status, 200);
      const missing = await post(other, '/v1/messages', chatBody('x'), messagesHeaders());
      assert.equal(missing.status, 400);
      assert.match(await missing.text(), /vendor-version: header is required/);
    } finally {
      await other.close();
    }
  });

  it('basePath: API routes only under the prefix, with the prefixed root in the 404 hint', async () => {
    const config = defaultConfig();
    config.basePath = '/proxy/gw';
    const other = await startEmulator({ config });
    try {
      assert.equal((await post(other, '/proxy/gw/v1/messages', chatBody('x'), messagesHeaders())).status, 200);
      const bare = await post(other, '/v1/messages', chatBody('x'), messagesHeaders());
      assert.equal(bare.status, 404);
      assert.match(await bare.text(), /\/proxy\/gw\)/);
      assert.equal(other.requests()[0].path, '/proxy/gw/v1/messages');
    } finally {
      await other.close();
    }
  });

  it('every reply carries request-id and x-request-id, including success and admin-free files 404', async () => {
    for (const res of [
      await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders()),
      await fetch(`${emu().url}/v1/models`, { headers: { authorization: `Bearer ${DEMO}` } }),
      await fetch(`${emu().url}/files/nothing.png`),
      await fetch(`${emu().url}/v1/images/tasks/imgtask_none`, { headers: { authorization: `Bearer ${DEMO}` } }),
    ]) {
      assert.match(res.headers.get('request-id') ?? '', /^req_emu_[0-9a-f]{24}$/);
      assert.equal(res.headers.get('x-request-id'), res.headers.get('request-id'));
      await res.arrayBuffer();
    }
  });
});
