/// <reference lib="dom" />
// The composer's Reasoning control (issue 34 item 4): shown only for a model believed to reason, it shows the
// user's value that came with the snapshot's models, and a choice posts setReasoning; English and Simplified Chinese.
import { strict as assert } from 'node:assert';
import type { ModelOption } from '../../src/shared/protocol/chat';
import { chatPageSuite, openChatPage, snapshot, type ChatPage } from '../support/chatPage';
import { chineseStringTable } from '../support/webviewPage';

const zhTable = chineseStringTable();

const models: ModelOption[] = [
  { id: 'o3', reasons: true, reasoning: 'high' },
  { id: 'gpt-5', reasons: true },
  { id: 'gpt-4o' },
];
const settings = (model: string) => ({ model, maxTokens: 1024, systemPrompt: '' });

describe('chat: reasoning control (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite();
  beforeEach(() => {
    chat = pages.chat;
  });
  const field = () => chat.page.locator('.composer .reasoning-field');
  const select = () => chat.page.locator('.composer select.reasoning');

  it('shows only for a reasoning model, with the value from the snapshot', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { models, settings: settings('gpt-4o') }) });
    assert.equal(await field().isVisible(), false, 'gpt-4o does not reason: no control');
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { models, settings: settings('o3') }) });
    assert.equal(await field().isVisible(), true);
    assert.equal(await select().inputValue(), 'high');
    await chat.play({ type: 'settings', conversationId: 'c1', settings: settings('gpt-5') });
    assert.equal(await select().inputValue(), 'default', 'no entry for gpt-5: the default');
    await chat.play({ type: 'settings', conversationId: 'c1', settings: settings('claude-demo-haiku') });
    assert.equal(await field().isVisible(), false, 'a model not in the list: no control');
  });

  it('a choice posts setReasoning for the conversation model', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { models, settings: settings('o3') }) });
    await select().selectOption('low');
    await select().selectOption('default');
    const sent = (await chat.posted()).filter((m) => m.type === 'setReasoning');
    assert.deepEqual(
      sent.map((m) => [m.model, m.level]),
      [
        ['o3', 'low'],
        ['o3', 'default'],
      ],
    );
  });

  it('a model list with a bad value is dropped by the page guard', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { models, settings: settings('o3') }) });
    const bad = snapshot([], { settings: settings('o3') }) as unknown as Record<string, unknown>;
    bad.models = [{ id: 'o3', reasons: true, reasoning: 'max' }];
    await chat.play({ type: 'snapshot', snapshot: bad as never });
    assert.equal(await select().inputValue(), 'high', 'the bad snapshot changed nothing');
  });

  it('in Simplified Chinese', async () => {
    const zhChat = await openChatPage(pages.browser, pages.serverUrl, 400, zhTable);
    try {
      await zhChat.play({ type: 'snapshot', snapshot: snapshot([], { models, settings: settings('o3') }) });
      const zhField = zhChat.page.locator('.composer .reasoning-field');
      assert.equal(await zhField.locator('span').innerText(), '推理');
      const options = await zhField.locator('option').allInnerTexts();
      assert.deepEqual(options, ['默认', '关闭', '低', '中', '高']);
      assert.equal(
        await zhField.locator('select').getAttribute('title'),
        '此模型的推理强度（用户设置 modelGateway.models.reasoning）',
      );
    } finally {
      await zhChat.close();
    }
  });
});
