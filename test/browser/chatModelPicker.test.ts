/// <reference lib="dom" />
// The composer's model picker (issue 35 item 14): each model with its kind, window and price where known; arrow
// keys, Enter and Escape; a typed id still goes; ids are text, never markup; English and Simplified Chinese.
import { strict as assert } from 'node:assert';
import { chatPageSuite, openChatPage, snapshot, type ChatPage } from '../support/chatPage';
import { chineseStringTable } from '../support/webviewPage';

const zhTable = chineseStringTable();

const models = [
  { id: 'claude-demo-sonnet', kind: 'chat', vision: true, window: 200_000, price: { input: 3, output: 15 } },
  { id: 'claude-demo-haiku', kind: 'chat', window: 64_000 },
  { id: '<img src=x onerror=alert(1)>', kind: 'chat' },
];

describe('chat: model picker (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(async (page) => page.play({ type: 'snapshot', snapshot: snapshot([], { models }) }));
  beforeEach(() => {
    chat = pages.chat;
  });
  const box = () => chat.page.locator('.composer input.model');
  const list = () => chat.page.locator('.composer .model-list');
  const setModels = async (page: ChatPage) =>
    (await page.posted()).flatMap((m) => (m.type === 'setModel' ? [m.model] : []));

  it('lists each model with what is known; arrows choose, Enter picks and sends setModel once', async () => {
    await box().focus();
    await box().press('ArrowDown');
    assert.equal(await list().isVisible(), true);
    assert.deepEqual(
      await list().locator('.model-name').allTextContents(),
      models.map((m) => m.id),
    );
    assert.deepEqual(await list().locator('.model-detail').allTextContents(), [
      'chat · reads images · 200,000 tokens · in 3 · out 15 per 1M tokens',
      'chat · 64,000 tokens',
      'chat',
    ]);
    assert.equal(await list().locator('img').count(), 0, 'an id is text, never markup');
    assert.equal(await box().getAttribute('aria-expanded'), 'true');
    assert.equal(await list().locator('[aria-selected="true"] .model-name').innerText(), 'claude-demo-sonnet');
    await box().press('ArrowDown');
    assert.equal(await box().getAttribute('aria-activedescendant'), 'model-option-1');
    await box().press('Enter');
    assert.equal(await list().isVisible(), false);
    assert.equal(await box().inputValue(), 'claude-demo-haiku');
    await box().blur();
    assert.deepEqual(await setModels(chat), ['claude-demo-haiku']);
    assert.deepEqual(chat.errors, []);
  });

  it('a click in the box opens the whole list (issue 45); a click on a model picks it', async () => {
    await box().fill('claude-demo-sonnet');
    await box().blur();
    await box().click();
    assert.equal(await list().isVisible(), true);
    assert.deepEqual(
      await list().locator('.model-name').allTextContents(),
      models.map((m) => m.id),
      'every model, not only the one in the box',
    );
    assert.equal(await list().locator('[aria-selected="true"] .model-name').innerText(), 'claude-demo-sonnet');
    await box().click();
    assert.equal(await list().isVisible(), true, 'a second click in the box keeps it open');
    await list().locator('.model-option', { hasText: 'claude-demo-haiku' }).click();
    assert.equal(await list().isVisible(), false);
    assert.equal(await box().inputValue(), 'claude-demo-haiku');
    await box().blur();
    assert.ok((await setModels(chat)).includes('claude-demo-haiku'));
    assert.deepEqual(chat.errors, []);
  });

  it('typing filters; Escape closes the list only; a typed id that is not listed is still sent', async () => {
    await box().fill('');
    await box().pressSequentially('hai');
    assert.deepEqual(await list().locator('.model-name').allTextContents(), ['claude-demo-haiku']);
    await box().press('Escape');
    assert.equal(await list().isVisible(), false);
    assert.equal(await box().inputValue(), 'hai', 'Escape leaves the typed text');
    await box().fill('my-own-model');
    assert.equal(await list().isVisible(), false, 'nothing listed matches');
    await box().press('Enter');
    await box().blur();
    assert.deepEqual(await setModels(chat), ['my-own-model']);
  });

  it('a mouse pick sends the model', async () => {
    await box().focus();
    await box().press('ArrowDown');
    await list().locator('.model-option').nth(1).click();
    assert.equal(await box().inputValue(), 'claude-demo-haiku');
    assert.deepEqual(await setModels(chat), ['claude-demo-haiku']);
  });

  it('in Simplified Chinese', async () => {
    const zhChat = await openChatPage(pages.browser, pages.serverUrl, 400, zhTable);
    try {
      await zhChat.play({ type: 'snapshot', snapshot: snapshot([], { models }) });
      const zhBox = zhChat.page.locator('.composer input.model');
      await zhBox.focus();
      await zhBox.press('ArrowDown');
      const zhList = zhChat.page.locator('.composer .model-list');
      assert.equal(
        await zhList.locator('.model-detail').first().innerText(),
        '聊天 · 可读图片 · 200,000 个 token · 每百万 token：输入 3 · 输出 15',
      );
      assert.match((await zhList.getAttribute('aria-label')) ?? '', /^模型：方向键选择/);
    } finally {
      await zhChat.close();
    }
  });
});
