/// <reference lib="dom" />
// The composer's line of what the agent runs without asking (issue 35 item 16): shown in Agent and Plan mode from
// the snapshot's approvals, one click posts openApprovalSettings; English and Simplified Chinese.
import { strict as assert } from 'node:assert';
import { chatPageSuite, openChatPage, snapshot, type ChatPage } from '../support/chatPage';
import { chineseStringTable } from '../support/webviewPage';

const zhTable = chineseStringTable();

describe('chat: auto-approval line (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite();
  beforeEach(() => {
    chat = pages.chat;
  });
  const line = () => chat.page.locator('.composer button.approvals');

  it('says what is auto-approved in Agent and Plan mode only, and a click asks the host to open the settings', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { approvals: { writes: true, commands: 2 } }) });
    assert.equal(await line().isVisible(), false, 'Ask mode runs no tools: no line');
    await chat.play({ type: 'mode', conversationId: 'c1', mode: 'agent' });
    assert.equal(await line().isVisible(), true);
    assert.equal(await line().innerText(), 'Auto-approved: edits · 2 commands');
    assert.equal(await line().getAttribute('data-auto'), 'true');
    await chat.play({ type: 'mode', conversationId: 'c1', mode: 'plan' });
    assert.equal(await line().isVisible(), true);
    await line().click();
    assert.equal((await chat.posted()).filter((m) => m.type === 'openApprovalSettings').length, 1);
  });

  it('follows a settings change (a new snapshot): one command, commands only, then everything asks', async () => {
    const show = async (writes: boolean, commands: number) =>
      chat.play({ type: 'snapshot', snapshot: snapshot([], { mode: 'agent', approvals: { writes, commands } }) });
    await show(false, 1);
    assert.equal(await line().innerText(), 'Auto-approved: 1 command');
    await show(false, 3);
    assert.equal(await line().innerText(), 'Auto-approved: 3 commands');
    await show(false, 0);
    assert.equal(await line().innerText(), 'Everything asks');
    assert.equal(await line().getAttribute('data-auto'), 'false');
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { mode: 'agent' }) });
    assert.equal(await line().isVisible(), false, 'a host that sends no summary shows none');
  });

  it('a malformed summary is dropped by the page guard', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([], { mode: 'agent', approvals: { writes: true, commands: 1 } }),
    });
    const bad = snapshot([], { mode: 'agent' }) as unknown as Record<string, unknown>;
    bad.approvals = { writes: 'yes', commands: '<img src=x onerror=alert(1)>' };
    await chat.play({ type: 'snapshot', snapshot: bad as never });
    assert.equal(await line().innerText(), 'Auto-approved: edits · 1 command', 'the bad snapshot changed nothing');
    assert.deepEqual(
      chat.errors.filter((e) => e.startsWith('dialog')),
      [],
    );
  });

  it('in Simplified Chinese', async () => {
    const zhChat = await openChatPage(pages.browser, pages.serverUrl, 400, zhTable);
    try {
      await zhChat.play({
        type: 'snapshot',
        snapshot: snapshot([], { mode: 'agent', approvals: { writes: true, commands: 2 } }),
      });
      const zhLine = zhChat.page.locator('.composer button.approvals');
      assert.equal(await zhLine.innerText(), '自动批准：编辑 · 2 条命令');
      assert.equal(await zhLine.getAttribute('title'), '打开自动批准设置（用户设置）');
      await zhChat.play({
        type: 'snapshot',
        snapshot: snapshot([], { mode: 'plan', approvals: { writes: false, commands: 0 } }),
      });
      assert.equal(await zhLine.innerText(), '全部需要确认');
    } finally {
      await zhChat.close();
    }
  });
});
