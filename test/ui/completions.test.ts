// Code completion as a user meets it in the workbench: a key of a gateway with a coder model (set through Set API
// Key), completions turned on from the status bar entry (it picks the key's fill-in-the-middle model), real keystrokes
// into a TypeScript file, VS Code's ghost text in the editor's DOM, Tab accepts it into the file, and typing on while a
// request is in flight closes its socket (the emulator logs the request aborted).
// The one-time offer is not the way in here: it is shown once per profile, when the first key's model list arrives,
// which in a full UI run is an earlier suite's window; the status bar entry runs the same setEnabled(model).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { userSettingsFile } from '../support/chatView';
import { workspaceDir } from '../support/env';
import { openWorkbench, type Workbench } from '../support/workbench';

const CODER_KEY = 'mg-coder-key-0011';
const KEY_NAME = 'ui-coder';
const MODEL = 'qwen2.5-coder-demo';
const FILE = 'completion-ui.ts';
// The coder model continues this from its corpus (src/emulator/models/coder.ts).
const START = 'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  ';
const FILL = '(n - 1) + fibonacci(n - 2);';

describe('code completion as you type (UI)', function () {
  this.timeout(240_000);
  let wb: Workbench;
  const admin = EmulatorAdmin.fromEnv();
  const file = path.join(workspaceDir(), FILE);
  const settingsFile = path.join(workspaceDir(), '.vscode', 'settings.json');
  let previousSettings: string | undefined;
  let keySet = false;

  const input = () => wb.page.locator('div.quick-input-widget .quick-input-box input');
  const quickInputClosed = (): Promise<void> => wb.page.locator('div.quick-input-widget').waitFor({ state: 'hidden' });
  const typeInto = async (value: string): Promise<void> => {
    await input().waitFor({ state: 'visible' });
    await input().fill(value);
    await input().press('Enter');
  };
  /** Waits for the quick input a command opened (newer workbenches keep the palette rows for a moment). */
  const waitForQuickInput = (labelPart: string): Promise<void> =>
    wb.page
      .locator(
        `div.quick-input-widget .quick-input-box input[aria-label*="${labelPart}"], div.quick-input-widget .quick-input-box input[placeholder*="${labelPart}"]`,
      )
      .first()
      .waitFor({ state: 'visible' });
  const pick = async (label: string): Promise<void> => {
    const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
    await row.waitFor({ state: 'visible' });
    await row.click();
    await quickInputClosed();
  };
  const completionsEntry = () => wb.page.locator('.statusbar-item[id$="modelGateway.completions"]').first();
  const keyEntry = () => wb.page.locator('.statusbar-item[id$="modelGateway.status"]').first();
  const ghostText = () =>
    wb.page.locator('.editor-instance .view-lines .ghost-text-decoration, .editor-instance .ghost-text');
  const coderPosts = async (): Promise<AdminRequestEntry[]> =>
    (await admin.requests()).filter((r) => r.keyName === 'coder' && r.path === '/v1/completions');
  /** Polls the emulator's request log until `found` returns something. */
  async function waitForRequest(
    what: string,
    found: (posts: AdminRequestEntry[]) => AdminRequestEntry | undefined,
  ): Promise<AdminRequestEntry> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const hit = found(await coderPosts());
      if (hit) return hit;
      if (Date.now() > deadline)
        throw new Error(`the emulator logged no ${what}: ${JSON.stringify(await coderPosts())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  before(async () => {
    await admin.setFaults(CODER_KEY, null);
    fs.writeFileSync(file, START);
    // VS Code's suggest widget would take Tab from the ghost text: off for this suite, through the workspace's
    // settings (the marker in window.title tells when the window has applied them; docs/testing.md#time).
    previousSettings = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    const current = previousSettings ? (JSON.parse(previousSettings) as Record<string, unknown>) : {};
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(
      settingsFile,
      JSON.stringify(
        {
          ...current,
          'editor.quickSuggestions': { other: false, comments: false, strings: false },
          'editor.suggestOnTriggerCharacters': false,
          'editor.parameterHints.enabled': false,
          'window.title': 'mg-completions ${activeEditorShort}',
        },
        null,
        2,
      ),
    );
    wb = await openWorkbench(undefined, { shared: true });
    await wb.page.waitForFunction(() => document.title.includes('mg-completions'), undefined, { timeout: 30_000 });
  });

  after(async () => {
    await admin.setFaults(CODER_KEY, null).catch(() => undefined);
    if (wb) {
      // Completions off again (the entry toggles), the key removed: later suites meet the window as it was.
      const entry = completionsEntry();
      if (!/Completions off/.test(await entry.innerText().catch(() => 'Completions off'))) {
        await entry.click().catch(() => undefined);
        await entry
          .filter({ hasText: 'Completions off' })
          .waitFor({ timeout: 30_000 })
          .catch(() => undefined);
      }
      if (keySet) {
        await wb.runCommand('Model Gateway: Remove API Key').catch(() => undefined);
        await waitForQuickInput('Remove which key').catch(() => undefined);
        await pick(KEY_NAME).catch(() => undefined);
        await wb.page
          .locator('.monaco-dialog-box .monaco-button', { hasText: /^Remove$/ })
          .click()
          .catch(() => undefined);
        await keyEntry()
          .filter({ hasText: 'demo (emulator)' })
          .waitFor({ timeout: 30_000 })
          .catch(() => undefined);
      }
      await wb.runCommand('View: Close All Editors').catch(() => undefined);
    }
    if (previousSettings === undefined) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, previousSettings);
    await wb?.page
      .waitForFunction(() => !document.title.includes('mg-completions'), undefined, { timeout: 30_000 })
      .catch(() => undefined);
    fs.rmSync(file, { force: true });
    await wb?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await wb.screenshot(`completions-failed-${this.currentTest.title}`).catch(() => undefined);
  });

  it("turns on from the status bar with the key's coder model; typing shows ghost text, Tab accepts it, typing on aborts the request in flight", async () => {
    // A key of a gateway with coder models, typed into Set API Key as a user does.
    await wb.runCommand('Model Gateway: Set API Key');
    await waitForQuickInput('Set API Key (1/2)');
    await typeInto(KEY_NAME);
    await wb.page
      .locator('div.quick-input-widget .quick-input-box input[type="password"]')
      .waitFor({ state: 'visible' });
    await typeInto(CODER_KEY);
    await quickInputClosed();
    keySet = true;
    await wb.waitForNotification(new RegExp(`key "${KEY_NAME}" \\([0-9a-f]{8}\\) works`));
    await keyEntry().filter({ hasText: KEY_NAME }).waitFor();

    // Off until the user turns it on; the entry's click picks the key's fill-in-the-middle model.
    await completionsEntry().filter({ hasText: 'Completions off' }).waitFor();
    await completionsEntry().click();
    await completionsEntry().filter({ hasText: MODEL }).waitFor();
    const settings = JSON.parse(fs.readFileSync(userSettingsFile(), 'utf8')) as Record<string, unknown>;
    assert.equal(settings['modelGateway.completions.enabled'], true);
    assert.equal(settings['modelGateway.completions.model'], MODEL);

    // The file, opened from Quick Open; the cursor at its end.
    await wb.page.keyboard.press('F1');
    await input().waitFor({ state: 'visible' });
    await input().fill(FILE);
    await pick(FILE);
    const editor = wb.page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines').click();
    await wb.page.keyboard.press('Control+End');

    // A request held by the gateway (a per-key delay) is in flight when the next key is typed: its socket closes.
    const before = new Set((await coderPosts()).map((r) => r.id));
    await admin.setFaults(CODER_KEY, { delayMs: 60_000 });
    await wb.page.keyboard.type('return fibo', { delay: 60 });
    const held = await waitForRequest('request in flight', (posts) =>
      posts.find((r) => !before.has(r.id) && r.status === 0 && !r.aborted),
    );
    await admin.setFaults(CODER_KEY, null);
    await wb.page.keyboard.type('nacci', { delay: 60 });
    const closed = await waitForRequest('aborted request', (posts) => posts.find((r) => r.id === held.id && r.aborted));
    assert.equal(closed.status, 0, 'no answer was sent for the cancelled request');

    // The next request is answered: VS Code shows the fill as ghost text after the cursor.
    await waitForRequest('answered request', (posts) => posts.find((r) => !before.has(r.id) && r.status === 200));
    await ghostText().first().waitFor({ state: 'visible', timeout: 60_000 });
    const shown = (await ghostText().allInnerTexts()).join('');
    assert.equal(shown.replace(/\u00a0/g, ' '), FILL);
    await wb.screenshot('completions-ghost-text');

    // Tab accepts it: the editor's text has the fill (saved, the file on disk has it too).
    await wb.page.keyboard.press('Tab');
    await wb.page.keyboard.press('Control+S');
    const deadline = Date.now() + 30_000;
    while (!fs.readFileSync(file, 'utf8').includes(`return fibonacci${FILL}`)) {
      if (Date.now() > deadline) throw new Error(`the file does not have the fill: ${fs.readFileSync(file, 'utf8')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(fs.readFileSync(file, 'utf8'), `${START}return fibonacci${FILL}`);
  });
});
