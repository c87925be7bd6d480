/// <reference lib="dom" />
// Images into the composer in real Chromium (the chat bundle with the production CSP, a fake host): a pasted
// 4000×3000 screenshot is scaled by the page before it is handed to the host (within 1568 px / ~1.15 MP, a small
// share of the bytes), a JPEG Chromium encoded stays a JPEG, an animated GIF goes as a PNG of its first frame, a
// truncated file or a text file named .png is refused with a sentence; the host's chip shows thumbnail, pixel size,
// tokens and "scaled"; an image for a model believed blind asks before sending.
import { strict as assert } from 'node:assert';
import { imageTokens, readImageHeader, scaledSize, IMAGE_LIMITS } from '../../src/shared/imageFormat';
import { chatGuard, type AddImageParams, type ChatAttachment } from '../../src/shared/protocol/chat';
import { animatedGifBytes, notAPng, pngBytes } from '../support/imageBytes';
import { chatPageSuite, snapshot, type ChatPage } from '../support/chatPage';

type Posted = { type: string; requestId: string } & Partial<AddImageParams>;

describe('chat images (Chromium)', function () {
  this.timeout(120_000);
  let chat: ChatPage;
  const pages = chatPageSuite(async (page) => page.play({ type: 'snapshot', snapshot: snapshot() }));
  beforeEach(() => {
    chat = pages.chat;
  });

  const posted = async (type: string) => (await chat.posted()).filter((m) => m.type === type) as Posted[];
  async function next(type: string): Promise<Posted> {
    for (let i = 0; i < 1000; i++) {
      const all = await posted(type);
      if (all.length > 0) return all[all.length - 1];
      await chat.page.waitForTimeout(20);
    }
    throw new Error(`no ${type} request`);
  }

  /** Pastes files into the composer as the clipboard would (a paste event with a DataTransfer of files). */
  async function paste(files: Array<{ name: string; type: string; base64: string }>): Promise<number> {
    return chat.page.evaluate(async (list) => {
      const input = document.querySelector('.composer .input') as HTMLTextAreaElement;
      const data = new DataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        data.items.add(new File([bytes], f.name, { type: f.type }));
      }
      const start = performance.now();
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return start;
    }, files);
  }

  const bytesOf = (p: Posted) => Buffer.from(p.data ?? '', 'base64');

  it('scales a pasted 4000×3000 screenshot in the page: within the limits, a fraction of the bytes', async () => {
    const original = pngBytes(4000, 3000);
    await paste([{ name: 'shot.png', type: 'image/png', base64: original.toString('base64') }]);
    const add = await next('addImage');
    assert.ok(chatGuard.toHost(add).ok, 'the request passes the host’s guard');
    const header = readImageHeader(bytesOf(add));
    assert.ok(header);
    assert.ok(Math.max(header.width, header.height) <= IMAGE_LIMITS.maxLongEdge);
    assert.ok(header.width * header.height <= IMAGE_LIMITS.maxPixels);
    assert.ok(Math.abs(header.width / header.height - 4 / 3) < 0.01);
    assert.deepEqual(add.original, { width: 4000, height: 3000, bytes: original.length });
    assert.match(add.thumbnail ?? '', /^data:image\/(webp|png);base64,/);
    assert.ok(bytesOf(add).length <= original.length * 0.15, `${bytesOf(add).length} of ${original.length} bytes`);
    // The host's chip: thumbnail, size, tokens, "scaled"; removable.
    const chip: ChatAttachment = {
      id: 'i1',
      kind: 'image',
      path: 'shot.png',
      languageId: '',
      text: '',
      tokens: 1_530,
      image: {
        mediaType: header.mediaType,
        width: header.width,
        height: header.height,
        bytes: bytesOf(add).length,
        hash: 'a'.repeat(64),
        thumbnail: add.thumbnail!,
        original: add.original,
      },
    };
    await chat.play({ type: 'attachments', attachments: [chip] });
    const shown = chat.page.locator('.composer .chip.kind-image');
    await shown.waitFor();
    assert.equal(await shown.locator('img.chip-thumb').getAttribute('src'), add.thumbnail);
    assert.equal(await shown.locator('.chip-size').textContent(), `${header.width}×${header.height} px`);
    assert.equal(await shown.locator('.chip-tokens').textContent(), '~1,530 tokens');
    assert.equal(await shown.locator('.chip-scaled').textContent(), 'scaled');
    assert.match((await shown.getAttribute('title')) ?? '', /scaled down from 4000×3000 px/);
    assert.equal(await shown.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true);
    await shown.locator('[data-action="removeAttachment"]').click();
    const remove = await next('removeAttachment');
    assert.equal((remove as unknown as { attachmentId: string }).attachmentId, 'i1');
  });

  it('keeps a small JPEG as it is, and sends an animated GIF as a PNG of its first frame', async () => {
    const jpeg = await chat.page.evaluate(async () => {
      const canvas = new OffscreenCanvas(320, 200);
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#c00';
      context.fillRect(0, 0, 320, 200);
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      return btoa(String.fromCharCode(...bytes));
    });
    await paste([{ name: 'photo.jpg', type: 'image/jpeg', base64: jpeg }]);
    const add = await next('addImage');
    assert.equal(add.data, jpeg, 'within the limits: the bytes go unchanged');
    assert.equal(add.original, undefined);
    await paste([{ name: 'anim.gif', type: 'image/gif', base64: animatedGifBytes(40, 30).toString('base64') }]);
    let gif: Posted | undefined;
    for (let i = 0; i < 500 && !gif; i++) {
      gif = (await posted('addImage')).find((p) => p.name === 'anim.gif');
      if (!gif) await chat.page.waitForTimeout(20);
    }
    assert.ok(gif);
    assert.deepEqual(readImageHeader(bytesOf(gif)), { mediaType: 'image/png', width: 40, height: 30 });
  });

  it('Ask about This Image: an image the host read is scaled by the page like a pasted one', async () => {
    await chat.play({
      type: 'attachImage',
      name: 'art/hero.png',
      mediaType: 'image/png',
      data: pngBytes(2400, 1600).toString('base64'),
    });
    const add = await next('addImage');
    assert.equal(add.name, 'art/hero.png');
    assert.deepEqual(readImageHeader(bytesOf(add))?.width, 1313);
    assert.equal(add.original?.width, 2400);
  });

  it('refuses a truncated PNG and a text file named .png with a sentence, and sends nothing', async () => {
    await paste([
      { name: 'cut.png', type: 'image/png', base64: pngBytes(300, 200).subarray(0, 200).toString('base64') },
    ]);
    await chat.page.locator('.composer .notice', { hasText: 'cut.png could not be read' }).waitFor();
    await paste([{ name: 'fake.png', type: 'image/png', base64: notAPng.toString('base64') }]);
    await chat.page.locator('.composer .notice', { hasText: 'fake.png could not be read' }).waitFor();
    assert.equal((await posted('addImage')).length, 0);
  });

  it('asks before sending images to a model believed blind; the second Send sends', async () => {
    await chat.play({ type: 'models', models: [{ id: 'text-only', vision: false }] });
    await chat.play({
      type: 'settings',
      conversationId: snapshot().activeId,
      settings: { model: 'text-only', maxTokens: 100, systemPrompt: '' },
    });
    const image: ChatAttachment = {
      id: 'i1',
      kind: 'image',
      path: 'a.png',
      languageId: '',
      text: '',
      tokens: 1,
      image: {
        mediaType: 'image/png',
        width: 1,
        height: 1,
        bytes: 70,
        hash: 'b'.repeat(64),
        thumbnail: 'data:image/png;base64,AAAA',
      },
    };
    await chat.play({ type: 'attachments', attachments: [image] });
    await chat.page.locator('.composer .input').fill('what is it?');
    await chat.page.locator('.composer .input').press('Enter');
    await chat.page.locator('.composer .notice', { hasText: 'text-only may not see images' }).waitFor();
    assert.equal((await posted('send')).length, 0);
    await chat.page.locator('.composer .input').press('Enter');
    await next('send');
  });

  it('shows the chip from the header at once and its thumbnail once decoded; Send waits until the host has the image', async () => {
    await paste([{ name: 'shot.png', type: 'image/png', base64: pngBytes(4000, 3000).toString('base64') }]);
    const preview = chat.page.locator('.composer .chip.kind-image.preview');
    await preview.waitFor();
    const sent = scaledSize(4000, 3000);
    assert.equal(
      await preview.locator('.chip-size').textContent(),
      `${sent.width}×${sent.height} px`,
      'as it will be sent',
    );
    assert.equal(
      await preview.locator('.chip-tokens').textContent(),
      `~${imageTokens(sent.width, sent.height).toLocaleString('en-US')} tokens`,
    );
    assert.equal(await preview.locator('.chip-scaled').textContent(), 'scaled');
    await preview.locator('canvas.chip-thumb[data-painted]').waitFor();
    await chat.page.locator('.composer .input').fill('what does it say?');
    await chat.page.locator('.composer .input').press('Enter');
    const add = await next('addImage');
    assert.equal((await posted('send')).length, 0, 'no Send before the host has the image');
    await chat.play({ type: 'reply', requestId: add.requestId, result: null });
    await next('send');
    assert.equal(await preview.count(), 0, 'the preview is gone once the host answered');
  });

  it('sends a scaled opaque image as JPEG and a scaled transparent one as WebP (no PNG tried first)', async () => {
    const transparent = await chat.page.evaluate(async () => {
      const canvas = new OffscreenCanvas(2400, 1800);
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#08c';
      context.fillRect(200, 200, 1600, 1000);
      const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    });
    await paste([{ name: 'opaque.png', type: 'image/png', base64: pngBytes(2400, 1800).toString('base64') }]);
    const opaque = await next('addImage');
    assert.equal(readImageHeader(bytesOf(opaque))?.mediaType, 'image/jpeg');
    await chat.play({ type: 'reply', requestId: opaque.requestId, result: null });
    await paste([{ name: 'logo.png', type: 'image/png', base64: transparent }]);
    let webp: Posted | undefined;
    for (let i = 0; i < 500 && !webp; i++) {
      webp = (await posted('addImage')).find((p) => p.name === 'logo.png');
      if (!webp) await chat.page.waitForTimeout(20);
    }
    assert.ok(webp);
    assert.deepEqual(readImageHeader(bytesOf(webp)), { mediaType: 'image/webp', ...scaledSize(2400, 1800) });
  });
});
