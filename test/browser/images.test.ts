// The image panel bundle in real Chromium: form → typed submit, host messages → DOM, hostile text stays text.
import * as assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { GalleryItem } from '../../src/shared/protocol/images';
import { imagesGuard } from '../../src/shared/protocol/images';
import { buildImagesBundle, openImagesPage, panelSnapshot, type ImagesPage } from './imagesPage';
import { sharedChromium } from '../support/chatPage';

const PNG_1x1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const item = (over: Partial<GalleryItem> = {}): GalleryItem => ({
  id: 'images/a-1.png',
  path: 'images/a-1.png',
  prompt: 'A red fox',
  model: 'gpt-image-demo',
  size: '1024x1024',
  createdAt: '2026-11-21T10:00:00.000Z',
  kind: 'generation',
  thumbnail: PNG_1x1,
  ...over,
});

describe('images webview (Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let view: ImagesPage;

  before(async () => {
    await buildImagesBundle();
    browser = await sharedChromium();
  });
  beforeEach(async () => {
    view = await openImagesPage(browser);
  });
  afterEach(async () => {
    const errors = view.errors;
    await view.close();
    assert.deepEqual(errors, []);
  });

  it('asks for a snapshot, then submits a well-formed request with the chosen fields', async () => {
    assert.deepEqual(await view.posted(), [{ type: 'ready' }]);
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    assert.deepEqual(
      await view.page.$$eval('#model option', (o) => o.map((x) => (x as unknown as { value: string }).value)),
      ['gpt-image-demo', 'flux-demo-schnell'],
    );
    await view.page.fill('#prompt', 'A lighthouse at dusk');
    await view.page.selectOption('#model', 'flux-demo-schnell');
    await view.page.selectOption('#size', '1536x1024');
    await view.page.fill('#count', '2');
    await view.page.click('button[data-action="submit"]');
    const submit = (await view.posted()).find((m) => m.type === 'submit');
    assert.ok(submit && imagesGuard.toHost(submit).ok, 'the host guard accepts what the page sends');
    assert.deepEqual(submit.type === 'submit' && submit.form, {
      mode: 'generate',
      prompt: 'A lighthouse at dusk',
      model: 'flux-demo-schnell',
      size: '1536x1024',
      quality: 'auto',
      n: 2,
      references: [],
    });
  });

  it('names what makes the request costlier as the form changes', async () => {
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    assert.match((await view.page.textContent('#cost-hint')) ?? '', /default request/);
    await view.page.fill('#count', '3');
    await view.page.selectOption('#quality', 'high');
    const hint = (await view.page.textContent('#cost-hint')) ?? '';
    assert.match(hint, /3 images/);
    assert.match(hint, /high quality/);
  });

  it('a smaller size is the default request; a larger one is named as larger', async () => {
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    await view.page.selectOption('#size', '512x512');
    assert.match((await view.page.textContent('#cost-hint')) ?? '', /default request/);
    assert.equal(await view.page.$eval('#cost-hint', (e) => e.classList.contains('costly')), false);
    await view.page.selectOption('#size', '1536x1024');
    assert.match(
      (await view.page.textContent('#cost-hint')) ?? '',
      /size 1536x1024, larger than the default 1024x1024/,
    );
  });

  it("offers the quality choices of the model's family and keeps one Generate button", async () => {
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    const qualities = () =>
      view.page.$$eval('#quality option', (o) => o.map((x) => (x as unknown as { value: string }).value));
    assert.deepEqual(await qualities(), ['auto', 'low', 'medium', 'high']);
    await view.page.selectOption('#quality', 'medium');
    await view.page.selectOption('#model', 'flux-demo-schnell');
    assert.deepEqual(await qualities(), ['auto'], 'a family without a documented quality: only auto');
    await view.page.selectOption('#model', 'gpt-image-demo');
    const buttons = await view.page.$$eval('button', (b) => b.map((x) => (x.textContent ?? '').trim()));
    assert.deepEqual(
      buttons.filter((text) => text === 'Generate'),
      ['Generate'],
      `buttons: ${JSON.stringify(buttons)}`,
    );
  });

  it('does not send without a prompt, and edit mode needs a picked source', async () => {
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    await view.page.click('button[data-action="submit"]');
    assert.match((await view.page.textContent('#status')) ?? '', /Enter a prompt/);
    assert.equal(await view.page.isVisible('#edit-inputs'), false, 'no source/mask slots in generate mode');
    await view.page.click('button[data-action="mode-edit"]');
    assert.equal(await view.page.isVisible('#edit-inputs'), true);
    await view.page.fill('#prompt', 'make it blue');
    await view.page.click('button[data-action="submit"]');
    assert.match((await view.page.textContent('#status')) ?? '', /Pick the image/);
    await view.page.click('button[data-action="pick-source"]');
    await view.play({ type: 'picked', slot: 'source', file: { path: 'art/cat.png', thumbnail: PNG_1x1 } });
    await view.page.click('button[data-action="submit"]');
    const posted = await view.posted();
    assert.ok(posted.some((m) => m.type === 'pick' && m.slot === 'source'));
    const submit = posted.find((m) => m.type === 'submit');
    assert.equal(submit?.type === 'submit' && submit.form.source, 'art/cat.png');
    assert.equal(submit?.type === 'submit' && submit.form.mode, 'edit');
  });

  it('shows task progress and posts Cancel for a pending task', async () => {
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    const task = {
      localId: 'L1',
      taskId: 'imgtask_1',
      prompt: 'A fox',
      model: 'gpt-image-demo',
      state: 'pending' as const,
      submittedAt: '2026-11-21T10:00:00Z',
    };
    await view.play({ type: 'task', task: { ...task, progress: 40 } });
    assert.match((await view.page.textContent('[data-local-id="L1"] .task-status')) ?? '', /Generating 40%/);
    assert.equal(
      await view.page.$eval('[data-local-id="L1"] progress', (p) => (p as unknown as { value: number }).value),
      40,
    );
    await view.page.click('[data-local-id="L1"] button[data-action="cancel-task"]');
    assert.ok((await view.posted()).some((m) => m.type === 'cancelTask' && m.localId === 'L1'));
    await view.play({ type: 'task', task: { ...task, state: 'cancelled', progress: 40 } });
    assert.match((await view.page.textContent('[data-local-id="L1"]')) ?? '', /may still be charged/);
  });

  it('renders the gallery with prompt, model, size and actions; hostile text stays text', async () => {
    const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    await view.play({
      type: 'snapshot',
      snapshot: panelSnapshot({
        gallery: [item(), item({ id: 'b', path: 'images/b.png', prompt: hostile, thumbnail: 'javascript:alert(3)' })],
      }),
    });
    const cards = view.page.locator('.card');
    assert.equal(await cards.count(), 2);
    assert.equal(await cards.nth(0).locator('.prompt').textContent(), 'A red fox');
    assert.match((await cards.nth(0).locator('.meta').textContent()) ?? '', /gpt-image-demo · 1024x1024/);
    assert.equal(await cards.nth(0).locator('img').getAttribute('src'), PNG_1x1);
    assert.equal(await cards.nth(1).locator('.prompt').textContent(), hostile);
    assert.equal(
      await cards.nth(1).locator('img').count(),
      0,
      'a non-data: thumbnail is never used as an image source',
    );
    const ask = cards.nth(0).locator('button[data-action="ask"]');
    assert.equal(await ask.getAttribute('aria-label'), 'Ask about this image in the chat');
    for (const action of ['ask', 'insert', 'reveal', 'open', 'copyPath', 'rerun']) {
      await cards.nth(0).locator(`button[data-action="${action}"]`).click();
    }
    const actions = (await view.posted()).filter((m) => m.type === 'galleryAction');
    assert.deepEqual(
      actions.map((m) => m.type === 'galleryAction' && `${m.action}:${m.id}`),
      ['ask', 'insert', 'reveal', 'open', 'copyPath', 'rerun'].map((a) => `${a}:images/a-1.png`),
    );
  });

  it('Re-run with changes fills the form, and the form survives a reload through webview state', async () => {
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    await view.play({
      type: 'prefill',
      form: {
        mode: 'generate',
        prompt: 'A red fox, at night',
        model: 'flux-demo-schnell',
        size: '512x512',
        quality: 'high',
        n: 1,
        references: [],
      },
    });
    assert.equal(await view.page.inputValue('#prompt'), 'A red fox, at night');
    assert.equal(await view.page.inputValue('#model'), 'flux-demo-schnell');
    const state = await view.state();
    await view.close();
    view = await openImagesPage(browser, state);
    await view.play({ type: 'snapshot', snapshot: panelSnapshot() });
    assert.equal(await view.page.inputValue('#prompt'), 'A red fox, at night');
    assert.equal(await view.page.inputValue('#size'), '512x512');
  });

  it('prompts and gateway messages full of links stay text: no anchor, nothing VS Code could open', async () => {
    const links =
      '[docs](https://example.com/d) <https://auto.example/> https://bare.example/x [cmd](command:workbench.action.quit) <a href="https://raw.example/">raw</a>';
    const task = {
      localId: 'L1',
      taskId: 'imgtask_1',
      prompt: `A fox ${links}`,
      model: 'gpt-image-demo',
      submittedAt: '2026-11-21T10:00:00Z',
    };
    await view.play({
      type: 'snapshot',
      snapshot: panelSnapshot({
        gallery: [item({ prompt: links })],
        modelsNotice: links,
        tasks: [{ ...task, state: 'failed', message: `Failed: see ${links}` }],
      }),
    });
    await view.page.locator('.card').first().waitFor();
    assert.equal(await view.page.locator('body a, body [href]').count(), 0);
    assert.equal(await view.page.locator('.card .prompt').first().textContent(), links);
    await view.page.evaluate(`window.__hostOpened = []; window.addEventListener('click', (e) => {
      for (const n of e.composedPath()) if (n.tagName && n.tagName.toLowerCase() === 'a' && n.href) window.__hostOpened.push(String(n.href));
    });`);
    await view.page.locator('.card .prompt').first().click();
    await view.page.locator('.task-message').first().click();
    assert.deepEqual(await view.page.evaluate('window.__hostOpened'), []);
    assert.equal(view.page.context().pages().length, 1, 'no window opened');
  });

  it('shows why the model list is empty', async () => {
    await view.play({
      type: 'snapshot',
      snapshot: panelSnapshot({ models: [], modelsNotice: 'Your key lists no image models.' }),
    });
    assert.equal(await view.page.textContent('#models-notice'), 'Your key lists no image models.');
    assert.equal(await view.page.isDisabled('#model'), true);
  });
});
