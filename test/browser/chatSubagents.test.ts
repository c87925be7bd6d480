/// <reference lib="dom" />
// Sub-agent cards in the chat (Chromium): each sits inside the agent's start_subagent call, collapsible, with its model,
// task, status and figures (steps, tool calls, tokens, cost) updated live; its own calls (and their approvals) inside
// it; its report as text; a refused model said; a reloaded turn shows the cards it stored.
import { strict as assert } from 'node:assert';
import type { AgentSubagentCard, AgentToolCard } from '../../src/shared/protocol/chat';
import { chatPageSuite, msg, snapshot, startAgentTurn, type ChatPage } from '../support/chatPage';

describe('chat webview: sub-agent cards (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite();
  beforeEach(() => (chat = pages.chat));

  const spawn = (id: string): AgentToolCard => ({
    id,
    step: 1,
    name: 'start_subagent',
    summary: `explore: look at ${id}`,
    status: 'running',
    textAt: 0,
  });
  const sub = (id: string, extra: Partial<AgentSubagentCard> = {}): AgentSubagentCard => ({
    id,
    task: `Look at ${id} <img src=x onerror=alert(1)>`,
    role: 'explore',
    model: 'small-model',
    status: 'running',
    steps: 0,
    toolCalls: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...extra,
  });
  const post = (subagent: AgentSubagentCard) =>
    chat.play({ type: 'agentSubagent', conversationId: 'c1', messageId: 'a1', subagent });
  const cardOf = (id: string) =>
    chat.page.evaluate((subId) => {
      const node = document.querySelector<HTMLDetailsElement>(`.subagent-card[data-subagent-id="${subId}"]`);
      if (!node) return undefined;
      return {
        status: node.dataset.status,
        open: node.open,
        inside: node.parentElement?.closest<HTMLElement>('.tool-card')?.dataset.toolId,
        summary: node.querySelector('summary')!.textContent ?? '',
        tools: Array.from(node.querySelectorAll<HTMLElement>('.subagent-tools .tool-card'), (c) => c.dataset.toolId),
        end: node.querySelector('.subagent-end')!.textContent ?? '',
        images: node.querySelectorAll('img').length,
      };
    }, id);

  it('two parallel explorers: a live card each inside its call, their calls inside, figures and report', async () => {
    await startAgentTurn(chat);
    for (const id of ['s1', 's2'])
      await chat.play({ type: 'agentTool', conversationId: 'c1', messageId: 'a1', tool: spawn(id) });
    await post(sub('s1'));
    await post(sub('s2'));
    const started = await cardOf('s1');
    assert.equal(started?.status, 'running');
    assert.equal(started?.inside, 's1', 'inside its start_subagent call');
    assert.equal(started?.open, false, 'collapsed');
    assert.match(started!.summary, /small-model/);
    assert.match(started!.summary, /Look at s1 <img/, 'the task as text');
    assert.equal(started?.images, 0);

    // A call of s2 that asks: inside s2's card, with its Approve button.
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: {
        id: 's2::c1',
        step: 1,
        name: 'run_command',
        summary: 'npm test',
        status: 'asking',
        subagent: 's2',
        ask: { kind: 'approve', reason: 'not on the allow-list', command: 'npm test' },
      },
    });
    assert.deepEqual((await cardOf('s2'))?.tools, ['s2::c1']);
    await chat.page.evaluate(() => {
      document.querySelector<HTMLDetailsElement>('.subagent-card[data-subagent-id="s2"]')!.open = true;
    });
    await chat.page.click('.subagent-card[data-subagent-id="s2"] button[data-tool-id="s2::c1"][data-action="approve"]');
    const approvals = (await chat.posted()).filter((m) => m.type === 'approval');
    assert.equal(approvals.length, 1);
    assert.match(JSON.stringify(approvals[0]), /"toolUseId":"s2::c1","approved":true/);

    await post(
      sub('s1', {
        status: 'done',
        steps: 3,
        toolCalls: 2,
        tokens: { input: 1200, output: 80, cacheRead: 0, cacheWrite: 0 },
        cost: { amount: 0.0042, source: 'billed', estimate: false },
        result:
          'Sub-agent (explore, model small-model, 3 steps) finished.\n<subagent-report>\nfound <b>it</b>\n</subagent-report>',
        message: 'The agent finished.',
      }),
    );
    await post(sub('s2', { status: 'error', modelRefused: true, message: 'Step 1 failed: 404' }));
    const done = await cardOf('s1');
    assert.equal(done?.status, 'done');
    assert.match(done!.summary, /3/);
    assert.match(done!.summary, /0\.0042/);
    assert.match(done!.end, /found <b>it<\/b>/, 'the report as text');
    assert.equal(await chat.page.evaluate(() => document.querySelectorAll('.subagent-card b').length), 0);
    const refused = await cardOf('s2');
    assert.equal(refused?.status, 'error');
    assert.match(refused!.end, /small-model/);
    assert.deepEqual(refused?.tools, ['s2::c1'], 'its calls stay in its card after updates');
  });

  it("a sub-agent's pending change is labelled with it", async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([msg('u1', 'user', 'Go')], { mode: 'agent', agent: { ok: true } }),
    });
    await chat.play({
      type: 'changes',
      changes: [
        { id: 'p1', kind: 'edit', path: 'a.ts', added: 1, removed: 0, toolUseId: 's1::w' },
        { id: 'p2', kind: 'edit', path: 'b.ts', added: 1, removed: 0, toolUseId: 'w2' },
      ],
    });
    const badges = await chat.page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.change'), (li) => [
        li.dataset.changeId,
        li.querySelector('.badge.subagent')?.textContent ?? '',
      ]),
    );
    assert.deepEqual(badges, [
      ['p1', 'by a sub-agent'],
      ['p2', ''],
    ]);
  });

  it('a reloaded turn shows its stored sub-agent cards, calls inside them', async () => {
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot(
        [
          msg('u1', 'user', 'Go'),
          msg('a1', 'assistant', 'Done.', {
            agent: {
              turnId: 'turn-a1',
              steps: [],
              tools: [
                { ...spawn('s1'), status: 'done' },
                { id: 's1::r1', step: 1, name: 'read_file', summary: 'a.ts', status: 'done', subagent: 's1' },
              ],
              subagents: [
                sub('s1', { status: 'stopped', message: 'The sub-agent stopped when the window was closed.' }),
              ],
              end: { reason: 'end_turn', message: 'The agent finished.', retry: false },
            },
          }),
        ],
        { mode: 'agent', agent: { ok: true } },
      ),
    });
    const card = await cardOf('s1');
    assert.equal(card?.status, 'stopped');
    assert.equal(card?.inside, 's1');
    assert.deepEqual(card?.tools, ['s1::r1']);
    assert.match(card!.end, /window was closed/);
  });

  it('says which agent definition a sub-agent follows and what of it was not, and shows its 429 wait counting down', async () => {
    await startAgentTurn(chat);
    await chat.play({ type: 'agentTool', conversationId: 'c1', messageId: 'a1', tool: spawn('s1') });
    await post(
      sub('s1', {
        agent: { name: 'reviewer', path: '.claude/agents/<b>reviewer</b>.md' },
        notes: ['it asks for the model "pricey", which the user did not allow: it runs on small-model'],
        waitUntil: Date.now() + 30_000,
      }),
    );
    const card = await cardOf('s1');
    assert.match(card!.summary, /Using agent reviewer from \.claude\/agents\/<b>reviewer<\/b>\.md/);
    assert.match(card!.summary, /Not followed: it asks for the model "pricey", which the user did not allow/);
    assert.match(card!.summary, /\d+ s/, 'the wait counts down');
    assert.equal(await chat.page.locator('.subagent-card b').count(), 0, 'the path is text, not markup');
    // The wait ends with its next step: the countdown goes.
    await post(sub('s1', { agent: { name: 'reviewer', path: '.claude/agents/reviewer.md' }, steps: 2 }));
    assert.equal(await chat.page.locator('.subagent-card .subagent-wait').count(), 0);
  });
});
