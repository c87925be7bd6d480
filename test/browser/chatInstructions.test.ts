/// <reference lib="dom" />
// "Using AGENTS.md" in the real chat bundle (headless Chromium, production CSP): the files an answer was sent
// with, each a keyboard-operable button that asks the host to open it by index, and the size notes as text.
import { strict as assert } from 'node:assert';
import type { WebviewToHostMessage } from '../../src/shared/protocol/chat';
import { chatPageSuite, msg, snapshot, type ChatPage } from '../support/chatPage';

describe('chat webview: project instructions (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(undefined, async (page) => assert.deepEqual(page.errors, [], 'no page errors'));
  beforeEach(() => {
    chat = pages.chat;
  });

  it('lists the files with their notes; Enter on a name posts openInstructions with its index', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([
        msg('u1', 'user', 'hi'),
        msg('a1', 'assistant', 'Per AGENTS.md: hello', {
          instructions: {
            files: [
              { name: 'AGENTS.md', path: '/ws/AGENTS.md', truncated: true },
              { name: '<b>CLAUDE.md</b>', path: '/ws/CLAUDE.md', omitted: true },
            ],
            notes: ['AGENTS.md was shortened to 8 KB: project instructions are capped per file and in all.'],
          },
        }),
        msg('a2', 'assistant', 'plain'),
      ]),
    });
    const used = chat.page.locator('.message[data-id="a1"] .instructions-used');
    assert.match(await used.innerText(), /Using AGENTS\.md \(shortened\), <b>CLAUDE\.md<\/b> \(left out\)/);
    assert.match(await used.innerText(), /AGENTS\.md was shortened to 8 KB/);
    assert.equal(await used.locator('b').count(), 0, 'names are text');
    assert.equal(await chat.page.locator('.message[data-id="a2"] .instructions-used').isVisible(), false);
    await used.locator('button', { hasText: 'CLAUDE.md' }).focus();
    await chat.page.keyboard.press('Enter');
    const posted = (await chat.posted()).filter(
      (m): m is Extract<WebviewToHostMessage, { type: 'openInstructions' }> => m.type === 'openInstructions',
    );
    assert.deepEqual(
      posted.map((m) => [m.messageId, m.index]),
      [['a1', 1]],
    );
  });
});
