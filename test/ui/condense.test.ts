// Condensing in the real workbench against the emulator: an Ask conversation with a large first question, then a
// click on Condense Conversation in the chat view's … menu: one request goes out, the summary card appears with its
// token figure, and the next question's request is smaller than the first one (the emulator's request log counts
// its input tokens): the condensed turns are sent as the summary, not again.
import * as assert from 'assert';
import { chatViewSuite } from '../support/chatView';
import { EmulatorAdmin } from '../support/emulatorAdmin';

const KEY = 'mg-demo-key-0001';

describe('condensing (UI)', function () {
  this.timeout(300_000);
  const admin = EmulatorAdmin.fromEnv();
  const ui = chatViewSuite({ admin, key: KEY });
  const messageRequests = async () =>
    (await admin.requests()).filter((r) => r.route === 'messages' && r.status === 200 && r.usage);

  it('a Condense click: the summary card with its tokens, and the next request carries the summary instead', async () => {
    // A new conversation (in Ask mode, the default) through the command, whatever buttons the view's header has.
    await ui.wb.runCommand('Model Gateway: New Chat');
    await ui.view.frame.locator('.messages .empty').waitFor({ timeout: 30_000 });
    await ui.view.frame.locator('.composer[data-mode="ask"]').waitFor({ timeout: 30_000 });
    const pasted = 'A long pasted log line that the first question carries, for condensing.\n'.repeat(400);
    await ui.view.send(`Question 1: what does this log say?\n${pasted}`);
    await ui.view.finished();
    const first = (await messageRequests()).at(-1)!;
    for (const q of ['Question 2: and then?', 'Question 3: anything else?']) {
      await ui.view.send(q);
      await ui.view.finished();
    }
    const before = (await messageRequests()).length;

    // The … menu of the chat view's title bar (the view's own title, or its container's when it is the only view).
    await ui.wb.page.locator('.part.sidebar .title-actions a[aria-label$="More Actions..."]').first().click();
    // Hovered, then Enter: 1.100.3's context menu in code-server left a mouse click on the item unanswered.
    const item = ui.wb.page.locator('.monaco-menu .action-label', { hasText: 'Condense Conversation' }).first();
    await item.hover();
    await ui.wb.page.keyboard.press('Enter');
    await item.waitFor({ state: 'hidden', timeout: 10_000 });

    const card = ui.view.lastAnswer().locator('details.condensed-card');
    await card.waitFor({ timeout: 60_000 });
    assert.match(
      await card.locator('summary').innerText(),
      /^Earlier turns condensed into a summary \(in [\d,]+ · out [\d,]+/,
    );
    const condensing = (await messageRequests()).slice(before);
    assert.equal(condensing.length, 1, 'one condensing request');
    assert.ok(condensing[0].usage!.input < first.usage!.input, 'the condensing request sends the turns capped');

    await ui.view.send('Question 4: summarise our talk.');
    await ui.view.finished();
    const next = (await messageRequests()).at(-1)!;
    assert.ok(
      next.usage!.input < first.usage!.input / 2,
      `the next request (${next.usage!.input} tokens) no longer carries the first question (${first.usage!.input})`,
    );
    assert.equal(await ui.view.frame.locator('.message.user').count(), 4, 'the history keeps every turn');
  });
});
