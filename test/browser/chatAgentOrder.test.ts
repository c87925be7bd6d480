/// <reference lib="dom" />
// Agent answers read in the order the model wrote them: text, the tool cards it proposed after that text, more
// text … while streaming, once finished, and when the conversation comes back (a snapshot after a reload). Cards
// stored without a place (older conversations) stay below the answer. Real chat bundle in headless Chromium.
import { strict as assert } from 'node:assert';
import type { AgentToolCard, AgentTurnInfo } from '../../src/shared/protocol/chat';
import { chatPageSuite, msg, snapshot, startAgentTurn, type ChatPage } from '../support/chatPage';

describe('chat webview: agent text and tool cards interleaved (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(undefined, (page) => assert.deepEqual(page.errors, [], 'no page errors'));
  beforeEach(() => {
    chat = pages.chat;
  });

  const turn = (extra: Partial<AgentTurnInfo> = {}): AgentTurnInfo => ({
    turnId: 'turn-a1',
    tools: [],
    steps: [],
    ...extra,
  });
  const card = (id: string, textAt: number | undefined, extra: Partial<AgentToolCard> = {}): AgentToolCard => ({
    id,
    step: 1,
    name: 'read_file',
    summary: `${id}.ts`,
    status: 'done',
    result: 'x',
    ...(textAt === undefined ? {} : { textAt }),
    ...extra,
  });

  /** The answer's body as a sequence: "text:<first words>" or "card:<id>", in document order. */
  async function order(): Promise<string[]> {
    return chat.page.evaluate(() => {
      const answer = document.querySelector('.message.assistant')!;
      const out: string[] = [];
      for (const node of Array.from(answer.querySelectorAll('.body .segment, .body .blocks, .tool-card'))) {
        if (node.classList.contains('tool-card')) out.push(`card:${(node as HTMLElement).dataset.toolId}`);
        else if (!node.closest('.segment') || node.classList.contains('segment')) {
          const text = (node.textContent ?? '').trim();
          if (text) out.push(`text:${text.split(/\s+/).slice(0, 2).join(' ')}`);
        }
      }
      return out;
    });
  }

  const FIRST = 'Looking first.';
  const SECOND = '\n\nThen reading.';
  const LAST = '\n\nAll done here.';
  /** The order the model wrote the answer of these tests in (order() reads text segments and cards). */
  const AS_WRITTEN = ['text:Looking first.', 'card:t1', 'text:Then reading.', 'card:t2', 'card:t3', 'text:All done'];

  it('while streaming and once finished: text, card, text, two cards, text', async () => {
    await startAgentTurn(chat);
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: FIRST });
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card('t1', FIRST.length, { status: 'proposed', result: undefined }),
    });
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: SECOND });
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card('t2', (FIRST + SECOND).length),
    });
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card('t3', (FIRST + SECOND).length),
    });
    await chat.play({ type: 'agentTool', conversationId: 'c1', messageId: 'a1', tool: card('t1', FIRST.length) });
    await chat.play({ type: 'streamDelta', conversationId: 'c1', messageId: 'a1', text: LAST });
    await chat.page.waitForFunction(() =>
      document.querySelector('.message.assistant .body')?.textContent?.includes('All done here.'),
    );
    assert.deepEqual(await order(), AS_WRITTEN);
    assert.equal(
      await chat.page.locator('.tool-card[data-tool-id="t1"]').getAttribute('data-status'),
      'done',
      'an update changes the card in place',
    );
    assert.equal(await chat.page.locator('.tool-card').count(), 3);
    await chat.play({ type: 'streamFinished', conversationId: 'c1', messageId: 'a1', status: 'complete' });
    assert.deepEqual(await order(), AS_WRITTEN);
  });

  it('after a reload (a snapshot of the stored answer) the order is the same; cards without a place stay below the text', async () => {
    const text = FIRST + SECOND + LAST;
    const tools = [card('t1', FIRST.length), card('t2', (FIRST + SECOND).length), card('t3', (FIRST + SECOND).length)];
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'Go'), msg('a1', 'assistant', text, { agent: turn({ tools }) })], {
        mode: 'agent',
        agent: { ok: true },
      }),
    });
    await chat.page.locator('.message.assistant .tool-card').first().waitFor({ state: 'attached' });
    await chat.page.locator('.message.assistant .body .segment').first().waitFor({ state: 'attached' });
    assert.deepEqual(await order(), AS_WRITTEN);

    await chat.play({
      type: 'snapshot',
      snapshot: snapshot(
        [msg('u1', 'user', 'Go'), msg('a1', 'assistant', text, { agent: turn({ tools: [card('old', undefined)] }) })],
        { mode: 'agent', agent: { ok: true } },
      ),
    });
    await chat.page.locator('.message.assistant .tool-card[data-tool-id="old"]').waitFor({ state: 'attached' });
    const below = await chat.page.evaluate(() => {
      const c = document.querySelector('.message.assistant .tool-card')!;
      return !c.closest('.body') && !!c.closest('.agent');
    });
    assert.equal(below, true, 'an older card without textAt is shown below the answer, as before');
  });
});
