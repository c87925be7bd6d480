// Gateways without the spec's async image routes (new-api, one-api, sub2api, LiteLLM mainline): the async
// submit's 404 is recognised as "no such route" (not billable, not a model problem) in every dialect's
// words, the sync route then serves the same request once, and the base URL is remembered.
import { strict as assert } from 'node:assert';
import { createGatewayClient } from '../../../src/gateway';
import { defaultConfig, startEmulator } from '../../../src/emulator';
import {
  SYNC_ONLY_STATE_KEY,
  isAsyncRouteMissing,
  knownWithoutAsync,
  rememberWithoutAsync,
} from '../../../src/platform/imageRoutes';
import { rejection } from '../../support/failure';

const DEMO = 'mg-demo-key-0001';

describe('images: gateways without async routes', () => {
  for (const dialect of ['new-api', 'one-api', 'sub2api', 'litellm']) {
    it(`${dialect}: the async submit's 404 is a missing route, nothing billed; the sync route serves it once`, async () => {
      const emu = await startEmulator({ config: { ...defaultConfig(), dialect } });
      try {
        const client = createGatewayClient({ baseUrl: emu.url, apiKey: DEMO });
        const request = { model: 'gpt-image-demo', prompt: 'a lighthouse', size: '256x256' };
        const error = await rejection(client.submitImageTask('generation', request));
        assert.ok(isAsyncRouteMissing(error), String(error));
        assert.equal(emu.billableCount(), 0);
        const result = await client.generateImage(request);
        assert.equal(result.images.length, 1);
        assert.deepEqual(
          emu.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
          ['POST /v1/images/generations/async 404', 'POST /v1/images/generations 200'],
        );
      } finally {
        await emu.close();
      }
    });
  }

  it('the spec service: async works; a model refusal on the async route is not a missing route', async () => {
    const emu = await startEmulator({ config: defaultConfig() });
    try {
      const client = createGatewayClient({ baseUrl: emu.url, apiKey: DEMO });
      await client.submitImageTask('generation', { model: 'gpt-image-demo', prompt: 'p', size: '256x256' });
      const refused = await client
        .submitImageTask('generation', { model: 'no-such-image-model', prompt: 'p' })
        .then(undefined, (e: unknown) => e);
      assert.equal(isAsyncRouteMissing(refused), false);
    } finally {
      await emu.close();
    }
  });

  it('remembers the base URL once (the user is told once), bounded', async () => {
    const store = new Map<string, unknown>();
    const state = {
      get: <T>(key: string) => store.get(key) as T | undefined,
      update: async (key: string, value: unknown) => void store.set(key, value),
    };
    assert.equal(knownWithoutAsync(state, 'https://gw'), false);
    assert.equal(await rememberWithoutAsync(state, 'https://gw'), true);
    assert.equal(await rememberWithoutAsync(state, 'https://gw'), false);
    assert.equal(knownWithoutAsync(state, 'https://gw'), true);
    assert.equal(knownWithoutAsync(state, 'https://other'), false);
    for (let i = 0; i < 80; i++) await rememberWithoutAsync(state, `https://gw${i}`);
    assert.ok((store.get(SYNC_ONLY_STATE_KEY) as string[]).length <= 50);
  });
});
