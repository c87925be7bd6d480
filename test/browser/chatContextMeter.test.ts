/// <reference lib="dom" />
// The composer's context meter (issue 35 item 13): the share of the window the conversation uses; near the condense
// threshold a warning with Condense one click away.
import { strict as assert } from 'node:assert';
import { chatPageSuite, snapshot, type ChatPage } from '../support/chatPage';

describe('chat: context meter (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(async (page) => page.play({ type: 'snapshot', snapshot: snapshot() }));
  beforeEach(() => {
    chat = pages.chat;
  });

  it('shows the share of the window; near the threshold it warns and Condense posts the action', async () => {
    const meter = chat.page.locator('.composer .context-meter');
    assert.equal(await meter.isVisible(), false, 'nothing before there is a conversation');
    await chat.play({
      type: 'context',
      conversationId: 'c1',
      used: 20_000,
      window: 200_000,
      condenseAt: 159_200,
      condensable: true,
    });
    assert.equal(await meter.isVisible(), true);
    assert.equal(
      await meter.locator('.context-label').innerText(),
      "Context: 10% of the model's context window (~20,000 of 200,000 tokens)",
    );
    assert.equal(await meter.getAttribute('aria-valuenow'), '10');
    assert.equal(await meter.locator('.context-condense').isVisible(), false);
    await chat.play({
      type: 'context',
      conversationId: 'c1',
      used: 150_000,
      window: 200_000,
      condenseAt: 159_200,
      condensable: true,
    });
    assert.match((await meter.getAttribute('class')) ?? '', /\bwarn\b/);
    assert.match(
      await meter.locator('.context-label').innerText(),
      /^Context: 75% .* Near 80%: the next question condenses/,
    );
    await meter.locator('.context-condense').click();
    const posted = (await chat.posted()).filter((m) => m.type === 'condense');
    assert.equal(posted.length, 1);
    await chat.play({
      type: 'context',
      conversationId: 'other',
      used: 1,
      window: 200_000,
      condenseAt: 159_200,
      condensable: true,
    });
    assert.match(await meter.locator('.context-label').innerText(), /^Context: 75%/, 'another conversation is ignored');
  });

  it('near the threshold with nothing older to condense (two turns or fewer) it says so and offers no Condense (issue 45)', async () => {
    const meter = chat.page.locator('.composer .context-meter');
    const near = {
      type: 'context',
      conversationId: 'c1',
      used: 150_000,
      window: 200_000,
      condenseAt: 159_200,
    } as const;
    await chat.play({ ...near, condensable: false });
    assert.match(
      await meter.locator('.context-label').innerText(),
      /^Context: 75% .*tokens\) Nothing to condense yet: the last 2 questions and their answers are always kept whole\.$/,
    );
    assert.equal(await meter.locator('.context-condense').isVisible(), false, 'no Condense that would do nothing');
    // Offered, then refused by the host (a race: the conversation changed): the meter says why, in place.
    await chat.play({ ...near, condensable: true });
    await meter.locator('.context-condense').click();
    const request = (await chat.posted()).find((m) => m.type === 'condense')!;
    await chat.play({
      type: 'reply',
      requestId: (request as { requestId: string }).requestId,
      error: 'A reply is still in progress. Stop it first.',
    });
    await meter.locator('.context-label', { hasText: 'A reply is still in progress. Stop it first.' }).waitFor();
    assert.equal(await meter.locator('.context-condense').isVisible(), false);
    assert.equal(
      await chat.page.locator('.composer .notice').innerText(),
      'A reply is still in progress. Stop it first.',
    );
  });
});
