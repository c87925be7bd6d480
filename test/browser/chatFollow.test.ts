/// <reference lib="dom" />
// A long agent turn in the real chat bundle (headless Chromium): the list follows the turn to its end through 300 tool
// cards with their text, results and token lines; a user who scrolls up on purpose is left there, with a "Jump to
// latest" control that brings them back and follows again.
import { strict as assert } from 'node:assert';
import type { AgentToolCard, HostToWebviewMessage, PendingChangeView } from '../../src/shared/protocol/chat';
import { chatPageSuite, startAgentTurn, type ChatPage } from '../support/chatPage';

describe('chat webview: following a long agent turn (Chromium)', function () {
  this.timeout(180_000);
  let chat: ChatPage;
  const pages = chatPageSuite(undefined, (page) => assert.deepEqual(page.errors, [], 'no page errors'));
  beforeEach(() => {
    chat = pages.chat;
  });

  /** Pixels between the bottom of what the list shows and the bottom of its content. */
  const belowView = () =>
    chat.page.evaluate(() => {
      const list = document.querySelector<HTMLElement>('.messages')!;
      return list.scrollHeight - list.scrollTop - list.clientHeight;
    });
  const frames = () =>
    chat.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(0)))));

  let text = '';
  let pending: PendingChangeView[] = [];
  /** Host messages that arrive together (one burst of postMessage events, before the page draws a frame). */
  const burst = (messages: HostToWebviewMessage[]) =>
    chat.page.evaluate((ms) => {
      for (const m of ms) (globalThis as unknown as { __play(m: unknown): void }).__play(m);
    }, messages);

  /**
   * One agent step as the host posts it, in one burst: the previous card's result and tokens, this step's text and
   * card; every 7th step proposes an edit (the pending changes list above the composer grows, the list's view shrinks).
   */
  async function step(i: number): Promise<void> {
    const line = `${i > 1 ? '\n\n' : ''}Step ${i}: calling \`read_file\` on src/file${i}.ts.`;
    text += line;
    const card: AgentToolCard = {
      id: `toolu_${i}`,
      step: i,
      name: 'read_file',
      summary: `src/file${i}.ts`,
      status: 'proposed',
      textAt: text.length,
    };
    const messages: HostToWebviewMessage[] = [
      { type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: line },
      { type: 'agentTool', conversationId: 'c1', messageId: 'a1', tool: card },
      { type: 'agentTool', conversationId: 'c1', messageId: 'a1', tool: { ...card, status: 'running' } },
      {
        type: 'agentTool',
        conversationId: 'c1',
        messageId: 'a1',
        tool: { ...card, status: 'done', result: `line 1 of file ${i}\nline 2\nline 3` },
      },
      {
        type: 'agentUsage',
        conversationId: 'c1',
        messageId: 'a1',
        step: { step: i, tokens: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0 } },
        turn: { input: 10 * i, output: 20 * i, cacheRead: 0, cacheWrite: 0 },
      },
    ];
    if (i % 7 === 0 && pending.length < 8) {
      pending.push({ id: `change-${i}`, kind: 'edit', path: `src/file${i}.ts`, added: 1, removed: 1 });
      messages.push({ type: 'changes', changes: [...pending] });
    }
    await burst(messages);
    if (i % 10 === 0) await frames();
  }

  async function startTurn(): Promise<void> {
    text = '';
    pending = [];
    await startAgentTurn(chat, 'Read every file');
  }

  async function endTurn(): Promise<void> {
    await chat.play({
      type: 'agentEnd',
      conversationId: 'c1',
      messageId: 'a1',
      end: { reason: 'end_turn', message: 'The agent finished.', retry: false },
    });
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: '\n\nAll files read.' });
    await chat.play({ type: 'streamFinished', conversationId: 'c1', messageId: 'a1', status: 'complete' });
    await chat.play({ type: 'busy', busy: false });
    await frames();
  }

  it('follows a 300-card turn to its end', async () => {
    await startTurn();
    let lost = 0;
    for (let i = 1; i <= 300; i++) {
      await step(i);
      if (i % 50 === 0 && (await belowView()) > 40) lost = lost || i;
    }
    await endTurn();
    assert.equal(await chat.page.locator('.tool-card').count(), 300);
    const below = await belowView();
    assert.ok(below <= 40, `the end of the turn is in view (${below} px below it; first lost at card ${lost})`);
    assert.equal(lost, 0, `followed all the way (lost at card ${lost})`);
    assert.ok(await chat.page.locator('.agent-end').isVisible());
    assert.equal(await chat.page.locator('.jump-latest').isVisible(), false, 'no jump control while following');
  });

  it('a user who scrolls up stays there; "Jump to latest" brings them back and following resumes', async () => {
    await startTurn();
    for (let i = 1; i <= 40; i++) await step(i);
    await frames();
    const list = chat.page.locator('.messages');
    await list.hover();
    await chat.page.mouse.wheel(0, -1500);
    await frames();
    const scrolledTo = await list.evaluate((e) => e.scrollTop);
    for (let i = 41; i <= 80; i++) await step(i);
    await frames();
    assert.equal(await list.evaluate((e) => e.scrollTop), scrolledTo, 'the list stays where the user put it');
    const jump = chat.page.locator('.jump-latest');
    await jump.waitFor({ state: 'visible', timeout: 5_000 });
    await jump.click();
    await frames();
    assert.ok((await belowView()) <= 40, 'back at the latest');
    for (let i = 81; i <= 120; i++) await step(i);
    await endTurn();
    assert.ok((await belowView()) <= 40, 'following again to the end');
    assert.equal(await jump.isVisible(), false);
  });
});
