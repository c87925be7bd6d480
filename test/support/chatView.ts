// Driving our chat view in the real workbench, the way a user does: type into the composer and press Enter, switch
// to Agent mode, wait for an answer to finish; and the Settings editor for user settings. One copy for every UI suite.
import * as fs from 'fs';
import * as path from 'path';
import type { FrameLocator, Locator } from 'playwright-core';
import { resultsDir, vscodeVersion, workspaceDir } from './env';
import { CONTAINER_TITLE, openWorkbench, type Workbench } from './workbench';

export interface ChatView {
  /** The chat view's page (the visible webview; after a reload a stale, hidden frame can come first). */
  readonly frame: FrameLocator;
  /** Sends a question and waits until its answer's message exists (so lastAnswer() is the new one). */
  send(text: string, timeoutMs?: number): Promise<void>;
  lastAnswer(): Locator;
  /** Waits until the last answer has this status ('complete', 'stopped', 'error', …). */
  finished(status?: string, timeoutMs?: number): Promise<void>;
  /** A new conversation in Agent mode, or in `mode` (the host confirms the switch). */
  newAgentChat(mode?: 'agent' | 'plan'): Promise<void>;
  /** Stops a turn a failed test left running (the next question would be refused while it runs). */
  stopRunningTurn(): Promise<void>;
  /** Opens our view container again and takes its page (after a reload or an editor that covered it). */
  reopen(): Promise<void>;
}

export function chatView(wb: Workbench): ChatView {
  let frame = wb.chatWebview();
  const lastAnswer = () => frame.locator('.message.assistant').last();
  return {
    get frame() {
      return frame;
    },
    async send(text, timeoutMs = 30_000) {
      const answers = await frame.locator('.message.assistant').count();
      const input = frame.locator('.composer .input');
      await input.click();
      await input.fill(text);
      await input.press('Enter');
      await frame.locator('.message.assistant').nth(answers).waitFor({ state: 'attached', timeout: timeoutMs });
    },
    lastAnswer,
    async finished(status = 'complete', timeoutMs = 90_000) {
      await lastAnswer()
        .and(frame.locator(`[data-status="${status}"]`))
        .waitFor({ timeout: timeoutMs });
    },
    async newAgentChat(mode = 'agent') {
      await viewTitleAction(wb, 'New Chat').click();
      // The host answers with the new conversation's snapshot: wait for it, or the mode goes to the old one.
      await frame.locator('.messages .empty').waitFor({ timeout: 30_000 });
      await frame.locator('.composer[data-mode="ask"]').waitFor({ timeout: 30_000 });
      await frame.locator('.composer select.mode').selectOption(mode);
      await frame.locator(`.composer[data-mode="${mode}"]`).waitFor({ timeout: 30_000 });
    },
    async stopRunningTurn() {
      // Nor a Settings editor left open over the chat (1.139 shows it as a modal).
      await wb.closeModalEditor();
      const stop = frame.locator('button[data-action="stop"]');
      if (await stop.isVisible().catch(() => false)) {
        await stop.click();
        await stop.waitFor({ state: 'hidden', timeout: 30_000 }).catch(() => undefined);
      }
    },
    async reopen() {
      await wb.openView(CONTAINER_TITLE);
      frame = wb.chatWebview();
      await frame.locator('.composer .input').waitFor({ timeout: 60_000 });
    },
  };
}

/**
 * The shared workbench with our chat view open on an empty conversation: suites share the profile, so a suite starts
 * from a new chat, not the one an earlier suite left active.
 */
export async function openFreshChatView(): Promise<{ wb: Workbench; view: ChatView }> {
  const wb = await openWorkbench(undefined, { shared: true });
  const view = chatView(wb);
  await view.reopen();
  await wb.runCommand('Model Gateway: New Chat');
  await view.frame.locator('.message').first().waitFor({ state: 'detached', timeout: 30_000 });
  return { wb, view };
}

/**
 * Reloads the window and takes the chat view's page again until `selector` shows in it: after a reload the view's
 * frame may come up late, or a stale hidden one first, so it looks again until it answers (for up to 120 s).
 */
export async function reloadAndReopen(wb: Workbench, view: ChatView, selector: string): Promise<void> {
  await wb.page.reload();
  await wb.page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  const deadline = Date.now() + 120_000;
  for (;;) {
    await view.reopen().catch(() => undefined);
    try {
      await view.frame.locator(selector).last().waitFor({ timeout: 20_000 });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
}

/** Our settings' defaults (package.json), for telling a value set back to its default from one still changed. */
const DEFAULTS: Record<string, unknown> = Object.fromEntries(
  (
    [
      (
        JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
          contributes: { configuration: unknown };
        }
      ).contributes.configuration,
    ].flat() as { properties: Record<string, { default?: unknown }> }[]
  ).flatMap((section) => Object.entries(section.properties).map(([id, p]) => [id, p.default])),
);

/**
 * A setting's value in settings.json's text as VS Code reads it: an absent key is its default (the Settings editor
 * removes a key set back to its default instead of writing the value); undefined when the text is not JSON.
 */
export function settingValue(settingsText: string, id: string): unknown {
  let settings: Record<string, unknown>;
  try {
    settings = JSON.parse(settingsText) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  return id in settings ? settings[id] : DEFAULTS[id];
}

/**
 * The user settings whose value differs between two texts of settings.json (a key set back to its default counts as
 * unchanged).
 */
export function settingsChanged(beforeText: string, afterText: string): { id: string; before: unknown }[] {
  if (beforeText === afterText) return [];
  let before: Record<string, unknown>;
  let after: Record<string, unknown>;
  try {
    before = JSON.parse(beforeText) as Record<string, unknown>;
    after = JSON.parse(afterText) as Record<string, unknown>;
  } catch {
    return [{ id: 'settings.json', before: undefined }]; // not JSON (comments): put the text back
  }
  const value = (o: Record<string, unknown>, id: string) => (id in o ? o[id] : DEFAULTS[id]);
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((id) => JSON.stringify(value(before, id)) !== JSON.stringify(value(after, id)))
    .map((id) => ({ id, before: value(before, id) }));
}

/**
 * One of the chat view's title-bar actions (package.json menus view/title), by its command's title: an icon
 * `a.action-label` whose aria-label is the title. Our container has one view, so VS Code shows them in the side bar's
 * title (1.100.3 and 1.139.1); a pane header of the view would hold them if it had more.
 */
export function viewTitleAction(wb: Workbench, title: string): Locator {
  return wb.page
    .locator(
      `.part.sidebar .composite.title a.action-label[aria-label="${title}"], ` +
        `.part.sidebar .pane-header a.action-label[aria-label="${title}"]`,
    )
    .first();
}

/** A workspace file's text once `check` accepts it (undefined: the file does not exist); throws after `ms`. */
export async function waitForWorkspaceFile(
  rel: string,
  check: (text: string | undefined) => boolean,
  what: string,
  ms = 30_000,
): Promise<string | undefined> {
  const file = path.join(workspaceDir(), rel);
  const deadline = Date.now() + ms;
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (check(text)) return text;
    if (Date.now() > deadline) throw new Error(`${what}: ${rel} is ${JSON.stringify(text?.slice(0, 200))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The profile's user settings.json (next to the workspace folder the harness makes). */
export const userSettingsFile = (): string => path.join(path.dirname(workspaceDir()), 'user', 'User', 'settings.json');

/**
 * Sets a user setting through the Settings editor, as a user would (the workbench ignores outside writes to
 * settings.json), waits until it is written, closes the editor and brings the chat view back.
 */
export async function setUserSetting(
  wb: Workbench,
  chat: ChatView,
  id: string,
  title: string,
  value: boolean | number,
): Promise<void> {
  const page = wb.page;
  await page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
  await wb.runCommand('Preferences: Open Settings (UI)');
  const searchBox = page.locator('.settings-editor .settings-header .monaco-editor').first();
  await searchBox.waitFor({ state: 'visible', timeout: 30_000 });
  const row = page.locator('.settings-editor .setting-item', { hasText: title }).first();
  // The search box may not take keys until the editor has settled: type again until the row shows.
  for (let attempt = 0; ; attempt++) {
    await searchBox.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(id);
    try {
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (e) {
      if (attempt >= 2) throw e;
    }
  }
  if (typeof value === 'boolean') {
    const box = row.locator('.setting-value-checkbox').first();
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    if ((await box.getAttribute('aria-checked')) !== String(value)) await box.click();
  } else {
    const box = row.locator('.setting-item-control input').first();
    await box.waitFor({ state: 'visible', timeout: 30_000 });
    await box.fill(String(value));
    await box.press('Tab');
  }
  const deadline = Date.now() + 30_000;
  // Back to its default the key is removed, not written (settingValue): waiting for a written 25 on maxSteps ran into
  // the deadline, and every suite that had changed it reloaded the shared window instead.
  const written = (): unknown => settingValue(fs.readFileSync(userSettingsFile(), 'utf8'), id);
  while (written() !== value) {
    if (Date.now() > deadline) throw new Error(`the Settings editor did not write ${id}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await wb.closeModalEditor();
  await wb.runCommand('View: Close All Editors');
  await chat.reopen();
}

/**
 * Makes the user's settings.json `text` through the window, as a user editing the file would: its JSON editor
 * (Preferences: Open User Settings (JSON)), the whole text replaced by a paste (a paste is not typed: no auto-closing,
 * no auto-indent) and saved; waits until the file on disk holds it, closes the editor and brings the chat view back.
 * The window reads its own save at once, where an outside write reached it late or never (a reload of the shared
 * window cost 14-18 s on a loaded machine). Any setting, any value: arrays and enums too, which setUserSetting cannot.
 */
export async function writeUserSettings(wb: Workbench, chat: ChatView | undefined, text: string): Promise<void> {
  const page = wb.page;
  await page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
  // An editor tab on 1.100.3, a modal editor on 1.139.1: either way Monaco names the file it shows.
  const editor = page.locator('.monaco-editor[data-uri$="/User/settings.json"]').first();
  // Once more when it does not show: a fresh run saw no editor for 30 s after the palette had run the command (right
  // after another suite's window reload). Opening the file twice shows it once.
  for (let attempt = 1; ; attempt++) {
    await wb.runCommand('Preferences: Open User Settings (JSON)');
    try {
      await editor.waitFor({ state: 'visible', timeout: 15_000 });
      break;
    } catch (err) {
      await wb.screenshot(`settings-json-not-shown-${attempt}`).catch(() => undefined);
      if (attempt >= 2) throw err;
      console.log('    (settings.json did not show in 15 s after its command: running the command again)');
    }
  }
  const file = userSettingsFile();
  const deadline = Date.now() + 30_000;
  // The editor may not take keys until it has settled: paste again until the file holds the text.
  for (let attempt = 0; ; attempt++) {
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+A');
    if (text) {
      await page.evaluate((t) => {
        const data = new DataTransfer();
        data.setData('text/plain', t);
        document.activeElement?.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      }, text);
    } else await page.keyboard.press('Delete');
    await page.keyboard.press('Control+S');
    const saved = Date.now() + 10_000;
    while (Date.now() < saved && fs.readFileSync(file, 'utf8') !== text) await page.waitForTimeout(100);
    if (fs.readFileSync(file, 'utf8') === text) break;
    if (attempt >= 2 || Date.now() > deadline)
      throw new Error(
        `settings.json was not written through its editor; it holds ${JSON.stringify(fs.readFileSync(file, 'utf8').slice(0, 300))}`,
      );
  }
  await wb.closeModalEditor();
  await wb.runCommand('View: Close All Editors');
  await chat?.reopen();
}

/**
 * What a failed chat test saw, for the next person to read: a screenshot, and for every webview of ours whether it
 * is visible and what its page shows (test-results/<version>/failures/).
 */
export async function recordChatFailure(wb: Workbench, title: string): Promise<void> {
  const dir = path.join(resultsDir(), vscodeVersion(), 'failures');
  fs.mkdirSync(dir, { recursive: true });
  const name = title.replace(/[^\w-]+/g, '-').slice(0, 60);
  await wb.page.screenshot({ path: path.join(dir, `${name}.png`) }).catch(() => undefined);
  const lines: string[] = [];
  const frames = wb.page.locator('iframe.webview[src*="extensionId=model-gateway.model-gateway"]');
  for (let i = 0; i < (await frames.count()); i++) {
    const frame = frames.nth(i);
    const src = (await frame.getAttribute('src')) ?? '';
    const purpose = /purpose=(\w+)/.exec(src)?.[1] ?? '?';
    const visible = await frame.isVisible().catch(() => false);
    const body = await frame
      .contentFrame()
      .locator('#active-frame')
      .contentFrame()
      .locator('body')
      .innerHTML({ timeout: 2_000 })
      .catch((e: Error) => `(unreadable: ${e.message.split('\n')[0]})`);
    lines.push(`webview ${i}: purpose=${purpose} visible=${visible}\n${body.slice(0, 6_000)}\n`);
  }
  fs.writeFileSync(path.join(dir, `${name}.txt`), lines.join('\n') || 'no webview of ours');
}

/**
 * The hooks of a suite that works in our chat view (the agent suites), in the window the run's suites share: the
 * emulator's faults cleared, `prepare` (workspace files) before the window is taken, a new conversation; after it the
 * user settings a test changed are put back (through settings.json's editor) and `cleanup` runs; a failed test is
 * recorded (recordChatFailure), and a turn it left running is stopped before the next test (the next question would be
 * refused while it runs).
 */
export function chatViewSuite(options: {
  admin: { setFaults(key: string, faults: null): Promise<unknown> };
  key: string;
  prepare?: () => void;
  cleanup?: () => void;
}): { readonly wb: Workbench; readonly view: ChatView } {
  let wb: Workbench | undefined;
  let view: ChatView | undefined;
  let userSettings = '';
  before(async () => {
    await options.admin.setFaults(options.key, null);
    options.prepare?.();
    userSettings = fs.readFileSync(userSettingsFile(), 'utf8');
    // The run's shared window (a fresh one cost 33-49 s per suite on a loaded 2-core machine): the suite starts from
    // a new conversation in it, and its after() puts back what it changed (settings, faults; resetWorkbench the rest).
    ({ wb, view } = await openFreshChatView());
  });
  after(async () => {
    await options.admin.setFaults(options.key, null).catch(() => undefined);
    options.cleanup?.();
    const now = userSettings ? fs.readFileSync(userSettingsFile(), 'utf8') : '';
    if (wb && view && settingsChanged(userSettings, now).length) {
      // Through the window's own settings.json editor (2-3 s), where a reload of the shared window cost 14-18 s on a
      // loaded machine. If that fails, the file is written from outside and the window reloaded: an outside write
      // reaches an open window late or never, and what this suite set (auto-approval, say) must not reach the next.
      try {
        await writeUserSettings(wb, view, userSettings);
      } catch (err) {
        console.warn(`    (settings not put back in their editor, reloading instead: ${String(err).slice(0, 200)})`);
        fs.writeFileSync(userSettingsFile(), userSettings);
        await reloadAndReopen(wb, chatView(wb), '.composer .input');
      }
    }
    await wb?.close();
  });
  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') await recordChatFailure(wb, this.currentTest.title);
  });
  beforeEach(() => view?.stopRunningTurn());
  return {
    get wb() {
      if (!wb) throw new Error('the suite has no workbench yet (used outside a test?)');
      return wb;
    },
    get view() {
      if (!view) throw new Error('the suite has no chat view yet (used outside a test?)');
      return view;
    },
  };
}
