/// <reference lib="dom" />
// Condense gives feedback (issue 35 item 7): a line while the summary is requested, the card scrolled into view when
// it arrives, and the turns it stands for marked as condensed (also after a reload).
import { strict as assert } from 'node:assert';
import type { ChatMessage } from '../../src/shared/protocol/chat';
import { chatPageSuite, msg, snapshot, type ChatPage } from '../support/chatPage';

describe('chat: Condense feedback (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(async () => undefined);
  beforeEach(() => {
    chat = pages.chat;
  });

  const long = 'A long answer line.\n\n'.repeat(80);
  const conversation = (): ChatMessage[] => [
    msg('u0', 'user', 'first question'),
    msg('a0', 'assistant', long),
    msg('u1', 'user', 'second question'),
    msg('a1', 'assistant', long),
    msg('u2', 'user', 'third question'),
    msg('a2', 'assistant', long),
  ];
  const condensed = {
    through: 'a0',
    summary: 'The user asked two things.',
    tokens: { input: 900, output: 60, cacheRead: 0, cacheWrite: 0 },
  };

  it('a line while it runs, the card in view when done, the condensed turns marked (and again after a reload)', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot(conversation(), { mode: 'ask' }) });
    await chat.play({ type: 'condensing', conversationId: 'c1', messageId: 'a2', running: true });
    const line = chat.page.locator('.message[data-id="a2"] .condensing');
    assert.equal(await line.isVisible(), true);
    assert.equal(await line.innerText(), 'Condensing earlier turns into a summary…');
    assert.equal(await line.locator('.codicon-modifier-spin').count(), 1);
    // The user reads further up meanwhile: the card still comes into view when it lands.
    await chat.page.locator('.messages').evaluate((e) => (e.scrollTop = 0));
    await chat.play({ type: 'agentCondensed', conversationId: 'c1', messageId: 'a2', condensed });
    await chat.play({ type: 'condensing', conversationId: 'c1', messageId: 'a2', running: false });
    assert.equal(await line.isVisible(), false, 'the line goes when it ended');
    const card = chat.page.locator('.message[data-id="a2"] details.condensed-card');
    assert.equal(await card.isVisible(), true);
    const inView = await card.evaluate((c) => {
      const list = c.closest('.messages')!.getBoundingClientRect();
      const box = c.getBoundingClientRect();
      return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
    });
    assert.equal(inView, true, 'the card is scrolled into view');
    const marked = async () =>
      chat.page.locator('.message.condensed').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
    assert.deepEqual(await marked(), ['u0', 'a0']);
    assert.equal(
      await chat.page.locator('.message[data-id="a0"]').getAttribute('data-condensed-label'),
      'Condensed: sent as the summary below',
    );
    // A reload renders the marks from the stored summary.
    const stored = conversation();
    stored[5] = { ...stored[5], condensed };
    await chat.play({ type: 'snapshot', snapshot: snapshot(stored, { mode: 'ask' }) });
    assert.deepEqual(await marked(), ['u0', 'a0']);
  });
});
