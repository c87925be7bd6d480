// Charges at request time from size, quality, n, reference images and edit; balance limits access.

import { strict as assert } from 'node:assert';
import { defaultConfig } from '../../../src/emulator';
import { imagePrice } from '../../../src/emulator/billing';
import { renderPromptImage } from '../../../src/emulator/png';
import { EmulatorAdmin } from '../../support/emulatorAdmin';
import { DEMO, LOW_BALANCE, chatBody, imageHeaders, messagesHeaders, post, useEmulator } from './helpers';

const prices = defaultConfig().prices;
const dataUrl = (): string => `data:image/png;base64,${renderPromptImage('ref', 16, 16).toString('base64')}`;

describe('emulator: billing', () => {
  const emu = useEmulator();

  it('imagePrice: size, quality, n, references and edit each change the price', () => {
    const base = { width: 1024, height: 1024, n: 1, references: 0, edit: false };
    const p = (c: Partial<typeof base> & { quality?: string }): number => imagePrice(prices, { ...base, ...c });
    assert.equal(p({}), 0.04);
    assert.equal(p({ width: 256, height: 256 }), 0.04, 'below 1 MP costs the base price');
    assert.equal(p({ width: 2048, height: 2048 }), 0.16);
    assert.equal(p({ quality: 'high' }), 0.08);
    assert.equal(p({ quality: 'low' }), 0.02);
    assert.equal(p({ n: 3 }), 0.12);
    assert.equal(p({ references: 2, edit: true }), 0.04 + 0.02 + 0.02);
  });

  it('a generation is charged at request time and logged with the charge', async () => {
    const res = await post(
      emu(),
      '/v1/images/generations',
      { model: 'flux-demo-schnell', prompt: 'p', size: '2048x1024', quality: 'high', n: 2 },
      imageHeaders(),
    );
    assert.equal(res.status, 200);
    assert.equal(emu().balance(DEMO), 100 - 2 * 0.04 * 2 * 2);
    assert.equal(emu().requests()[0].charged, 0.32);
  });

  it('an edit adds reference images and the edit surcharge (JSON data URLs with a mask)', async () => {
    const res = await post(
      emu(),
      '/v1/images/edits',
      {
        model: 'gpt-image-demo',
        prompt: 'p',
        size: '64x64',
        images: [{ image_url: dataUrl() }, { image_url: dataUrl() }],
        mask: { image_url: dataUrl() },
      },
      imageHeaders(),
    );
    assert.equal(res.status, 200);
    assert.equal(emu().requests()[0].charged, 0.04 + 2 * 0.01 + 0.02);
  });

  it('an edit without source images, or with a source that is not an image, is a 400 and not charged', async () => {
    const none = await post(emu(), '/v1/images/edits', { model: 'gpt-image-demo', prompt: 'p' }, imageHeaders());
    assert.equal(none.status, 400);
    const text = `data:image/png;base64,${Buffer.from('this is not a png at all').toString('base64')}`;
    const bad = await post(
      emu(),
      '/v1/images/edits',
      { model: 'gpt-image-demo', prompt: 'p', images: [{ image_url: text }] },
      imageHeaders(),
    );
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /not an image/);
    const remote = await post(
      emu(),
      '/v1/images/edits',
      { model: 'gpt-image-demo', prompt: 'p', images: [{ image_url: 'https://x/y.png' }] },
      imageHeaders(),
    );
    assert.equal(remote.status, 400);
    assert.equal(emu().balance(DEMO), 100);
  });

  it('messages are charged per request; a balance below the price gets 403 INSUFFICIENT_BALANCE and no charge', async () => {
    const reply = (await (await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders())).json()) as {
      usage: { input_tokens: number; output_tokens: number };
    };
    // claude-demo-sonnet's listed 3 / 15 per million tokens: what the answer's "gateway price" says is what is charged.
    const cost = (reply.usage.input_tokens * 3 + reply.usage.output_tokens * 15) / 1e6;
    assert.equal(emu().balance(DEMO), Math.round((100 - cost) * 1e6) / 1e6);
    const low = await post(
      emu(),
      '/v1/images/generations',
      { model: 'gpt-image-demo', prompt: 'p' },
      imageHeaders(LOW_BALANCE),
    );
    assert.equal(low.status, 403);
    assert.equal(((await low.json()) as { code: string }).code, 'INSUFFICIENT_BALANCE');
    assert.equal(emu().balance(LOW_BALANCE), 0.00001);
  });

  it('the balance runs out: the call that would overdraw is refused', async () => {
    await new EmulatorAdmin(emu().url).setBalance(DEMO, 0.1);
    const gen = (): Promise<Response> =>
      post(emu(), '/v1/images/generations', { model: 'gpt-image-demo', prompt: 'p', size: '16x16' }, imageHeaders());
    assert.equal((await gen()).status, 200);
    assert.equal((await gen()).status, 200);
    assert.equal((await gen()).status, 403);
    assert.equal(Math.round(emu().balance(DEMO)! * 1e6) / 1e6, 0.02);
  });
});
