// Model kinds from what each gateway says (docs/gateway-protocol.md#real-gateways): the client lists a realistic
// key's models through every emulator dialect over 127.0.0.1, and the catalog's kinds must keep embedding,
// speech, video, rerank and Responses-only models out of the chat picker and let the image models in.
import { strict as assert } from 'node:assert';
import { classifyModel, hintsOf, splitByKind } from '../../../src/catalog/classify';
import { toSnapshot } from '../../../src/catalog/cache';
import { defaultConfig, startEmulator, type Emulator, type EmulatorConfig } from '../../../src/emulator';
import { createGatewayClient } from '../../../src/gateway';

const REAL_KEY = 'mg-real-list-0099';

/** A key whose group lists what real new-api / LiteLLM deployments list next to the chat models. */
function realListConfig(): EmulatorConfig {
  const config = defaultConfig();
  config.keys.push({ key: REAL_KEY, name: 'real', group: 'real', balance: 100 });
  const add = (id: string, model: EmulatorConfig['models'][string]): void => {
    config.models[`${id}-up`] = model;
  };
  const ids: Record<string, EmulatorConfig['models'][string]> = {
    'claude-demo-sonnet': { protocol: 'messages' },
    'gpt-image-demo': { protocol: 'images' },
    'cogview-4': { protocol: 'images' },
    mj_imagine: { protocol: 'images' },
    'jimeng-4.0': { protocol: 'images' },
    'wanx2.1-t2i-turbo': { protocol: 'images' },
    'text-embedding-3-small': { protocol: 'messages', kind: 'embedding' },
    'tts-1': { protocol: 'messages', kind: 'audio' },
    'whisper-1': { protocol: 'messages', kind: 'audio' },
    'sora-2': { protocol: 'messages', kind: 'video' },
    'jina-reranker-v2': { protocol: 'messages', kind: 'rerank' },
    'omni-moderation-latest': { protocol: 'messages', kind: 'moderation' },
    // Ids that say nothing: only a gateway's hints (new-api's endpoint types, LiteLLM's mode) tell.
    'house-painter': { protocol: 'images' },
    'gpt-5-codex': { protocol: 'messages', kind: 'responses' },
  };
  for (const [id, model] of Object.entries(ids)) add(id, model);
  config.groups.real = {
    models: Object.fromEntries(Object.keys(ids).map((id) => [id, `${id}-up`])),
    routes: ['messages', 'images.generations', 'images.edits'],
  };
  return config;
}

const EXPECTED: Record<string, string> = {
  'claude-demo-sonnet': 'chat',
  'gpt-image-demo': 'image',
  'cogview-4': 'image',
  mj_imagine: 'image',
  'jimeng-4.0': 'image',
  'wanx2.1-t2i-turbo': 'image',
  'text-embedding-3-small': 'embedding',
  'tts-1': 'audio',
  'whisper-1': 'audio',
  'sora-2': 'video',
  'jina-reranker-v2': 'rerank',
  'omni-moderation-latest': 'moderation',
};

describe('catalog: model kinds over every gateway dialect', () => {
  const emus = new Map<string, Emulator>();
  const DIALECTS = ['default', 'new-api', 'one-api', 'sub2api', 'litellm'];
  before(async () => {
    for (const dialect of DIALECTS)
      emus.set(dialect, await startEmulator({ config: { ...realListConfig(), dialect } }));
  });
  after(async () => {
    for (const emu of emus.values()) await emu.close();
  });
  const clientOf = (dialect: string) => createGatewayClient({ baseUrl: emus.get(dialect)!.url, apiKey: REAL_KEY });

  for (const dialect of DIALECTS) {
    it(`${dialect}: chat and image pickers get only what fits, the others keep their kind`, async () => {
      const emu = emus.get(dialect)!;
      const models = await clientOf(dialect).listModels();
      const snapshot = toSnapshot({ keyFingerprint: 'fp', baseUrl: emu.url, fetchedAt: 1, models }, {});
      const kinds = Object.fromEntries(snapshot.models.map((m) => [m.id, m.kind]));
      const hinted = dialect === 'new-api' || dialect === 'litellm';
      assert.deepEqual(kinds, {
        ...EXPECTED,
        'house-painter': hinted ? 'image' : 'chat',
        // A Responses-only model is a chat model now: it is called over POST /v1/responses.
        'gpt-5-codex': 'chat',
      });
    });
  }

  it('new-api: endpoint types come verbatim on each catalog model (the list is asked without the Anthropic header pair)', async () => {
    const emu = emus.get('new-api')!;
    const client = clientOf('new-api');
    const snapshot = toSnapshot(
      { keyFingerprint: 'fp', baseUrl: emu.url, fetchedAt: 1, models: await client.listModels() },
      {},
    );
    const byId = new Map(snapshot.models.map((m) => [m.id, m]));
    assert.deepEqual(byId.get('claude-demo-sonnet')?.endpointTypes, ['anthropic', 'openai']);
    assert.deepEqual(byId.get('cogview-4')?.endpointTypes?.[0], 'image-generation');
    assert.deepEqual(byId.get('sora-2')?.endpointTypes, ['openai-video']);
  });

  it('litellm: one extra GET /model/info, its modes and limits merged into the entries', async () => {
    const emu = emus.get('litellm')!;
    emu.reset();
    const client = clientOf('litellm');
    const models = await client.listModels();
    assert.deepEqual(
      emu.requests().map((r) => `${r.method} ${r.path}`),
      ['GET /v1/models', 'GET /model/info'],
    );
    const sonnet = toSnapshot({ keyFingerprint: 'fp', baseUrl: emu.url, fetchedAt: 1, models }, {}).models.find(
      (m) => m.id === 'claude-demo-sonnet',
    );
    assert.equal(sonnet?.contextTokens, 200000);
    assert.equal(sonnet?.outputTokens, 64000);
    assert.equal(sonnet?.endpointTypes, undefined);
  });

  it("default: no extra call when the list is not LiteLLM's", async () => {
    const emu = emus.get('default')!;
    emu.reset();
    await clientOf('default').listModels();
    assert.deepEqual(
      emu.requests().map((r) => `${r.method} ${r.path}`),
      ['GET /v1/models'],
    );
  });
});

describe('catalog: a Responses-only model keeps what says so, for the dialect decision', () => {
  it("LiteLLM's /model/info mode `responses` arrives as new-api's `openai-response` endpoint type", () => {
    const hints = hintsOf({ id: 'gpt-5-codex', model_info: { mode: 'responses' } });
    assert.equal(hints.kind, 'chat');
    assert.deepEqual(hints.endpointTypes, ['openai-response']);
  });
});

describe('catalog: hints before ids, overrides before hints', () => {
  it('new-api Codex channels (only openai-response types) are chat models (called over Responses)', () => {
    const raw = { id: 'gpt-5-codex', supported_endpoint_types: ['openai-response', 'openai-response-compact'] };
    assert.equal(classifyModel(raw), 'chat');
    assert.equal(classifyModel('gpt-5-codex'), 'chat');
  });
  it('image-generation first marks an image model whatever its id', () => {
    assert.equal(
      classifyModel({ id: 'qwen-vl-max', supported_endpoint_types: ['image-generation', 'openai'] }),
      'image',
    );
  });
  it("'openai' alone does not hide an embedding id (every new-api channel claims it)", () => {
    assert.equal(
      classifyModel({ id: 'text-embedding-3-large', supported_endpoint_types: ['openai', 'openai-response'] }),
      'embedding',
    );
  });
  it('LiteLLM modes decide over the id', () => {
    assert.equal(classifyModel({ id: 'my-painter', mode: 'image_generation' }), 'image');
    assert.equal(classifyModel({ id: 'gpt-4o-transcribe', mode: 'audio_transcription' }), 'audio');
    assert.equal(classifyModel({ id: 'house-embedder', model_info: { mode: 'embedding' } }), 'embedding');
  });
  it('an Anthropic-style entry with capabilities is a chat model; its limits are read', () => {
    const raw = {
      id: 'router-image-thing',
      type: 'model',
      capabilities: { vision: true },
      max_input_tokens: 128000,
      max_tokens: 8192,
    };
    assert.equal(classifyModel(raw), 'chat');
    assert.deepEqual(hintsOf(raw), { kind: 'chat', contextTokens: 128000, outputTokens: 8192 });
  });
  it('kindOverrides win over the gateway', () => {
    const raw = { id: 'cogview-4', supported_endpoint_types: ['image-generation'] };
    assert.equal(classifyModel(raw, { 'COGVIEW-4': 'chat' }), 'chat');
    assert.equal(classifyModel('tts-1', { 'tts-1': 'embedding' }), 'embedding');
  });
  it('ids are the last resort: the non-chat ids of real lists', () => {
    for (const [id, kind] of Object.entries({
      'text-embedding-ada-002': 'embedding',
      'tts-1-hd': 'audio',
      'whisper-1': 'audio',
      'sora-2-pro': 'video',
      'bge-reranker-v2-m3': 'rerank',
      'rerank-english-v3.0': 'rerank',
      'text-moderation-latest': 'moderation',
      recraftv3: 'image',
      'ideogram-v3': 'image',
      'seedream-4-0': 'image',
      kolors: 'image',
      'wanx-v1-t2i': 'image',
      'claude-sonnet-4-5': 'chat',
    }))
      assert.equal(classifyModel(id), kind, id);
  });
  it('splitByKind lists the other kinds apart, in a fixed order', () => {
    const split = splitByKind([
      { id: 'tts-1' },
      { id: 'gpt-4o' },
      { id: 'text-embedding-3-small' },
      { id: 'dall-e-3' },
    ]);
    assert.deepEqual(
      split.chat.map((m) => m.id),
      ['gpt-4o'],
    );
    assert.deepEqual(
      split.image.map((m) => m.id),
      ['dall-e-3'],
    );
    assert.deepEqual(
      split.other.map((g) => [g.kind, g.models.map((m) => m.id)]),
      [
        ['embedding', ['text-embedding-3-small']],
        ['audio', ['tts-1']],
      ],
    );
  });
});
