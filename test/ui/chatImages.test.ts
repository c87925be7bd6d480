// Images the model sees, in the real workbench against the emulator (issue 36): a 4000×3000 screenshot pasted into
// the composer becomes a chip that says it was scaled, and the question sent in Ask carries exactly those scaled
// bytes (the emulator's request log names the size and hash of what arrived, and its vision model says the same in
// the answer); an image file of the workspace picked with `@` in Agent mode reaches the model as an image; a reload
// of the window keeps the chips of sent messages (thumbnail, pixel size); an image pasted into VS Code's own chat
// input reaches `@gateway` (1.104+: before that VS Code's chat offers no gateway model to paste for, and its paste
// provider attaches images only for a model that declares image input). The paste is the clipboard's paste event
// with the file in its DataTransfer, dispatched on the composer's input: the same event Ctrl+V fires, without the
// operating system's clipboard, which a headless browser does not share with the page.
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { chatView, recordChatFailure, type ChatView } from '../support/chatView';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { compareVersions, vscodeVersion, workspaceDir } from '../support/env';
import { pngBytes } from '../support/imageBytes';
import { CONTAINER_TITLE, clickNativeChatInput, openWorkbench, type Workbench } from '../support/workbench';

describe('chat images (UI)', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let view: ChatView;
  const admin = EmulatorAdmin.fromEnv();
  const tag = Date.now().toString(36);
  const folder = path.join(workspaceDir(), 'image-ui');
  const diagram = `diagram-${tag}.png`;
  const screenshot = pngBytes(4000, 3000);

  before(async () => {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, diagram), pngBytes(640, 480));
    wb = await openWorkbench(undefined, { shared: true });
    await wb.openView(CONTAINER_TITLE);
    view = chatView(wb);
    await view.frame.locator('.composer .input').waitFor({ timeout: 60_000 });
  });
  after(async () => {
    fs.rmSync(folder, { recursive: true, force: true });
    await wb?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await recordChatFailure(wb, this.currentTest.title);
  });

  const sha16 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);

  /** The /v1/messages requests logged after `before` (ids), newest last. */
  async function messagesSince(before: Set<string>): Promise<AdminRequestEntry[]> {
    return (await admin.requests()).filter((r) => !before.has(r.id) && r.path.startsWith('/v1/messages'));
  }

  /** Chips left in the composer by an earlier (failed) test are removed as a user would, so a retry starts clean. */
  async function clearComposerChips(): Promise<void> {
    const leftovers = view.frame.locator('.composer [data-action="removeAttachment"]');
    for (let i = 0; i < 20 && (await leftovers.count()) > 0; i++) await leftovers.first().click();
  }

  it('a pasted 4000×3000 screenshot is sent in Ask as the scaled image its chip shows', async () => {
    await wb.runCommand('Model Gateway: New Chat');
    await view.frame.locator('.messages .empty').waitFor({ timeout: 30_000 });
    await view.frame.locator('.composer[data-mode="ask"]').waitFor({ timeout: 30_000 });
    await clearComposerChips();
    const input = view.frame.locator('.composer .input');
    await input.click();
    await input.evaluate((element, base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, screenshot.toString('base64'));
    // The page's preview chip shows first; the host's chip (not `.preview`) replaces it once the image is stored.
    const chip = view.frame.locator('.composer .chip[data-kind="image"]:not(.preview)');
    await chip.waitFor({ timeout: 60_000 });
    await view.frame.locator('.composer .chip.preview').waitFor({ state: 'detached', timeout: 30_000 });
    assert.strictEqual(await view.frame.locator('.composer .chip').count(), 1, 'the preview gave way to the chip');
    await chip.locator('.chip-scaled').waitFor();
    const size = /^(\d+)×(\d+) px$/.exec((await chip.locator('.chip-size').innerText()).trim());
    assert.ok(size, 'the chip shows the pixel size');
    const [width, height] = [Number(size[1]), Number(size[2])];
    assert.ok(Math.max(width, height) <= 1568 && width * height <= 1_150_000, `${width}×${height}`);
    assert.match((await chip.getAttribute('title')) ?? '', /4000×3000/);

    const before = new Set((await admin.requests()).map((r) => r.id));
    await view.send('What does this screenshot show?');
    await view.finished();
    const sent = await messagesSince(before);
    assert.strictEqual(sent.length, 1);
    const images = sent[0].images ?? [];
    assert.strictEqual(images.length, 1, 'one image went with the question');
    assert.deepStrictEqual([images[0].width, images[0].height], [width, height], 'the bytes that arrived are scaled');
    assert.ok(images[0].bytes <= screenshot.length * 0.15, `${images[0].bytes} of ${screenshot.length} bytes`);
    const answer = await view.lastAnswer().locator('.body').innerText();
    assert.ok(
      answer.includes(`${width}×${height}, ${images[0].bytes} bytes, sha256 ${images[0].sha256}`),
      `the model saw that image: ${answer.slice(0, 300)}`,
    );
    assert.strictEqual(await view.frame.locator('.composer .chip').count(), 0, 'the chip went with the question');
    await view.frame.locator('.message.user').last().locator('.chip[data-kind="image"]').waitFor();
  });

  it('an image file picked with @ in Agent mode reaches the model as an image', async () => {
    await view.newAgentChat('agent');
    await clearComposerChips();
    const input = view.frame.locator('.composer .input');
    await input.click();
    await input.pressSequentially(`@diagram-${tag}`);
    await view.frame
      .locator('.mention-option[aria-selected="true"]', { hasText: diagram })
      .waitFor({ timeout: 30_000 });
    await input.press('Enter');
    const chip = view.frame.locator('.composer .chip[data-kind="image"]', { hasText: diagram });
    await chip.waitFor({ timeout: 30_000 });
    assert.strictEqual((await chip.locator('.chip-size').innerText()).trim(), '640×480 px');

    const before = new Set((await admin.requests()).map((r) => r.id));
    await view.send('Describe the attached diagram in one sentence.');
    await view.finished();
    const sent = await messagesSince(before);
    assert.ok(sent.length >= 1, 'the agent turn asked the model');
    const original = fs.readFileSync(path.join(folder, diagram));
    // Every step of the turn carries the question, so each request has the image once: the file as it is (within
    // the limits), its own bytes.
    for (const request of sent)
      assert.deepStrictEqual(
        (request.images ?? []).map((i) => [i.format, i.width, i.height, i.sha256]),
        [['png', 640, 480, sha16(original)]],
      );
  });

  it("an image pasted into VS Code's chat reaches @gateway as an image", async function () {
    if (compareVersions(vscodeVersion(), '1.104.0') < 0) this.skip();
    const page = wb.page;
    const input = await clickNativeChatInput(page);
    await page.keyboard.insertText('@gateway What is in the pasted image?');
    await page.keyboard.press('Escape'); // close any suggestion widget, so Enter sends
    const shot = pngBytes(800, 600);
    // VS Code's editor reads a paste from the event's clipboardData on the focused text area (its paste provider
    // then attaches the image to the request).
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      const target = document.activeElement ?? document.body;
      target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, shot.toString('base64'));
    const attached = page.locator('.interactive-input-part .chat-attached-context-attachment').first();
    await attached.waitFor({ timeout: 30_000 });
    const before = new Set((await admin.requests()).map((r) => r.id));
    await input.click({ timeout: 10_000 });
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    let sent: AdminRequestEntry | undefined;
    for (let i = 0; i < 300 && !sent; i++) {
      sent = (await messagesSince(before)).find((r) => r.status === 200);
      if (!sent) await page.waitForTimeout(200);
    }
    assert.ok(sent, 'no /v1/messages request from @gateway');
    assert.deepStrictEqual(
      (sent.images ?? []).map((i) => [i.format, i.width, i.height, i.sha256]),
      [['png', 800, 600, sha16(shot)]],
      'the pasted image arrived as it was pasted (within the limits)',
    );
    await page
      .locator('.interactive-item-container.interactive-response .rendered-markdown', { hasText: 'sha256' })
      .last()
      .waitFor({ timeout: 60_000 });
    // Back to our view for the reload test.
    await wb.openView(CONTAINER_TITLE);
  });

  it('a reload of the window keeps the image chips of sent messages', async () => {
    const sentChips = view.frame.locator('.message.user .chip[data-kind="image"]');
    await sentChips.first().waitFor({ timeout: 30_000 });
    const before = await sentChips.locator('.chip-size').allInnerTexts();
    await wb.page.reload();
    await wb.page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
    await wb.openView(CONTAINER_TITLE);
    view = chatView(wb);
    const chips = view.frame.locator('.message.user .chip[data-kind="image"]');
    await chips.first().waitFor({ state: 'attached', timeout: 60_000 });
    assert.deepStrictEqual(await chips.locator('.chip-size').allInnerTexts(), before);
    const thumb = chips.first().locator('img.chip-thumb');
    assert.match((await thumb.getAttribute('src')) ?? '', /^data:image\/(png|jpeg|webp);base64,/);
    await thumb.scrollIntoViewIfNeeded();
    assert.strictEqual(await thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), true);
  });
});
