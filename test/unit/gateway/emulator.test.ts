// The client against the project's emulator (an independent implementation of the protocol).
import * as assert from 'node:assert/strict';
import { adviseOnError, createGatewayClient } from '../../../src/gateway';
import { defaultConfig } from '../../../src/emulator';
import { failure } from '../../support/failure';
import { useEmulator } from '../../support/emulatorLifecycle';

describe('gateway client against the emulator', function () {
  this.timeout(20_000);
  const emu = useEmulator(
    () => {
      const config = defaultConfig();
      config.tasks = { ...config.tasks, durationMs: 300, retryAfterSec: 0 };
      return config;
    },
    { resetBeforeEach: false },
  );
  const client = (key = 'mg-demo-key-0001'): ReturnType<typeof createGatewayClient> =>
    createGatewayClient({ baseUrl: `${emu().url}/v1/messages`, apiKey: key, pollBackoff: { baseMs: 50, maxMs: 200 } });

  it('lists the models of the key', async () => {
    const ids = (await client().listModels()).map((m) => m.id);
    assert.ok(ids.includes('claude-demo-sonnet') && ids.includes('gpt-image-demo'), ids.join());
  });

  it('streams a reply that quotes the prompt, multi-byte text intact', async () => {
    const stream = client().streamMessage({
      model: 'claude-demo-sonnet',
      max_tokens: 400,
      messages: [{ role: 'user', content: 'Say ünïcødé 🚀 please' }],
    });
    const m = await stream.finalMessage();
    const text = m.content.map((b) => (b.type === 'text' ? (b as { text: string }).text : '')).join('');
    assert.ok(text.includes('Say ünïcødé 🚀 please'), text);
    assert.ok(m.stop_reason);
    assert.ok(m.usage.output_tokens > 0);
  });

  it('creates a message without streaming', async () => {
    const m = await client().createMessage({
      model: 'claude-demo-haiku',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hello' }],
    });
    assert.ok(m.content.length > 0);
  });

  it('generates an image and runs an async task to completion', async () => {
    const sync = await client().generateImage({ model: 'gpt-image-demo', prompt: 'a lighthouse', size: '256x256' });
    assert.equal(sync.images.length, 1);
    const ref = await client().submitImageTask('generation', {
      model: 'gpt-image-demo',
      prompt: 'a lighthouse',
      size: '256x256',
    });
    const task = await client().waitForImageTask(ref.id, { pollUrl: ref.pollUrl });
    assert.equal(task.status, 'succeeded');
    assert.ok(task.images.length >= 1);
  });

  it('revoked key → auth; low balance → forbidden with balance advice; chat-only key → image route refused', async () => {
    const revoked = await failure(client('mg-revoked-0004').listModels());
    assert.equal(revoked.kind, 'auth');
    const poor = await failure(
      client('mg-low-balance-0003').createMessage({
        model: 'claude-demo-sonnet',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'x' }],
      }),
    );
    assert.equal(poor.kind, 'forbidden');
    assert.match(adviseOnError(poor, { surface: 'chat' }).title, /balance/i);
    const chatOnly = await failure(
      client('mg-chat-only-0002').generateImage({ model: 'gpt-image-demo', prompt: 'p', size: '256x256' }),
    );
    assert.equal(chatOnly.kind, 'forbidden');
    assert.notEqual(adviseOnError(chatOnly, { surface: 'image' }).title, '');
  });
});
