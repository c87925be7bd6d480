// Chat in the real VS Code workbench against the emulator: streaming, stop (the emulator sees the abort),
// reload restores the conversation, and each error class shows its card.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { chatView, openFreshChatView, recordChatFailure, viewTitleAction, type ChatView } from '../support/chatView';
import { EmulatorAdmin, type AdminFaults } from '../support/emulatorAdmin';
import { resultsDir, vscodeVersion, workspaceDir } from '../support/env';
import { CONTAINER_TITLE, type Workbench } from '../support/workbench';
import { waitUntil } from '../support/poll';

const KEY = 'mg-demo-key-0001';

describe('chat view (UI)', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let view: ChatView;
  const admin = EmulatorAdmin.fromEnv();

  before(async () => {
    await admin.setFaults(KEY, null);
    ({ wb, view } = await openFreshChatView());
  });
  after(async () => {
    await admin.setFaults(KEY, null).catch(() => undefined);
    await wb?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await recordChatFailure(wb, this.currentTest.title);
  });

  const messagesRequests = async () => (await admin.requests()).filter((r) => r.path.includes('/v1/messages'));

  it('sends a message and the answer streams in', async () => {
    await admin.setFaults(KEY, { tokensPerSecond: 60 });
    await view.send('Hello from the UI test: show me some **markdown** [[tokens=120]]');
    await view.frame
      .locator('.message.assistant[data-status="streaming"] .body')
      .filter({ hasText: /\S/ })
      .waitFor({ timeout: 60_000 });
    const partial = (await view.lastAnswer().locator('.body').innerText()).length;
    await view.lastAnswer().and(view.frame.locator('[data-status="complete"]')).waitFor({ timeout: 60_000 });
    const final = (await view.lastAnswer().locator('.body').innerText()).length;
    assert.ok(final > partial, `text grew while streaming (${partial} → ${final})`);
    assert.match(await view.lastAnswer().locator('.meta').innerText(), /tokens: in [\d,]+ · out [\d,]+/);
    await admin.setFaults(KEY, null);
    await view.send('Write a tiny TypeScript function, please.');
    await view.lastAnswer().and(view.frame.locator('[data-status="complete"]')).waitFor({ timeout: 60_000 });
    const shot = path.join(resultsDir(), 'screenshots', vscodeVersion(), 'chat.png'); // README's docs/images/ copy is refreshed by hand
    await wb.page.locator('.part.sidebar').first().screenshot({ path: shot });
    assert.ok(fs.statSync(shot).size > 1000);
  });

  it('Stop closes the request at the emulator and keeps the partial answer', async () => {
    await admin.setFaults(KEY, { tokensPerSecond: 20 });
    await view.send('Please stop me [[tokens=3000]]');
    await view.frame
      .locator('.message.assistant[data-status="streaming"] .body')
      .filter({ hasText: /\S/ })
      .waitFor({ timeout: 60_000 });
    await view.frame.locator('button[data-action="stop"]').click();
    await view.lastAnswer().and(view.frame.locator('[data-status="stopped"]')).waitFor({ timeout: 30_000 });
    assert.ok((await view.lastAnswer().locator('.body').innerText()).trim().length > 0, 'partial text kept');
    assert.equal(await view.lastAnswer().locator('.badge.stopped').count(), 1);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const last = (await messagesRequests()).pop();
      if (last?.aborted) break;
      if (Date.now() > deadline) assert.fail(`the emulator did not see the abort: ${JSON.stringify(last)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    await admin.setFaults(KEY, null);
  });

  const cases: Array<{ name: string; faults: AdminFaults; card: RegExp; button: string }> = [
    { name: '401', faults: { status: 401, count: 1 }, card: /401/, button: 'Replace Key' },
    { name: '403', faults: { status: 403, count: 1 }, card: /403/, button: 'Check Connection' },
    // The model list works at this base URL, so a 404 on the route is "this gateway does not offer it", not the base URL.
    { name: '404', faults: { status: 404, count: 1 }, card: /does not offer[\s\S]*404/, button: 'Check Connection' },
    { name: '5xx', faults: { status: 503, count: 1 }, card: /server error|503/i, button: 'Retry' },
  ];
  for (const c of cases) {
    it(`${c.name} shows its error card with "${c.button}"`, async () => {
      await admin.setFaults(KEY, c.faults);
      await view.send(`error case ${c.name}`);
      const card = view.lastAnswer().locator('.error-card');
      await card.waitFor({ timeout: 60_000 });
      assert.match(await card.innerText(), c.card);
      assert.equal(await card.locator('button', { hasText: c.button }).count(), 1);
      await admin.setFaults(KEY, null);
    });
  }

  it('5xx Retry sends once more (never automatically)', async () => {
    const before = (await messagesRequests()).length;
    await view.lastAnswer().locator('.error-card button', { hasText: 'Retry' }).click();
    await view.lastAnswer().and(view.frame.locator('[data-status="complete"]')).waitFor({ timeout: 60_000 });
    assert.equal((await messagesRequests()).length, before + 1);
  });

  it('429 queues with a countdown and sends by itself when the wait is over', async () => {
    // The chat's request slot is the one owner of waiting and sending again (the client does not retry a chat 429).
    await admin.setFaults(KEY, { status: 429, count: 1, retryAfter: 3 });
    await view.send('rate limited question');
    await view.lastAnswer().locator('.countdown').waitFor({ timeout: 60_000 });
    assert.match(await view.lastAnswer().locator('.countdown').innerText(), /automatically in \d+ s/);
    await view.lastAnswer().and(view.frame.locator('[data-status="complete"]')).waitFor({ timeout: 60_000 });
  });

  /**
   * Writes settings into the workspace's .vscode/settings.json, as a user editing that file would, and waits until the
   * window has applied them: the same write sets `window.title`, which the page title shows once the workbench has read
   * the file (after 0.5-2 s). The extension host gets the new configuration from the window before any later message of
   * the chat view, so the next request already uses it. Returns a function that puts the file back the same way.
   * (Not the user settings.json: code-server noticed an external write there late or never, on 4.100.3 and 4.139.1,
   * and the Settings editor's rows sometimes stayed hidden for more than 30 s on a loaded machine.)
   */
  async function applyWorkspaceSettings(values: Record<string, unknown>, marker: string): Promise<() => Promise<void>> {
    const file = path.join(workspaceDir(), '.vscode', 'settings.json');
    const previous = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const current = previous ? (JSON.parse(previous) as Record<string, unknown>) : {};
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({ ...current, ...values, 'window.title': `${marker} \${activeEditorShort}` }, null, 2),
    );
    await wb.page.waitForFunction((m) => document.title.includes(m), marker, { timeout: 30_000 });
    return async () => {
      if (previous === undefined) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, previous);
      await wb.page.waitForFunction((m) => !document.title.includes(m), marker, { timeout: 30_000 });
    };
  }

  it('timeout says the outcome is unknown and offers no blind Retry', async () => {
    const restore = await applyWorkspaceSettings({ 'modelGateway.requestTimeoutSeconds': 5 }, 'mg-timeout-5');
    try {
      await view.frame.locator('.composer .input').waitFor({ timeout: 60_000 });
      await admin.setFaults(KEY, { hang: true });
      await view.send('this will hang');
      const card = view.lastAnswer().locator('.error-card');
      // 5 s timeout, plus slack for a loaded machine (far below the 120 s default it replaces).
      await card.waitFor({ timeout: 45_000 });
      assert.match(await card.innerText(), /outcome is unknown/i);
      assert.equal(await card.locator('button', { hasText: 'Retry' }).count(), 0);
    } finally {
      await admin.setFaults(KEY, null);
      await restore();
    }
  });

  it('reloading the window restores the conversation', async () => {
    // The earlier tests left at least 4 messages; wait for them to be rendered (the view may be re-rendering its
    // snapshot after the settings change of the previous test) before counting what the reload must bring back.
    await view.frame.locator('.message').nth(3).waitFor({ state: 'attached', timeout: 30_000 });
    const count = await view.frame.locator('.message').count();
    assert.ok(count >= 4);
    await wb.page.reload();
    await wb.page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
    await wb.openView(CONTAINER_TITLE);
    view = chatView(wb);
    await view.frame.locator('.message.user').first().waitFor({ state: 'attached', timeout: 60_000 });
    assert.equal(await view.frame.locator('.message').count(), count);
    // Messages far from the bottom render when scrolled into view.
    await view.frame.locator('.message.user').first().scrollIntoViewIfNeeded();
    await view.frame.locator('.message.user .user-text').first().waitFor();
    assert.match(await view.frame.locator('.message.user .user-text').first().innerText(), /Hello from the UI test/);
  });

  it("New Chat and Show Conversations are the view title bar's actions, and the page has no second copy of them", async () => {
    await view.send('A question before a new chat');
    await view.finished();
    // The conversation it went to (the page's header names it): the list must offer it after New Chat.
    const before = (await view.frame.locator('.header .title').innerText()).trim();
    const newChat = viewTitleAction(wb, 'New Chat');
    const history = viewTitleAction(wb, 'Show Conversations');
    await newChat.waitFor({ timeout: 30_000 });
    await history.waitFor({ timeout: 30_000 });
    // One place for each: the page's header only names the conversation.
    const page = view.frame;
    assert.equal(await page.locator('.header button').count(), 0, 'no buttons in the header');
    for (const label of ['New chat', 'New Chat', 'Conversations', 'Show Conversations'])
      assert.equal(await page.locator(`button[aria-label="${label}"], button[title="${label}"]`).count(), 0, label);
    assert.equal(await page.locator('[data-action="newConversation"], [data-action="toggleConversations"]').count(), 0);

    await newChat.click();
    await page.locator('.messages .empty').waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('.message').count(), 0, 'a new, empty conversation');

    // The list opens with its search focused; Escape closes it and the keyboard is back in the composer.
    const list = page.locator('.conversations');
    assert.equal(await list.isVisible(), false, 'the list starts closed');
    await history.click();
    await list.waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.conversation-open', { hasText: before }).first().waitFor({ timeout: 30_000 });
    const focused = (selector: string) =>
      page.locator(selector).evaluate((e) => e === document.activeElement && document.hasFocus());
    await waitUntil(
      () => focused('.conversations .search').catch(() => false),
      'the search takes the keyboard',
      30_000,
      200,
    );
    await wb.page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden', timeout: 30_000 });
    await waitUntil(
      () => focused('.composer .input').catch(() => false),
      'the composer takes the keyboard back',
      30_000,
      200,
    );
    // The button pressed twice closes the list again, as the page's own button did.
    await history.click();
    await list.waitFor({ state: 'visible', timeout: 30_000 });
    await history.click();
    await list.waitFor({ state: 'hidden', timeout: 30_000 });
  });

  it('the model box lists the gateway models with kind and price; a pick and a typed id are both what is sent', async () => {
    const box = view.frame.locator('.composer input.model');
    const list = view.frame.locator('.composer .model-list');
    const initial = await box.inputValue();
    const sentModel = async (question: string) => {
      await view.send(question);
      await view.finished();
      return (await messagesRequests()).at(-1)?.model;
    };
    try {
      await box.click();
      await box.press('ArrowDown');
      await list.waitFor({ state: 'visible', timeout: 30_000 });
      const names = await list.locator('.model-name').allInnerTexts();
      assert.ok(names.includes('claude-demo-sonnet') && names.includes('claude-demo-haiku'), JSON.stringify(names));
      // The gateway's list publishes prices (OpenRouter's pricing) for this one: kind and price, per 1M tokens.
      const sonnet = list.locator('li.model-option', { hasText: 'claude-demo-sonnet' }).first();
      assert.match(await sonnet.locator('.model-detail').innerText(), /^chat( · .+)? · in 3 · out 15 per 1M tokens$/);
      await list.locator('li.model-option', { hasText: 'claude-demo-haiku' }).first().click();
      await list.waitFor({ state: 'hidden', timeout: 30_000 });
      assert.equal(await box.inputValue(), 'claude-demo-haiku');
      assert.equal(await sentModel('Which model answers? (picked)'), 'claude-demo-haiku');
      // Typed, not picked: the list filters as the id is typed and closes; the id goes as it was typed.
      await box.click();
      await box.fill('');
      await box.pressSequentially('claude-demo-sonnet');
      await list.waitFor({ state: 'visible', timeout: 30_000 });
      const filtered = await list.locator('.model-name').allInnerTexts();
      assert.ok(
        filtered.length > 0 && filtered.every((n) => n.includes('claude-demo-sonnet')),
        JSON.stringify(filtered),
      );
      await box.press('Escape');
      await box.press('Tab');
      assert.equal(await sentModel('Which model answers? (typed)'), 'claude-demo-sonnet');
    } finally {
      if ((await box.inputValue()) !== initial) {
        await box.fill(initial);
        await box.press('Tab');
      }
    }
  });
});
