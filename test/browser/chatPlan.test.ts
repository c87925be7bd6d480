/// <reference lib="dom" />
// Plan mode and condensing in the real chat bundle (headless Chromium, production CSP): the third mode in the
// selector, its disabled state in Restricted Mode, a refused edit card, Act on this plan (by keyboard) on a finished
// plan, and the collapsed summary card of a condensed turn.
import { strict as assert } from 'node:assert';
import type { WebviewToHostMessage } from '../../src/shared/protocol/chat';
import { chatPageSuite, msg, snapshot, type ChatPage } from '../support/chatPage';

describe('chat webview: Plan mode and condensing (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(undefined, async (page) => assert.deepEqual(page.errors, [], 'no page errors'));
  beforeEach(() => {
    chat = pages.chat;
  });
  const posted = async <T extends WebviewToHostMessage['type']>(type: T) =>
    (await chat.posted()).filter((m): m is Extract<WebviewToHostMessage, { type: T }> => m.type === type);

  it('Plan is a third mode: chosen by keyboard, confirmed by the host, disabled with the reason when untrusted', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { mode: 'ask', agent: { ok: true } }) });
    const select = chat.page.locator('.composer select.mode');
    assert.deepEqual(await select.locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)), [
      'ask',
      'agent',
      'plan',
    ]);
    await select.focus();
    await select.selectOption('plan');
    assert.deepEqual(
      (await posted('setMode')).map((m) => m.mode),
      ['plan'],
    );
    assert.equal(await select.inputValue(), 'ask', 'stays until the host confirms');
    await chat.play({ type: 'mode', conversationId: 'c1', mode: 'plan' });
    assert.equal(await select.inputValue(), 'plan');
    assert.match((await chat.page.locator('.composer .input').getAttribute('placeholder')) ?? '', /plan/i);
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([], { mode: 'ask', agent: { ok: false, reason: 'Trust this workspace first.' } }),
    });
    assert.equal(await chat.page.locator('.composer select.mode option[value="plan"]').isDisabled(), true);
  });

  it('a finished plan offers Act on this plan (no Restore); a stopped one does not; a click posts its id once', async () => {
    const plan = (id: string, reason: string) =>
      msg(id, 'assistant', 'I read a.ts.\n\nPlan:\n- [ ] Rename a to b', {
        agent: {
          turnId: `turn-${id}`,
          mode: 'plan',
          tools: [
            {
              id: 'toolu_1',
              step: 1,
              name: 'propose_edit',
              summary: 'a.ts',
              status: 'refused',
              note: 'Plan mode is read-only',
            },
          ],
          steps: [],
          end: { reason, message: 'Done.', retry: false },
        },
      });
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot(
        [msg('u1', 'user', 'rename'), plan('a1', 'stopped'), msg('u2', 'user', 'again'), plan('a2', 'end_turn')],
        {
          mode: 'plan',
          agent: { ok: true },
        },
      ),
    });
    const stopped = chat.page.locator('.message[data-id="a1"]');
    assert.equal(await stopped.locator('button', { hasText: 'Act on this plan' }).count(), 0);
    assert.equal(await stopped.locator('button', { hasText: 'Restore to before this turn' }).count(), 0);
    const done = chat.page.locator('.message[data-id="a2"]');
    assert.match(await done.locator('.tool-card[data-status="refused"]').innerText(), /Plan mode is read-only/);
    const act = done.locator('button', { hasText: 'Act on this plan' });
    await act.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(
      (await posted('actOnPlan')).map((m) => m.messageId),
      ['a2'],
    );
  });

  it('a condensed turn shows the summary as a collapsed card with its tokens; it opens by keyboard', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot(
        [
          msg('u1', 'user', 'q'),
          msg('a1', 'assistant', '', { status: 'streaming', agent: { turnId: 'turn-a1', tools: [], steps: [] } }),
        ],
        {
          mode: 'agent',
          agent: { ok: true },
          busy: true,
        },
      ),
    });
    await chat.play({
      type: 'agentCondensed',
      conversationId: 'c1',
      messageId: 'a1',
      condensed: {
        through: 'a0',
        summary: '<b>Read</b> a.ts; renamed foo.',
        tokens: { input: 1200, output: 80, cacheRead: 0, cacheWrite: 0 },
      },
    });
    const card = chat.page.locator('.message[data-id="a1"] details.condensed-card');
    assert.equal(
      await card.locator('summary').innerText(),
      'Earlier turns condensed into a summary (in 1,200 · out 80)',
    );
    assert.equal(await card.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await card.locator('summary').focus();
    await chat.page.keyboard.press('Enter');
    assert.equal(await card.locator('.condensed-summary').innerText(), '<b>Read</b> a.ts; renamed foo.');
    assert.equal(await card.locator('b').count(), 0, 'the summary is text');
  });

  it('an Ask answer (or the Condense action after it) shows its summary card with tokens and cost, also after a reload', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', 'an answer')], { mode: 'ask' }),
    });
    const condensed = {
      through: 'a0',
      summary: 'The user asked about the parser.',
      tokens: { input: 900, output: 60, cacheRead: 0, cacheWrite: 0 },
      cost: { amount: 0.0123, source: 'gateway' as const, estimate: true },
    };
    await chat.play({ type: 'agentCondensed', conversationId: 'c1', messageId: 'a1', condensed });
    const card = chat.page.locator('.message[data-id="a1"] details.condensed-card');
    assert.match(
      await card.locator('summary').innerText(),
      /^Earlier turns condensed into a summary \(in 900 · out 60 · ≈.+ \(gateway price, estimate\)\)$/,
    );
    assert.equal(await card.evaluate((d) => (d as HTMLDetailsElement).open), false, 'collapsed');
    // A snapshot (a reload of the view) renders it from the stored message.
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'q'), msg('a1', 'assistant', 'an answer', { condensed })], { mode: 'ask' }),
    });
    assert.equal(await chat.page.locator('.message[data-id="a1"] details.condensed-card').count(), 1);
  });
});
