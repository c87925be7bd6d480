// Both webview bundles in real Chromium with the Simplified Chinese string table the host would send (built from
// l10n/bundle.l10n.zh-cn.json, as vscode.l10n does in a zh-cn VS Code): the pages show the table's words, a refused
// request shows the host's words, and a malformed host message is dropped without breaking the page.
import * as assert from 'node:assert/strict';
import { msg, openChatPage, pageServerSuite, snapshot, type ChatPage } from '../support/chatPage';
import { buildImagesBundle, openImagesPage, panelSnapshot } from './imagesPage';
import { chineseStringTable } from '../support/webviewPage';

const table = chineseStringTable();

describe('webviews in Simplified Chinese (Chromium)', function () {
  this.timeout(60_000);
  const suite = pageServerSuite();
  let chat: ChatPage | undefined;

  before(buildImagesBundle);
  afterEach(async () => {
    await chat?.close();
    chat = undefined;
  });

  it('chat: labels, placeholders, the empty state and error card buttons come from the table', async () => {
    chat = await openChatPage(suite.browser, suite.serverUrl, 400, table);
    await chat.play({ type: 'snapshot', snapshot: snapshot() });
    const page = chat.page;
    assert.equal(await page.locator('textarea.input').getAttribute('placeholder'), '提个问题…');
    assert.equal(await page.locator('.conversations').getAttribute('aria-label'), '对话列表');
    assert.equal(await page.locator('button[data-action="send"]').getAttribute('title'), '发送 (Enter)');
    assert.match(await page.locator('.empty').innerText(), /尽管提问/);
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot(
        [
          msg('u1', 'user', 'q'),
          msg('a1', 'assistant', '', {
            status: 'error',
            error: {
              title: '网关拒绝了此 API 密钥（401）。',
              detail: 'd',
              actions: ['replaceKey', 'retry'],
              status: 401,
            },
          }),
        ],
        { conversations: [{ id: 'c1', title: '测试对话', updatedAt: 1, messageCount: 2 }] },
      ),
    });
    assert.deepEqual(await page.locator('.error-actions button').allTextContents(), ['更换密钥', '重试']);
    assert.equal(await page.locator('.error-facts').textContent(), 'HTTP 401');
    assert.equal(await page.locator('.message.user .who').textContent(), '你');
    // The whole page: no English label is left (the data here has none, and the host's words are Chinese too).
    const labels = await page.evaluate(() =>
      Array.from(document.querySelectorAll('[aria-label],[title],[placeholder]'))
        .flatMap((e) => ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a) ?? ''))
        .filter((v) => /[A-Za-z]{3,} [A-Za-z]{3,}/.test(v)),
    );
    assert.deepEqual(labels, []);
    assert.deepEqual(chat.errors, []);
  });

  it('chat: a refused request and a refused link say why in Chinese; a malformed host message changes nothing', async () => {
    chat = await openChatPage(suite.browser, suite.serverUrl, 400, table);
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', 'see [this](https://user:pw@example.com/x)')]),
    });
    // The shared link policy runs in the page with the page's table: its refusal is in Chinese too.
    assert.equal(
      await chat.page.locator('.link-refused').getAttribute('title'),
      '无法打开此链接：地址包含用户名或密码。',
    );
    await chat.page.locator('button[data-action="regenerate"]').click();
    const request = (await chat.posted()).find((m) => m.type === 'regenerate')!;
    await chat.play({ type: 'reply', requestId: request.requestId, error: '仍有回复在进行中。请先停止它。' });
    assert.equal(await chat.page.locator('.composer .notice').textContent(), '仍有回复在进行中。请先停止它。');
    const before = await chat.page.locator('.messages').innerHTML();
    await chat.play({
      type: 'messageAppended',
      conversationId: 'c1',
      message: { ...msg('x1', 'assistant', 'injected'), onclick: 'alert(1)' },
    } as never);
    await chat.play({ type: 'evaluate', code: 'alert(1)' } as never);
    assert.equal(await chat.page.locator('.messages').innerHTML(), before);
    assert.deepEqual(chat.errors, []);
  });

  it('images: the form, the folder line and the submit reply use the table', async () => {
    const view = await openImagesPage(suite.browser, undefined, table);
    try {
      await view.play({
        type: 'snapshot',
        snapshot: panelSnapshot({ models: ['gpt-image-demo'], sizes: ['1024x1024'] }),
      });
      assert.equal(await view.page.textContent('h2'), '图像');
      assert.equal(await view.page.textContent('#folder'), '保存到 ws 中的 images/ · 异步任务');
      assert.equal(await view.page.textContent('button[data-action="submit"]'), '生成');
      assert.equal(await view.page.textContent('#cost-hint'), '一张默认尺寸的图像：即默认请求。');
      await view.page.fill('#count', '2');
      assert.match((await view.page.textContent('#cost-hint')) ?? '', /^费用可能高于默认请求：2 张图像而不是一张/);
      await view.page.fill('#prompt', '灯塔');
      await view.page.click('button[data-action="submit"]');
      assert.equal(await view.page.textContent('#status'), '正在发送请求...');
      const submit = (await view.posted()).find((m) => m.type === 'submit') as { requestId: string };
      await view.play({ type: 'reply', requestId: submit.requestId, result: { ok: true } });
      assert.equal(await view.page.textContent('#status'), '完成。');
      assert.deepEqual(view.errors, []);
    } finally {
      await view.close();
    }
  });
});
