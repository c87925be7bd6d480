/// <reference lib="dom" />
// The chat page in Simplified Chinese (issue 45 item 14): an agent turn's end line has no space after "。", the
// approvals chip's name joins its two sentences with "。", the context meter its figures and warning without a gap;
// in English the spaces stay.
import { strict as assert } from 'node:assert';
import { webviewStringTable } from '../../src/shared/webviewStrings';
import { english } from '../../src/shared/l10n';
import { msg, openChatPage, pageServerSuite, snapshot, type ChatPage } from '../support/chatPage';
import { chineseStringTable } from '../support/webviewPage';

const ASCII_AFTER_CJK = /[\u4e00-\u9fff\uff09][.:;,!?](?=\s|$)/;

describe('chat webview: Chinese punctuation (Chromium)', function () {
  this.timeout(60_000);
  const suite = pageServerSuite();
  let chat: ChatPage | undefined;
  afterEach(async () => {
    assert.deepEqual(chat?.errors ?? [], []);
    await chat?.close();
    chat = undefined;
  });

  async function agentTurn(strings: Record<string, string>, message: string): Promise<ChatPage> {
    const page = await openChatPage(suite.browser, suite.serverUrl, 400, strings);
    const turn = {
      turnId: 'turn-1',
      tools: [],
      steps: [],
      end: { reason: 'end_turn', message, retry: false },
    };
    await page.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', 'ok', { agent: turn })], {
        mode: 'agent',
        agent: { ok: true },
        approvals: { writes: false, commands: 0 },
      }),
    });
    await page.play({
      type: 'context',
      conversationId: 'c1',
      used: 150_000,
      window: 200_000,
      condenseAt: 159_200,
      condensable: true,
    });
    return page;
  }

  it('zh-cn: "已完成。智能体已完成。", the approvals chip and the meter with full-width punctuation and no gap', async () => {
    chat = await agentTurn(chineseStringTable(), '智能体已完成。');
    const line = await chat.page.locator('.agent-end-line').innerText();
    assert.equal(line, '已完成。智能体已完成。');
    const chip = (await chat.page.locator('.composer button.approvals').getAttribute('aria-label')) ?? '';
    assert.ok(chip.length > 0);
    assert.ok(!ASCII_AFTER_CJK.test(chip), chip);
    assert.doesNotMatch(chip, /。 /);
    const meter = await chat.page.locator('.context-label').innerText();
    assert.doesNotMatch(meter, /[。）] /, meter);
  });

  it('English keeps its spaces', async () => {
    chat = await agentTurn(webviewStringTable(english), 'The agent finished.');
    assert.equal(await chat.page.locator('.agent-end-line').innerText(), 'Finished. The agent finished.');
    assert.equal(
      await chat.page.locator('.composer button.approvals').getAttribute('aria-label'),
      'Everything asks. Open the auto-approval settings (your user settings)',
    );
    assert.match(await chat.page.locator('.context-label').innerText(), /tokens\) Near 80%/);
  });
});
