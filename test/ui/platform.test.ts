// Platform through the real workbench: the key commands typed into the palette and input boxes, switching
// keys changes the model list, the error classes of the emulator shown with their guidance, the
// base-URL notice, Copy Support Info, and no key in the log, settings, globalState or webview DOM.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { emulatorUrl, workspaceDir } from '../support/env';
import { openWorkbench, type Workbench } from '../support/workbench';

const ALT = 'mg-alt-key-0005';
const KNOWN_KEYS = ['mg-demo-key-0001', 'mg-chat-only-0002', 'mg-low-balance-0003', 'mg-revoked-0004', ALT];

describe('platform: keys, models and errors in the workbench', function () {
  this.timeout(180_000);
  let wb: Workbench;
  const admin = EmulatorAdmin.fromEnv();
  const userDir = path.join(path.dirname(workspaceDir()), 'user');
  const settingsFile = path.join(userDir, 'User', 'settings.json');
  const createdKeys: string[] = [];

  const input = () => wb.page.locator('div.quick-input-widget .quick-input-box input');
  const type = async (value: string): Promise<void> => {
    await input().waitFor({ state: 'visible' });
    await input().fill(value);
    await input().press('Enter');
  };
  /** Waits for the quick input a command opened (newer workbenches keep the palette rows for a moment). */
  const waitForQuickInput = async (labelPart: string): Promise<void> => {
    await wb.page
      .locator(
        `div.quick-input-widget .quick-input-box input[aria-label*="${labelPart}"], div.quick-input-widget .quick-input-box input[placeholder*="${labelPart}"]`,
      )
      .first()
      .waitFor({ state: 'visible' });
  };
  const pick = async (label: string): Promise<void> => {
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible' });
    await row.click();
    await quickInputClosed();
  };
  /** Newer workbenches animate the quick input away; the palette cannot be typed into until it is gone. */
  const quickInputClosed = (): Promise<void> => wb.page.locator('div.quick-input-widget').waitFor({ state: 'hidden' });
  const clearNotifications = async (): Promise<void> => {
    // A quick input (ignoreFocusOut) or dialog left open by a failed test would swallow the palette.
    for (let i = 0; i < 3 && (await input().isVisible()); i++) {
      await input().focus();
      await wb.page.keyboard.press('Escape');
      await wb.page.waitForTimeout(200);
    }
    if (await wb.page.locator('.monaco-dialog-box').isVisible()) await wb.page.keyboard.press('Escape');
    await wb.runCommand('Notifications: Clear All Notifications');
    await wb.page.waitForTimeout(300);
  };
  /** Types into the Settings editor (external writes to settings.json are not picked up by code-server). */
  /** On 1.139 the Settings editor is a modal that blocks the palette: Escape closes it (and is harmless otherwise). */
  const closeSettingsModal = async (): Promise<void> => {
    await wb.page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
    await wb.page.keyboard.press('Escape');
    await wb.page.waitForTimeout(300);
  };
  const setBaseUrl = async (value: string): Promise<void> => {
    // A fresh Settings editor each time (a reused one may keep an old search), and one more try if needed.
    for (let attempt = 1; ; attempt++) {
      try {
        await closeSettingsModal();
        await wb.runCommand('View: Close All Editors');
        await wb.runCommand('Model Gateway: Open Settings');
        // Narrow the list to the one setting: rows scrolled out of view are not rendered.
        const search = wb.page.locator('.settings-editor .settings-header .monaco-editor textarea').first();
        await search.focus();
        await wb.page.keyboard.press('Control+A');
        await wb.page.keyboard.type('modelGateway.baseUrl');
        const row = wb.page.locator('.settings-editor .setting-item', { hasText: 'Base Url' }).first();
        const box = row.locator('.setting-item-control input').first();
        await box.waitFor({ state: 'visible', timeout: 15_000 });
        await box.fill(value);
        await box.press('Tab');
        // The Settings editor writes after a short debounce: until settings.json holds the value (the window and the
        // extension host have it then too).
        const written = (): unknown => {
          try {
            return JSON.parse(fs.readFileSync(settingsFile, 'utf8'))['modelGateway.baseUrl'];
          } catch {
            return undefined;
          }
        };
        for (const end = Date.now() + 15_000; written() !== value;) {
          if (Date.now() > end) throw new Error(`the Settings editor did not write modelGateway.baseUrl = ${value}`);
          await wb.page.waitForTimeout(100);
        }
        // Escape would also dismiss the notification the change brings: close a modal Settings editor (1.139) by
        // its own close button instead; a Settings editor tab (1.100) does not block anything and stays.
        await wb.closeModalEditor();
        return;
      } catch (err) {
        if (attempt >= 2) throw err;
      }
    }
  };
  const statusItem = () => wb.page.locator('.statusbar-item[id$="modelGateway.status"]').first();
  const setKeyViaPalette = async (name: string, secret: string): Promise<void> => {
    await wb.runCommand('Model Gateway: Set API Key');
    await waitForQuickInput('Set API Key (1/2)');
    await type(name);
    await wb.page
      .locator('div.quick-input-widget .quick-input-box input[type="password"]')
      .waitFor({ state: 'visible' });
    await type(secret);
    await quickInputClosed();
  };

  before(async () => {
    wb = await openWorkbench(undefined, { shared: true });
    await wb.page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'])
      .catch(() => undefined);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await wb.screenshot(`platform-failed-${this.currentTest.title}`).catch(() => undefined);
  });

  after(async () => {
    if (!fs.readFileSync(settingsFile, 'utf8').includes(`"${emulatorUrl()}"`))
      await setBaseUrl(emulatorUrl()).catch(() => undefined);
    await admin.setFaults('mg-demo-key-0001', null).catch(() => undefined);
    await wb?.close();
  });

  it('sets a key by typing a name and the key; the check lists its models', async () => {
    await clearNotifications();
    await wb.runCommand('Model Gateway: Set API Key');
    await waitForQuickInput('Set API Key (1/2)');
    assert.notStrictEqual(await input().inputValue(), '', 'a suggested name (the host name)');
    const prompt = await wb.page.locator('div.quick-input-widget').innerText();
    assert.match(prompt, /dedicated key for this device or workload/);
    await type('ui-alt');
    // The second step is a password box (the key is never shown while typed).
    await wb.page
      .locator('div.quick-input-widget .quick-input-box input[type="password"]')
      .waitFor({ state: 'visible' });
    await type(ALT);
    await quickInputClosed();
    const text = await wb.waitForNotification(/key "ui-alt" \([0-9a-f]{8}\) works: 2 models \(1 chat, 1 image\)/);
    assert.ok(!text.includes(ALT));
    await statusItem().filter({ hasText: 'ui-alt' }).waitFor();
    await wb.screenshot('platform-key-set');
  });

  it('switches keys from a quick pick with fingerprints; each key shows its own model list', async () => {
    await clearNotifications();
    await wb.runCommand('Model Gateway: Switch Key');
    await waitForQuickInput('Switch to which key');
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor();
    assert.match(
      await rows.allInnerTexts().then((t) => t.join('\n')),
      /demo \(emulator\)[\s\S]*fingerprint [0-9a-f]{8}/,
    );
    await pick('demo (emulator)');
    await statusItem().filter({ hasText: 'demo (emulator)' }).waitFor();
    await wb.runCommand('Model Gateway: Refresh Models');
    await wb.waitForNotification(/4 models for key [0-9a-f]{8}: 2 chat, 2 image/);
    await clearNotifications();
    await wb.runCommand('Model Gateway: Switch Key');
    await waitForQuickInput('Switch to which key');
    await pick('ui-alt');
    await statusItem().filter({ hasText: 'claude-alt-opus' }).waitFor();
    await wb.runCommand('Model Gateway: Refresh Models');
    await wb.waitForNotification(/2 models for key [0-9a-f]{8}: 1 chat, 1 image/);
  });

  it('removes a key after a confirmation', async () => {
    await clearNotifications();
    await wb.runCommand('Model Gateway: Remove API Key');
    await waitForQuickInput('Remove which key');
    await pick('ui-alt');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /revoke and replace it in your gateway console/);
    await dialog.locator('.monaco-button', { hasText: /^Remove$/ }).click();
    await wb.waitForNotification('key "ui-alt" removed');
    await statusItem().filter({ hasText: 'demo (emulator)' }).waitFor();
  });

  it('does not save a revoked key and says to replace it in the console', async () => {
    await clearNotifications();
    await setKeyViaPalette('ui-revoked', 'mg-revoked-0004');
    const text = await wb.waitForNotification(/rejected this key \(401/);
    assert.match(text, /NOT saved/);
    assert.match(text, /console/);
  });

  it('offers Replace Key when the active key gets revoked (401)', async () => {
    await clearNotifications();
    const { key } = await admin.createKey({ group: 'default', name: 'ui-soon-revoked', balance: 10 });
    createdKeys.push(key);
    await setKeyViaPalette('ui-soon-revoked', key);
    await wb.waitForNotification('key "ui-soon-revoked"');
    await admin.revokeKey(key);
    await clearNotifications();
    await wb.runCommand('Model Gateway: Refresh Models');
    const text = await wb.waitForNotification(/rejected the API key \(401\)/);
    assert.match(text, /revoked[\s\S]*console/);
    assert.ok(
      await wb.page.locator('.notification-list-item .monaco-button', { hasText: 'Replace Key' }).first().isVisible(),
    );
    await wb.screenshot('platform-401-replace-key');
    await wb.runCommand('Model Gateway: Remove API Key');
    await waitForQuickInput('Remove which key');
    await pick('ui-soon-revoked');
    await wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Remove$/ }).click();
    await statusItem().filter({ hasText: 'demo (emulator)' }).waitFor();
  });

  it('explains a low balance (403) after asking before the billable request', async () => {
    await clearNotifications();
    await setKeyViaPalette('ui-low', 'mg-low-balance-0003');
    await wb.waitForNotification('key "ui-low"');
    await clearNotifications();
    await wb.runCommand('Model Gateway: Check Connection');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /billable/);
    await dialog.locator('.monaco-button', { hasText: 'Send 1-token Request' }).click();
    const text = await wb.waitForNotification(/failed at "Messages route permission"/);
    assert.match(text, /balance/i);
    // The report opens rendered (VS Code's Markdown preview), not as Markdown source.
    await wb.page.locator('.tabs-container .tab[aria-label*="Preview Connection check"]').first().waitFor();
    await wb.screenshot('platform-403-balance');
    await wb.runCommand('Model Gateway: Remove API Key');
    await waitForQuickInput('Remove which key');
    await pick('ui-low');
    await wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Remove$/ }).click();
    await statusItem().filter({ hasText: 'demo (emulator)' }).waitFor();
  });

  it('explains 429 with the Retry-After wait', async () => {
    await clearNotifications();
    // A short Retry-After: the client honours it for every later request of this key (other suites share it).
    await admin.setFaults('mg-demo-key-0001', { status: 429, count: 20, retryAfter: 2 });
    try {
      await wb.runCommand('Model Gateway: Refresh Models');
      const text = await wb.waitForNotification(/Too many requests \(429\)/);
      assert.match(text, /Retry-After/);
    } finally {
      await admin.setFaults('mg-demo-key-0001', null);
    }
  });

  it('tells once how a pasted endpoint URL was normalised, with the URLs called', async () => {
    await clearNotifications();
    await setBaseUrl(`${emulatorUrl()}/v1/chat/completions`);
    const text = await wb.waitForNotification(/Base URL normalised to/);
    assert.ok(text.includes(`${emulatorUrl()}/v1/messages`), text);
    assert.ok(text.includes(`${emulatorUrl()}/v1/models`), text);
    await wb.screenshot('platform-base-url-notice');
  });

  it('explains a wrong base URL (404) with the URL that was called', async () => {
    await clearNotifications();
    await setBaseUrl(`${emulatorUrl()}/not-the-gateway`);
    await wb.runCommand('Model Gateway: Refresh Models');
    const text = await wb.waitForNotification(/Not found \(404\)/);
    assert.ok(text.includes(`${emulatorUrl()}/not-the-gateway/v1/models`), text);
    assert.match(text, /base URL/);
    await setBaseUrl(emulatorUrl());
  });

  it('copies support info with exactly five fields per request', async () => {
    await clearNotifications();
    await wb.runCommand('Model Gateway: Refresh Models');
    await wb.waitForNotification(/4 models/);
    await wb.runCommand('Model Gateway: Copy Support Info');
    await wb.waitForNotification(/copied \d+ requests?/);
    const text = String(await wb.page.evaluate('navigator.clipboard.readText()'));
    const lines = text.split('\n');
    assert.match(lines[0], /timestamp, route, model, HTTP status, request id/);
    for (const line of lines.slice(1)) {
      const fields = line.split('\t');
      assert.strictEqual(fields.length, 5, line);
      assert.match(fields[1], /^(GET|POST) \/v1\//);
    }
    for (const key of [...KNOWN_KEYS, ...createdKeys]) assert.ok(!text.includes(key));
  });

  it('leaves no key in the log, settings, globalState or the chat webview', async () => {
    // Newer workbenches show the Settings editor as a modal over the activity bar.
    const modal = wb.page.locator('.monaco-modal-editor-block');
    for (let i = 0; i < 3 && (await modal.isVisible()); i++) {
      await wb.runCommand('View: Close All Editors');
      await wb.page.waitForTimeout(500);
    }
    await wb.openView('Model Gateway');
    const dom = await wb
      .chatWebview()
      .locator('body')
      .innerHTML({ timeout: 30_000 })
      .catch(() => '');
    const files = [
      settingsFile,
      ...walk(path.join(userDir, 'logs')),
      ...walk(path.join(userDir, 'User', 'globalStorage')).filter((f) => f.endsWith('state.vscdb')),
    ];
    assert.ok(
      files.some((file) => path.basename(file) === 'Model Gateway.log'),
      'the log channel file is scanned',
    );
    const found: string[] = [];
    for (const key of [...KNOWN_KEYS, ...createdKeys]) {
      if (dom.includes(key)) found.push(`chat webview DOM: ${key.slice(0, 6)}…`);
      for (const file of files)
        if (fs.readFileSync(file, 'latin1').includes(key))
          found.push(`${path.relative(userDir, file)}: ${key.slice(0, 6)}…`);
    }
    assert.deepStrictEqual(found, []);
  });
});

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}
