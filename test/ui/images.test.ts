// Images in the real VS Code workbench against the emulator: Generate Image from the palette (prompt →
// model → size, defaults accepted), the panel (gallery, submit, screenshot for the README), and a window
// reload during a pending async task: after the reload the image appears once, from one submission.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator } from 'playwright-core';
import { imageDimensions } from '../../src/images/format';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { resultsDir, vscodeVersion, workspaceDir } from '../support/env';
import { openWorkbench, type Workbench } from '../support/workbench';

const KEY = 'mg-demo-key-0001';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function imagesWithSlug(slug: string): string[] {
  const folder = path.join(workspaceDir(), 'images');
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((n) => n.startsWith(slug) && n.endsWith('.png')) : [];
}

/** The images of a slug once `count` of them exist, each with its sidecar (written just after the image). */
async function waitForFiles(slug: string, count: number, timeoutMs = 90_000): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  const hasSidecar = (file: string) =>
    fs.existsSync(path.join(workspaceDir(), 'images', file.replace(/\.\w+$/, '.json')));
  for (;;) {
    const files = imagesWithSlug(slug);
    if (files.length >= count && files.every(hasSidecar)) return files;
    if (Date.now() > end) throw new Error(`no ${slug}* image after ${timeoutMs} ms`);
    await sleep(250);
  }
}

describe('images (UI)', function () {
  this.timeout(400_000);
  let wb: Workbench;
  const admin = EmulatorAdmin.fromEnv();
  const asyncSubmissions = async () =>
    (await admin.requests()).filter((r) => r.route === 'images.generations.async').length;

  before(async () => {
    await admin.setFaults(KEY, null);
    wb = await openWorkbench(undefined, { shared: true });
  });
  after(async () => {
    await admin.setFaults(KEY, null).catch(() => undefined);
    await wb?.close();
  });

  async function paletteGenerate(prompt: string): Promise<void> {
    await wb.runCommand('Model Gateway: Generate Image');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(prompt);
    await input.press('Enter');
    // Model, then size: accept the defaults (the first row: default model; one image at the default size).
    for (const expected of [/gpt-image-demo|flux-demo-schnell/, /1024x1024/]) {
      await wb.page
        .locator('.quick-input-list .monaco-list-row')
        .filter({ hasText: expected })
        .first()
        .waitFor({ timeout: 60_000 });
      await input.press('Enter');
    }
  }

  it('Generate Image from the palette saves a PNG of the default size into images/', async () => {
    const before = await asyncSubmissions();
    await paletteGenerate('Palette test: a paper crane');
    const [file] = await waitForFiles('palette-test-a-paper-crane', 1);
    const bytes = fs.readFileSync(path.join(workspaceDir(), 'images', file));
    assert.deepStrictEqual(imageDimensions(bytes), { width: 1024, height: 1024 });
    assert.ok(
      fs.existsSync(path.join(workspaceDir(), 'images', file.replace(/\.png$/, '.json'))),
      'sidecar next to the image',
    );
    assert.strictEqual((await asyncSubmissions()) - before, 1);
    await wb.waitForNotification(/saved images\//);
  });

  it('a costlier request asks first, naming why; Cancel sends nothing', async () => {
    const before = (await admin.requests()).filter((r) => r.route.startsWith('images.')).length;
    await wb.runCommand('Model Gateway: Generate Image');
    const input = wb.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('Costly test: a big mural');
    await input.press('Enter');
    await wb.page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: /gpt-image-demo|flux-demo-schnell/ })
      .first()
      .waitFor();
    await input.press('Enter');
    // Only larger sizes may cost more: the smaller ones say they are smaller (the list is virtual: filter to see them).
    const row = (size: string) =>
      wb.page.locator('.quick-input-list .monaco-list-row').filter({ hasText: size }).first();
    await row('1536x1024').waitFor();
    assert.match(await row('1536x1024').innerText(), /Larger than the default size: may cost more/);
    await input.fill('256x256');
    assert.match(await row('256x256').innerText(), /Smaller than the default size/);
    assert.doesNotMatch(await row('256x256').innerText(), /cost more/);
    await input.fill('');
    await row('1536x1024').click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /size 1536x1024, larger than the default 1024x1024/);
    assert.match(text, /console/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await sleep(1000);
    assert.strictEqual((await admin.requests()).filter((r) => r.route.startsWith('images.')).length, before);
    assert.deepStrictEqual(imagesWithSlug('costly-test'), []);
  });

  it('the image panel lists the results and generates from its form', async () => {
    await wb.runCommand('Model Gateway: Open Image Panel');
    const panel: FrameLocator = await wb.webviewByTitle('Images');
    await panel.locator('.card').first().waitFor({ timeout: 60_000 });
    assert.match(await panel.locator('.card .prompt').first().innerText(), /paper crane/i);
    await panel.locator('#prompt').fill('Panel test: a glass teapot');
    await panel.locator('button[data-action="submit"]').click();
    await waitForFiles('panel-test-a-glass-teapot', 1);
    await panel.locator('.card .prompt', { hasText: 'glass teapot' }).first().waitFor({ timeout: 60_000 });
    await wb.runCommand('Notifications: Clear All Notifications');
    await wb.page.waitForTimeout(500);
    const shot = path.join(resultsDir(), 'screenshots', vscodeVersion(), 'images-panel.png'); // README's docs/images/ copy is refreshed by hand
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await wb.page.screenshot({ path: shot });
    assert.ok(fs.statSync(shot).size > 1000);
  });

  it('a reload during a pending task: the image appears once after the reload, from one submission', async () => {
    await admin.setFaults(KEY, { taskDurationMs: 10_000 }); // long enough to reload while it is pending
    const before = await asyncSubmissions();
    await paletteGenerate('Reload test: a slow snail');
    await wb.waitForNotification(/Reload test|slow snail|Waiting|working on it/i);
    while ((await asyncSubmissions()) === before) await sleep(100);
    await sleep(500); // the task id is persisted before polling starts; give the storage a moment to flush
    await wb.runCommand('Developer: Reload Window');
    await wb.page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
    const files = await waitForFiles('reload-test-a-slow-snail', 1, 120_000);
    await sleep(3000); // a second save would show up here
    assert.deepStrictEqual(imagesWithSlug('reload-test-a-slow-snail'), files);
    assert.strictEqual(files.length, 1);
    assert.strictEqual(
      (await asyncSubmissions()) - before,
      1,
      'one submission: the reload resumed polling, it did not resubmit',
    );
  });
});
