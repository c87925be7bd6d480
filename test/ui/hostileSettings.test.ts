// A hostile repository's .vscode/settings.json, in the real workbench against the emulator (issue 43, items 1–3):
// the workspace raises the default image size and quality and turns the image cost question off, picks the priciest
// chat model with max_tokens 200000, and declares a model the extension believes blind able to see images. None of
// it may change what the user's actions cost or lift a question the user gets otherwise: the emulator's request log
// shows what was really sent (size, quality, model, max_tokens, images).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { chatView, recordChatFailure, type ChatView } from '../support/chatView';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { workspaceDir } from '../support/env';
import { pngBytes } from '../support/imageBytes';
import { CONTAINER_TITLE, openWorkbench, type Workbench } from '../support/workbench';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A chat model of the emulator the default key cannot use and the priciest it lists (in 15, out 75). */
const PRICEY = 'claude-alt-opus';
/** A model of the openai-chat group's list that says nothing about images; src/catalog/vision.ts guesses it blind. */
const BLIND = 'gpt-demo-codex';
const VISION_KEY = 'mg-openai-chat-0009';
const VISION_KEY_NAME = 'hostile-vision';
const HOSTILE = {
  'modelGateway.images.confirmCostlyRequests': false,
  'modelGateway.images.defaultQuality': 'high',
  'modelGateway.images.defaultSize': '4096x4096',
  'modelGateway.chat.defaultModel': PRICEY,
  'modelGateway.agent.defaultModel': PRICEY,
  'modelGateway.chat.maxTokens': 200_000,
  'modelGateway.models.vision': { [BLIND]: true },
};

describe("a hostile workspace's settings (UI)", function () {
  this.timeout(400_000);
  let wb: Workbench;
  let view: ChatView;
  const admin = EmulatorAdmin.fromEnv();
  const file = path.join(workspaceDir(), '.vscode', 'settings.json');
  let previous: string | undefined;
  const marker = `mg-hostile-${Date.now().toString(36)}`;

  before(async () => {
    wb = await openWorkbench(undefined, { shared: true });
    // Written as a repository would ship it; the same write sets window.title, which the page title shows once the
    // workbench applied the file (the extension host has the configuration before the view's next message).
    previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const current = previous ? (JSON.parse(previous) as Record<string, unknown>) : {};
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({ ...current, ...HOSTILE, 'window.title': `${marker} \${activeEditorShort}` }, null, 2),
    );
    await wb.page.waitForFunction((m) => document.title.includes(m), marker, { timeout: 90_000 });
    await wb.openView(CONTAINER_TITLE);
    view = chatView(wb);
    await view.reopen();
  });
  after(async () => {
    if (previous === undefined) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, previous);
    await wb?.page.waitForFunction((m) => !document.title.includes(m), marker, { timeout: 30_000 }).catch(() => {});
    await wb?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await recordChatFailure(wb, this.currentTest.title);
  });

  // Submissions only: the earlier request's async task is still polled (GET) while the next test runs.
  const imageRequests = async () =>
    (await admin.requests()).filter((r) => r.route.startsWith('images.') && r.method === 'POST');
  const messagesSince = async (before: Set<string>): Promise<AdminRequestEntry[]> =>
    (await admin.requests()).filter((r) => !before.has(r.id) && r.path.startsWith('/v1/messages'));

  async function generateImage(prompt: string, size: RegExp): Promise<void> {
    await wb.runCommand('Model Gateway: Generate Image');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(prompt);
    await input.press('Enter');
    const row = (text: RegExp) =>
      wb.page.locator('.quick-input-list .monaco-list-row').filter({ hasText: text }).first();
    await row(/gpt-image-demo|flux-demo-schnell/).waitFor({ timeout: 60_000 });
    await input.press('Enter');
    await row(size).waitFor({ timeout: 60_000 });
    await row(size).click();
  }

  it("Generate Image with the defaults sends the user's default size and quality, not the workspace's", async () => {
    const before = (await imageRequests()).length;
    // The first size offered is the default: the user's 1024x1024 (the workspace's 4096x4096 would come first).
    await generateImage('Hostile defaults: a lighthouse', /1024x1024/);
    const first = wb.page.locator('.quick-input-list .monaco-list-row').first();
    await first.waitFor({ state: 'hidden', timeout: 30_000 }).catch(() => undefined);
    let sent: AdminRequestEntry | undefined;
    for (let i = 0; i < 150 && !sent; i++) {
      sent = (await imageRequests()).slice(before).find((r) => r.imageRequest);
      if (!sent) await sleep(200);
    }
    assert.ok(sent, 'the image request reached the emulator');
    assert.equal(sent.imageRequest?.size, '1024x1024');
    assert.notEqual(sent.imageRequest?.quality, 'high');
    assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'a default request asks nothing');
  });

  it('a larger size still asks first, comparing with the default 1024x1024; Cancel sends nothing', async () => {
    const before = (await imageRequests()).length;
    await generateImage('Hostile defaults: a bigger lighthouse', /1536x1024/);
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /size 1536x1024, larger than the default 1024x1024/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await sleep(1000);
    assert.equal((await imageRequests()).length, before, 'nothing was sent');
  });

  it("Ask goes out on the user's model with the user's max_tokens, not the workspace's", async () => {
    await wb.runCommand('Model Gateway: New Chat');
    await view.frame.locator('.messages .empty').waitFor({ timeout: 30_000 });
    const box = view.frame.locator('.composer input.model');
    assert.notEqual(await box.inputValue(), PRICEY, 'the composer does not offer the workspace model');
    const before = new Set((await admin.requests()).map((r) => r.id));
    await view.send('Which model answers a hostile workspace?');
    await view.finished();
    const sent = await messagesSince(before);
    assert.equal(sent.length, 1);
    assert.notEqual(sent[0].model, PRICEY);
    assert.equal(sent[0].maxTokens, 4096);
  });

  it('models.vision from the workspace does not lift the "may not see images" question', async () => {
    // A key whose gateway lists a model that says nothing about images and whose id the extension believes blind.
    const typeInto = async (value: string, selector = 'div.quick-input-widget .quick-input-box input') => {
      await wb.page.locator(selector).waitFor({ state: 'visible' });
      await wb.page.locator(selector).fill(value);
      await wb.page.locator(selector).press('Enter');
    };
    const keyEntry = () => wb.page.locator('.statusbar-item[id$="modelGateway.status"]').first();
    // The composer's model before this test picks the vision key's model: put back at the end, or the next suite's
    // question would go to a model the demo key does not list.
    const modelBefore = await view.frame.locator('.composer input.model').inputValue();
    await wb.runCommand('Model Gateway: Set API Key');
    await wb.page
      .locator(
        'div.quick-input-widget .quick-input-box input[aria-label*="Set API Key (1/2)"], div.quick-input-widget .quick-input-box input[placeholder*="Set API Key (1/2)"]',
      )
      .first()
      .waitFor({ state: 'visible' });
    await typeInto(VISION_KEY_NAME);
    await typeInto(VISION_KEY, 'div.quick-input-widget .quick-input-box input[type="password"]');
    await wb.page.locator('div.quick-input-widget').waitFor({ state: 'hidden' });
    try {
      await keyEntry().filter({ hasText: VISION_KEY_NAME }).waitFor({ timeout: 60_000 });
      await wb.runCommand('Model Gateway: New Chat');
      await view.frame.locator('.messages .empty').waitFor({ timeout: 30_000 });
      const box = view.frame.locator('.composer input.model');
      const list = view.frame.locator('.composer .model-list');
      // Picked from the list (the page asks only for a model the list names).
      for (let i = 0; ; i++) {
        await box.click();
        await box.fill('');
        await box.press('ArrowDown');
        await list.waitFor({ state: 'visible', timeout: 30_000 });
        const option = list.locator('li.model-option', { hasText: BLIND }).first();
        if ((await option.count()) > 0) {
          await option.click();
          break;
        }
        if (i > 20) throw new Error(`${BLIND} is not in the model list`);
        await box.press('Escape');
        await sleep(1000);
      }
      assert.equal(await box.inputValue(), BLIND);
      const input = view.frame.locator('.composer .input');
      await input.click();
      await input.evaluate((element, base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
        element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, pngBytes(64, 48).toString('base64'));
      await view.frame.locator('.composer .chip[data-kind="image"]:not(.preview)').waitFor({ timeout: 60_000 });
      const before = new Set((await admin.requests()).map((r) => r.id));
      await input.fill('What is in this image?');
      await input.press('Enter');
      await view.frame
        .locator('.composer .notice', { hasText: `${BLIND} may not see images` })
        .waitFor({ timeout: 30_000 });
      await sleep(1000);
      assert.deepEqual(await messagesSince(before), [], 'nothing was sent before the question was answered');
    } finally {
      // Every step of the clean-up may fail on its own (a failed attempt can leave the composer in any state): none
      // stops the next, so the key and the model are put back whatever happened (a retry and later suites need them).
      const quick = { timeout: 5_000 };
      for (let i = 0; i < 5 && (await view.frame.locator('.composer [data-action="removeAttachment"]').count()); i++)
        await view.frame
          .locator('.composer [data-action="removeAttachment"]')
          .first()
          .click(quick)
          .catch(() => undefined);
      await view.frame
        .locator('.composer .input')
        .fill('', quick)
        .catch(() => undefined);
      // The key removed again: later suites meet the window with the demo key.
      await wb.runCommand('Model Gateway: Remove API Key').catch(() => undefined);
      await wb.page
        .locator('.quick-input-list .monaco-list-row', { hasText: VISION_KEY_NAME })
        .first()
        .click()
        .catch(() => undefined);
      await wb.page
        .locator('.monaco-dialog-box .monaco-button', { hasText: /^Remove$/ })
        .click()
        .catch(() => undefined);
      await keyEntry()
        .filter({ hasText: 'demo (emulator)' })
        .waitFor({ timeout: 30_000 })
        .catch(() => undefined);
      if (modelBefore) {
        const box = view.frame.locator('.composer input.model');
        await box.fill(modelBefore, quick).catch(() => undefined);
        await box.press('Enter', quick).catch(() => undefined);
        await box.press('Escape', quick).catch(() => undefined);
      }
    }
  });
});
