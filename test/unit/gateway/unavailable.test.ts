// "The key may not call this model", as each real gateway says it (docs/gateway-protocol.md#real-gateways): new-api 503
// model_not_found, sub2api 503 "No available accounts", LiteLLM 400 "Invalid model name", the spec's 403.
// One POST over 127.0.0.1 per dialect, no replay, and one diagnosis: the spec's causes, Refresh Models,
// never retry, never the provider's fault. Also: a 404 on a route while the list works, and 501.
import { strict as assert } from 'node:assert';
import { adviseOnError, createGatewayClient } from '../../../src/gateway';
import { isModelUnavailable } from '../../../src/gateway/errors/advice';
import { defaultConfig, startEmulator, type Emulator } from '../../../src/emulator';
import { json, startServer, type TestServer } from './server';
import { failure } from '../../support/failure';

const DEMO = 'mg-demo-key-0001';
const EXPECTED_STATUS: Record<string, number> = {
  default: 403,
  'new-api': 503,
  'one-api': 503,
  sub2api: 503,
  litellm: 400,
};

describe('gateway: "not available to your key" over every dialect', () => {
  for (const [dialect, status] of Object.entries(EXPECTED_STATUS)) {
    it(`${dialect}: HTTP ${status} → one POST, the spec's advice, Refresh Models, no retry, not the provider`, async () => {
      const emu: Emulator = await startEmulator({ config: { ...defaultConfig(), dialect } });
      try {
        const client = createGatewayClient({ baseUrl: emu.url, apiKey: DEMO });
        const e = await failure(
          client.createMessage({
            model: 'claude-alt-opus',
            max_tokens: 16,
            messages: [{ role: 'user', content: 'hi' }],
          }),
        );
        assert.equal(e.status, status);
        // one-api has no /v1/messages: that refusal (before any processing) sends the same request once over
        // chat-completions, where the model is refused; nothing is sent twice on any route.
        const expected = dialect === 'one-api' ? ['/v1/messages', '/v1/chat/completions'] : ['/v1/messages'];
        const posts = emu.requests().filter((r) => r.method === 'POST');
        assert.deepEqual(
          posts.map((r) => r.path),
          expected,
          'sent once',
        );
        assert.equal(e.upstream, undefined, 'not blamed on the provider');
        assert.ok(isModelUnavailable(e));
        const advice = adviseOnError(e, { surface: 'chat', baseUrl: emu.url });
        assert.match(advice.title, /"claude-alt-opus" is not available to your key/);
        assert.match(advice.detail, /key group.*model mapping.*protocol/);
        assert.ok(advice.actions.includes('refreshModels'));
        assert.ok(!advice.actions.includes('retry'));
        assert.doesNotMatch(`${advice.title} ${advice.detail}`, /provider behind/);
      } finally {
        await emu.close();
      }
    });
  }
});

describe('gateway: routes a gateway does not offer', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a 404 on an image route while GET /v1/models works: the route is missing, the base URL is right', async () => {
    server = await startServer((_req, res) =>
      json(res, 404, {
        error: { message: 'Invalid URL (POST /v1/images/generations/async)', type: 'invalid_request_error' },
      }),
    );
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).submitImageTask('generation', {
        model: 'gpt-image-1',
        prompt: 'p',
      }),
    );
    const advice = adviseOnError(e, { surface: 'image', baseUrl: server.url, listWorks: true });
    assert.match(advice.title, /does not offer POST \/v1\/images\/generations\/async/);
    assert.ok(!advice.actions.includes('openBaseUrlSetting'));
    // Without the list's evidence, the old reading stands.
    assert.ok(adviseOnError(e, { surface: 'image', baseUrl: server.url }).actions.includes('openBaseUrlSetting'));
  });

  it('sub2api "Images API is not supported for this platform" (404) does not blame the base URL', async () => {
    server = await startServer((_req, res) =>
      json(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: 'Images API is not supported for this platform' },
      }),
    );
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).generateImage({ model: 'gpt-image-1', prompt: 'p' }),
    );
    const advice = adviseOnError(e, { surface: 'image', baseUrl: server.url });
    assert.match(advice.title, /does not offer/);
    assert.doesNotMatch(advice.detail, /wrong base URL/);
  });

  it("one-api's image edit 501: not implemented, no retry, sent once", async () => {
    const emu = await startEmulator({ config: { ...defaultConfig(), dialect: 'one-api' } });
    try {
      const client = createGatewayClient({ baseUrl: emu.url, apiKey: DEMO });
      const png = Buffer.from('89504e470d0a1a0a', 'hex');
      const e = await failure(
        client.editImage({
          model: 'gpt-image-demo',
          prompt: 'p',
          images: [{ data: png, filename: 'a.png', mimeType: 'image/png' }],
        }),
      );
      assert.equal(e.status, 501);
      assert.equal(emu.requests().length, 1);
      const advice = adviseOnError(e, { surface: 'image', baseUrl: emu.url });
      assert.match(advice.title, /does not implement POST \/v1\/images\/edits \(501\)/);
      assert.ok(!advice.actions.includes('retry'));
    } finally {
      await emu.close();
    }
  });
});
