// The workbench in Simplified Chinese: the extension's manifest strings (view, command titles) come from
// package.nls.zh-cn.json and its host strings (a 401 error, the chat's error card and its buttons) from
// l10n/bundle.l10n.zh-cn.json, following the window's
// display language. code-server has no zh-cn language pack here, so the window's language is set the way a language
// pack sets it (see WorkbenchOptions.displayLanguage); VS Code's own UI stays English.
import * as assert from 'assert';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { openWorkbench, type Workbench } from '../support/workbench';

describe('l10n: the workbench in Simplified Chinese (zh-cn)', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;

  const input = () => wb!.page.locator('div.quick-input-widget .quick-input-box input');
  const type = async (value: string): Promise<void> => {
    await input().waitFor({ state: 'visible' });
    await input().fill(value);
    await input().press('Enter');
  };
  /** The labels of the palette rows for a filter (the palette stays open). */
  const paletteRows = async (filter: string): Promise<string[]> => {
    // Keys typed while a webview has focus do not reach the workbench: take the focus back, try both keybindings.
    for (const key of ['F1', 'Control+Shift+P', 'F1', 'Control+Shift+P']) {
      if (await input().isVisible()) break;
      await wb!.page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
      // A chat view that opens with the window (1.139) can take the focus back: click the editor area first.
      await wb!.page
        .locator('.part.editor')
        .first()
        .click({ position: { x: 40, y: 40 } })
        .catch(() => undefined);
      await wb!.page.keyboard.press(key);
      await input()
        .waitFor({ state: 'visible', timeout: 5_000 })
        .catch(() => undefined);
    }
    await input().waitFor({ state: 'visible' });
    await input().fill(`>${filter}`);
    const rows = wb!.page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible' });
    await wb!.page.waitForTimeout(500);
    const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
    await input().press('Escape');
    // Newer workbenches animate the quick input away; it cannot be reopened and typed into until it is gone.
    await wb!.page.locator('div.quick-input-widget').waitFor({ state: 'hidden' });
    return labels;
  };

  afterEach(async function () {
    if (this.currentTest?.state === 'failed')
      await wb?.screenshot(`l10n-failed-${this.currentTest.title}`).catch(() => undefined);
  });

  after(async () => {
    await wb?.close();
  });

  it('a browser locale alone (Accept-Language zh-CN, as --locale without a language pack) leaves the extension in English', async () => {
    // Documents why the suite sets the window language: if code-server starts honouring the locale without a
    // language pack, this fails and the workaround in openWorkbench can go.
    wb = await openWorkbench(undefined, { browserLocale: 'zh-CN' });
    try {
      // The palette list is virtual: filter to the row, or a new command sorted before it pushes it out of view.
      const rows = await paletteRows('Model Gateway: Set API Key');
      assert.ok(
        rows.some((l) => l.startsWith('Model Gateway: Set API Key')),
        `English titles expected; rows: ${JSON.stringify(rows.slice(0, 6))}`,
      );
    } finally {
      await wb.close();
      wb = undefined;
    }
  });

  it('shows the view and command titles in Chinese', async () => {
    wb = await openWorkbench(undefined, { displayLanguage: 'zh-cn' });
    await wb.openView('Model Gateway');
    // The one view of the container: its name from package.nls.zh-cn.json.
    await wb.page.locator('.part.sidebar', { hasText: '聊天' }).first().waitFor({ state: 'visible' });
    // One filter per title: the palette list is virtual and renders only the rows in view.
    for (const title of ['设置 API 密钥', '检查连接', '生成图像', '打开聊天']) {
      const rows = await paletteRows(`Model Gateway: ${title}`);
      assert.ok(
        rows.some((l) => l.includes(`Model Gateway: ${title}`)),
        `palette row "Model Gateway: ${title}" in ${JSON.stringify(rows.slice(0, 8))}`,
      );
    }
    const english = await paletteRows('Model Gateway: Set API Key');
    assert.ok(
      !english.some((l) => l.startsWith('Model Gateway: Set API Key')),
      `no English title shown: ${JSON.stringify(english.slice(0, 8))}`,
    );
    await wb.screenshot('l10n-zh-cn-palette');
  });

  it('Set API Key with a revoked key: the steps and the 401 error in Chinese, the key not shown', async () => {
    assert.ok(wb, 'opened by the previous test');
    await wb.runCommand('Model Gateway: 设置 API 密钥');
    await wb.page
      .locator('div.quick-input-widget', { hasText: '设置 API 密钥 (1/2)' })
      .first()
      .waitFor({ state: 'visible' });
    const prompt = await wb.page.locator('div.quick-input-widget').innerText();
    assert.match(prompt, /专用密钥/, 'the one-key-per-device advice in Chinese');
    await type('ui-l10n-revoked');
    await wb.page
      .locator('div.quick-input-widget .quick-input-box input[type="password"]')
      .waitFor({ state: 'visible' });
    await type('mg-revoked-0004');
    const text = await wb.waitForNotification(/网关拒绝了此 API 密钥（401/, 60_000);
    assert.match(text, /没有被保存/);
    assert.match(text, /网关控制台中创建一个新密钥/);
    assert.ok(!text.includes('mg-revoked-0004'), 'the key never appears');
    // The button of the notification is translated too.
    await wb.page
      .locator('.notifications-toasts .monaco-button', { hasText: '换一个密钥' })
      .first()
      .waitFor({ state: 'visible' });
    await wb.screenshot('l10n-zh-cn-401');
  });

  it('an error of the gateway (429) gets the advice in Chinese, with the wait in Chinese units', async () => {
    assert.ok(wb, 'opened by the previous tests');
    const admin = EmulatorAdmin.fromEnv();
    // A short Retry-After: the client honours it for every later request of this key (other suites share it).
    await admin.setFaults('mg-demo-key-0001', { status: 429, count: 20, retryAfter: 2 });
    try {
      await wb.runCommand('Model Gateway: 刷新模型列表');
      const text = await wb.waitForNotification(/请求过多（429）/, 60_000);
      assert.match(text, /网关要求等待 2 秒（Retry-After）/);
      assert.match(text, /请求会排队并逐个发送/);
    } finally {
      await admin.setFaults('mg-demo-key-0001', null);
    }
  });

  it('the chat in Chinese: a 401 from the gateway shows its error card (title, advice, buttons) in Chinese', async () => {
    assert.ok(wb, 'opened by the previous tests');
    const admin = EmulatorAdmin.fromEnv();
    await wb.runCommand('Model Gateway: 打开聊天');
    const chat = wb.chatWebview();
    const input = chat.locator('.composer .input');
    await input.waitFor({ timeout: 60_000 });
    // A new conversation: earlier suites in this profile may have left one with answers in it.
    await wb.runCommand('Model Gateway: 新建聊天');
    await chat.locator('.message').first().waitFor({ state: 'detached', timeout: 30_000 });
    // The new conversation's heading and the composer: the host's words and the webview's string table, in Chinese.
    await chat.locator('.title', { hasText: '新建聊天' }).first().waitFor({ timeout: 10_000 });
    assert.match(
      (await input.getAttribute('placeholder')) ?? '',
      /[\u4e00-\u9fff]/,
      'the composer placeholder in Chinese',
    );
    // The Ask/Agent mode selector too.
    const modes = await chat.locator('.composer select.mode option').allInnerTexts();
    assert.deepEqual(modes.slice(0, 2), ['询问', '智能体'], JSON.stringify(modes));
    await admin.setFaults('mg-demo-key-0001', { status: 401, count: 1 });
    try {
      await input.click();
      await input.fill('zh-cn error card');
      await input.press('Enter');
      const card = chat.locator('.message.assistant').last().locator('.error-card');
      await card.waitFor({ timeout: 60_000 });
      // Title and advice: the host's words (src/gateway/errors/advice.ts through vscode.l10n).
      await chat
        .locator('.error-card .error-title', { hasText: '网关拒绝了此 API 密钥（401）' })
        .waitFor({ timeout: 10_000 });
      const text = await card.innerText();
      assert.match(text, /密钥不完整、已被吊销或有误/, text);
      assert.match(text, /为这台设备创建一个专用密钥/, text);
      assert.doesNotMatch(
        text,
        /The gateway rejected|Replace Key|dedicated key/,
        `no English left on the card: ${text}`,
      );
      // The buttons: the webview's string table, delivered by the host in the display language.
      assert.equal(
        await card.locator('button', { hasText: '更换密钥' }).count(),
        1,
        `a "Replace Key" button in Chinese: ${text}`,
      );
      await wb.screenshot('l10n-zh-cn-chat-401');
    } finally {
      await admin.setFaults('mg-demo-key-0001', null);
    }
  });
});
