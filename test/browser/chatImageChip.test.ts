/// <reference lib="dom" />
// The composer's image chip in a narrow side bar (issue 45 item 10): a pasted "image.png" sent as a JPEG cut to "i…"
// and wider than the composer. The chip names the format sent, keeps the name readable and fits the composer.
import { strict as assert } from 'node:assert';
import type { ChatAttachment } from '../../src/shared/protocol/chat';
import { chatPageSuite, snapshot, type ChatPage } from '../support/chatPage';

const pasted = (path: string, mediaType: ChatAttachment['image'] extends infer I ? I : never): ChatAttachment => ({
  id: 'i1',
  kind: 'image',
  path,
  languageId: '',
  text: '',
  tokens: 1_844,
  image: mediaType,
});
const jpeg = {
  mediaType: 'image/jpeg' as const,
  width: 1568,
  height: 882,
  bytes: 210_000,
  hash: 'b'.repeat(64),
  thumbnail: 'data:image/png;base64,AAAA',
  original: { width: 3840, height: 2160, bytes: 4_100_000 },
};

describe('chat webview: the image chip in a narrow composer (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(undefined, (page) => assert.deepEqual(page.errors, []));
  beforeEach(() => {
    chat = pages.chat;
  });

  for (const width of [220, 300])
    it(`at ${width} px: the chip fits the composer, its name whole and with the extension of the format sent`, async () => {
      await chat.page.setViewportSize({ width, height: 700 });
      await chat.play({ type: 'snapshot', snapshot: snapshot() });
      await chat.play({ type: 'attachments', attachments: [pasted('image.png', jpeg)] });
      const chip = chat.page.locator('.composer .chip.kind-image');
      await chip.waitFor();
      const label = chip.locator('.chip-label');
      assert.equal(await label.innerText(), 'image.jpg', 'a JPEG is sent: the chip says so');
      assert.ok(await label.evaluate((e) => e.scrollWidth <= e.clientWidth), 'the name is not cut');
      const composer = (await chat.page.locator('.composer').boundingBox())!;
      for (const part of [chip, chip.locator('button')]) {
        const box = (await part.boundingBox())!;
        assert.ok(box.x >= composer.x && box.x + box.width <= composer.x + composer.width, `${JSON.stringify(box)}`);
      }
      // The tooltip keeps the name it came with and says what is sent.
      assert.match((await chip.getAttribute('title')) ?? '', /^image\.png · 1568×882 px/);
      assert.match((await chip.getAttribute('title')) ?? '', /JPEG/);
      // A PNG sent as a PNG keeps its name; a name without an extension gets none added.
      await chat.play({
        type: 'attachments',
        attachments: [pasted('shot.png', { ...jpeg, mediaType: 'image/png', original: undefined })],
      });
      assert.equal(await chip.locator('.chip-label').innerText(), 'shot.png');
      assert.doesNotMatch((await chip.getAttribute('title')) ?? '', /PNG/);
    });
});
