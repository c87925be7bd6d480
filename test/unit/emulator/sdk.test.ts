// Fidelity: the official SDKs accept the emulator's replies.

import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import { strict as assert } from 'node:assert';
import { pngSize, renderPromptImage } from '../../../src/emulator/png';
import { DEMO, useEmulator } from './helpers';

describe('emulator: official SDKs', () => {
  const emu = useEmulator();
  const anthropic = (): Anthropic => new Anthropic({ baseURL: emu().url, apiKey: DEMO, maxRetries: 0 });
  const openai = (): OpenAI => new OpenAI({ baseURL: `${emu().url}/v1`, apiKey: DEMO, maxRetries: 0 });

  it('@anthropic-ai/sdk: non-streaming create returns the quoted prompt', async () => {
    const msg = await anthropic().messages.create({
      model: 'claude-demo-sonnet',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Hello <b>SDK</b> 👋' }],
    });
    assert.equal(msg.type, 'message');
    assert.equal(msg.stop_reason, 'end_turn');
    const block = msg.content[0];
    assert.equal(block.type, 'text');
    assert.ok(block.type === 'text' && block.text.includes('Hello <b>SDK</b> 👋'));
    assert.ok(msg.usage.output_tokens > 10);
  });

  it('@anthropic-ai/sdk: streaming yields the same text and final usage', async () => {
    const stream = anthropic().messages.stream({
      model: 'claude-demo-haiku',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Stream 你好 [[thinking]]' }],
    });
    let text = '';
    stream.on('text', (t) => {
      text += t;
    });
    const final = await stream.finalMessage();
    assert.deepEqual(
      final.content.map((b) => b.type),
      ['thinking', 'text'],
    );
    const last = final.content[1];
    assert.ok(last.type === 'text' && last.text === text);
    assert.ok(text.includes('Stream 你好 [[thinking]]'));
    assert.ok(text.includes('```ts'));
    assert.ok(final.usage.output_tokens > 10);
  });

  it('@anthropic-ai/sdk: streamed tool use parses into an input object', async () => {
    const final = await anthropic()
      .messages.stream({
        model: 'claude-demo-sonnet',
        max_tokens: 1024,
        tools: [
          {
            name: 'get_weather',
            input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } },
          },
        ],
        messages: [{ role: 'user', content: 'Weather in Paris? [[tool]]' }],
      })
      .finalMessage();
    assert.equal(final.stop_reason, 'tool_use');
    const tool = final.content.find((b) => b.type === 'tool_use');
    assert.ok(tool && tool.type === 'tool_use');
    assert.equal(tool.name, 'get_weather');
    assert.deepEqual(tool.input, { city: 'Weather in Paris?', days: 42 });
  });

  it('@anthropic-ai/sdk: models.list and typed errors', async () => {
    const ids: string[] = [];
    for await (const m of anthropic().models.list()) ids.push(m.id);
    assert.deepEqual(ids, ['claude-demo-sonnet', 'claude-demo-haiku', 'gpt-image-demo', 'flux-demo-schnell']);
    const bad = new Anthropic({ baseURL: emu().url, apiKey: 'mg-revoked-0004', maxRetries: 0 });
    await assert.rejects(
      bad.messages.create({ model: 'claude-demo-sonnet', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
      (err: unknown) => err instanceof Anthropic.AuthenticationError && /revoked/.test(err.message) && !!err.requestID,
    );
  });

  it('openai SDK: images.generate returns a PNG of the requested size', async () => {
    const res = await openai().images.generate({ model: 'gpt-image-demo', prompt: 'a red fox', size: '256x256', n: 2 });
    assert.equal(res.data?.length, 2);
    const png = Buffer.from(res.data![0].b64_json!, 'base64');
    assert.deepEqual(pngSize(png), { width: 256, height: 256 });
  });

  it('openai SDK: images.edit with a file (multipart)', async () => {
    const source = renderPromptImage('source', 64, 64);
    const res = await openai().images.edit({
      model: 'gpt-image-demo',
      prompt: 'make it blue',
      size: '512x256',
      image: await toFile(source, 'source.png', { type: 'image/png' }),
    });
    const png = Buffer.from(res.data![0].b64_json!, 'base64');
    assert.deepEqual(pngSize(png), { width: 512, height: 256 });
    const entry = emu()
      .requests()
      .find((r) => r.route === 'images.edits');
    assert.equal(entry?.status, 200);
    assert.equal(entry?.charged, 0.04 + 0.01 + 0.02, 'one reference image + the edit surcharge');
  });

  it('openai SDK: images.edit with several files and response_format url', async () => {
    const file = async (name: string) => toFile(renderPromptImage(name, 32, 32), `${name}.png`, { type: 'image/png' });
    const res = await openai().images.edit({
      model: 'flux-demo-schnell',
      prompt: 'merge',
      size: '128x128',
      response_format: 'url',
      image: [await file('a'), await file('b')],
      mask: await file('m'),
    });
    const url = res.data![0].url!;
    assert.ok(url.startsWith(`${emu().url}/files/`));
    const png = Buffer.from(await (await fetch(url)).arrayBuffer());
    assert.deepEqual(pngSize(png), { width: 128, height: 128 });
    assert.equal(
      emu()
        .requests()
        .find((r) => r.route === 'images.edits')?.charged,
      0.04 + 2 * 0.01 + 0.02,
    );
  });
});
