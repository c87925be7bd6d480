/// <reference lib="dom" />
// Agent mode in the real chat bundle (headless Chromium, production CSP): mode switch, tool cards, inline
// approvals, the pending changes list, cost, end and Restore; all by keyboard; tool output never becomes HTML.
import { strict as assert } from 'node:assert';
import type { AgentToolCard, AgentTurnInfo, WebviewToHostMessage } from '../../src/shared/protocol/chat';
import { chatPageSuite, msg, snapshot, startAgentTurn, type ChatPage } from '../support/chatPage';

const PWN = 'window.__pwned=1';
const HOSTILE = `<img src=x onerror="${PWN}"><script>${PWN}</script><a href="javascript:${PWN}">x</a>[link](https://evil.example) <b>bold</b>`;

describe('chat webview: Agent mode (Chromium)', function () {
  this.timeout(60_000);
  let chat: ChatPage;
  const pages = chatPageSuite(undefined, async (page) => {
    assert.deepEqual(page.errors, [], 'no page errors, no dialogs');
    assert.equal(
      await page.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
      undefined,
      'no injected script ran',
    );
  });
  beforeEach(() => {
    chat = pages.chat;
  });

  const posted = async <T extends WebviewToHostMessage['type']>(type: T) =>
    (await chat.posted()).filter((m): m is Extract<WebviewToHostMessage, { type: T }> => m.type === type);
  const turn = (extra: Partial<AgentTurnInfo> = {}): AgentTurnInfo => ({
    turnId: 'turn-a1',
    tools: [],
    steps: [],
    ...extra,
  });
  const card = (extra: Partial<AgentToolCard> = {}): AgentToolCard => ({
    id: 'toolu_1',
    step: 1,
    name: 'run_command',
    summary: 'npm test',
    status: 'proposed',
    ...extra,
  });

  const agentAnswer = (): Promise<void> => startAgentTurn(chat, 'Run the tests');

  it('the mode select is keyboard operable; the host confirms the switch; untrusted shows why', async () => {
    await chat.play({ type: 'snapshot', snapshot: snapshot([], { mode: 'ask', agent: { ok: true } }) });
    const select = chat.page.locator('.composer select.mode');
    assert.equal(await select.inputValue(), 'ask');
    await select.focus();
    await select.selectOption('agent');
    assert.deepEqual(
      (await posted('setMode')).map((m) => m.mode),
      ['agent'],
    );
    assert.equal(await select.inputValue(), 'ask', 'stays until the host confirms');
    await chat.play({ type: 'mode', conversationId: 'c1', mode: 'agent' });
    assert.equal(await select.inputValue(), 'agent');
    assert.match((await chat.page.locator('.composer .input').getAttribute('placeholder')) ?? '', /agent/i);
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot([], {
        mode: 'ask',
        agent: { ok: false, reason: 'Agent mode is unavailable in Restricted Mode: trust this workspace.' },
      }),
    });
    assert.equal(await chat.page.locator('.composer select.mode option[value="agent"]').isDisabled(), true);
    assert.match(await chat.page.locator('.composer .mode-note').innerText(), /Restricted Mode/);
  });

  it('a tool card walks through its states; Approve by keyboard posts one approval with the tool id', async () => {
    await agentAnswer();
    await chat.play({
      type: 'streamDelta',
      conversationId: 'c1',
      messageId: 'a1',
      text: 'Step 1 of 1: calling run_command.',
    });
    await chat.play({ type: 'agentTool', conversationId: 'c1', messageId: 'a1', tool: card() });
    const cardEl = chat.page.locator('.tool-card[data-tool-id="toolu_1"]');
    assert.equal(await cardEl.getAttribute('data-status'), 'proposed');
    assert.equal(await cardEl.locator('.tool-name').innerText(), 'run_command');
    assert.equal(await cardEl.locator('.tool-target').innerText(), 'npm test');
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({
        status: 'asking',
        ask: { kind: 'approve', reason: 'the command is not on the allow-list.', command: 'npm test' },
      }),
    });
    assert.equal(await chat.page.locator('.tool-card').count(), 1, 'the card is updated in place');
    assert.equal(await cardEl.locator('.ask-command').innerText(), 'npm test', 'the exact command is shown');
    assert.match(await cardEl.locator('.ask-reason').innerText(), /not on the allow-list/);
    assert.match(await chat.page.locator('.sr-only').innerText(), /Approval needed: run_command npm test/);
    // Keyboard: Tab to Approve, Enter.
    await chat.page.locator('.composer .input').focus();
    const approve = cardEl.locator('button[data-action="approve"]');
    await approve.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(
      (await posted('approval')).map((m) => [m.toolUseId, m.approved]),
      [['toolu_1', true]],
    );
    assert.equal(await approve.isDisabled(), true, 'one answer per prompt');
    await chat.page.keyboard.press('Enter');
    assert.equal((await posted('approval')).length, 1);
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({ status: 'running', progress: 'running 3 tests…' }),
    });
    assert.equal(await cardEl.getAttribute('data-status'), 'running');
    assert.equal(await cardEl.locator('.tool-progress').innerText(), 'running 3 tests…');
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({ status: 'done', result: '3 passing' }),
    });
    assert.equal(await cardEl.locator('button').count(), 0, 'no approval buttons once answered');
    const result = cardEl.locator('details.tool-result');
    assert.equal(await result.evaluate((d) => (d as HTMLDetailsElement).open), false, 'results start collapsed');
    await result.locator('summary').focus();
    await chat.page.keyboard.press('Enter');
    assert.equal(await result.locator('pre').innerText(), '3 passing');
  });

  it('Deny posts approved: false', async () => {
    await agentAnswer();
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({ status: 'asking', ask: { kind: 'approve', reason: 'r', command: 'rm -rf build' } }),
    });
    await chat.page.locator('button[data-action="deny"]').click();
    assert.deepEqual(
      (await posted('approval')).map((m) => [m.toolUseId, m.approved]),
      [['toolu_1', false]],
    );
  });

  it('tool output, summaries, paths, commands and notes are text: no element, no link, no script from them', async () => {
    await agentAnswer();
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({
        id: 't2',
        summary: HOSTILE,
        status: 'asking',
        ask: { kind: 'approve', reason: HOSTILE, command: HOSTILE, paths: [HOSTILE] },
      }),
    });
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({ id: 't3', name: HOSTILE, summary: HOSTILE, status: 'running', progress: HOSTILE }),
    });
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({ id: 't4', summary: HOSTILE, status: 'error', note: HOSTILE, result: HOSTILE }),
    });
    await chat.play({ type: 'agentNote', conversationId: 'c1', messageId: 'a1', note: HOSTILE });
    await chat.play({
      type: 'agentEnd',
      conversationId: 'c1',
      messageId: 'a1',
      end: { reason: 'error', message: HOSTILE, retry: true },
    });
    await chat.play({ type: 'changes', changes: [{ id: 'ch1', kind: 'edit', path: HOSTILE, added: 1, removed: 0 }] });
    await chat.page.locator('.tool-card[data-tool-id="t4"] details.tool-result summary').click();
    const agentDom = await chat.page.evaluate(() => {
      const roots = [...Array.from(document.querySelectorAll('.agent')), document.querySelector('.changes')!];
      return {
        injected: roots.flatMap((r) =>
          Array.from(r.querySelectorAll('img, script, a, b, iframe, [href], [src], [onerror]')),
        ).length,
        text: roots.map((r) => r.textContent).join('\n'),
      };
    });
    assert.equal(agentDom.injected, 0);
    assert.ok(agentDom.text.includes('<img src=x onerror='), 'shown literally');
    assert.ok(agentDom.text.includes('[link](https://evil.example)'), 'markdown links stay text');
    await new Promise((r) => setTimeout(r, 200));
  });

  it('pending changes: Open diff / Accept / Reject per file, Accept all / Reject all, by keyboard; hidden when empty', async () => {
    await agentAnswer();
    const changes = chat.page.locator('section.changes');
    assert.equal(await changes.isVisible(), false);
    await chat.play({
      type: 'changes',
      changes: [
        { id: 'ch-1', kind: 'edit', path: 'src/a.ts', added: 3, removed: 1, toolUseId: 'toolu_1' },
        { id: 'ch-2', kind: 'create', path: 'test/a.test.ts', added: 10, removed: 0 },
      ],
    });
    assert.equal(await changes.isVisible(), true);
    assert.match(await changes.locator('.changes-title').innerText(), /Pending changes \(2\)/);
    assert.equal(await changes.locator('li[data-change-id="ch-1"] .change-stats').innerText(), '+3 −1');
    await changes.locator('button[aria-label="Open diff of src/a.ts"]').focus();
    await chat.page.keyboard.press('Enter');
    await chat.page.keyboard.press('Tab');
    await chat.page.keyboard.press('Enter');
    await changes.locator('button[aria-label="Reject edit of src/a.ts"]').focus();
    await chat.page.keyboard.press('Space');
    await changes.locator('li[data-change-id="ch-2"] button', { hasText: 'Accept' }).click();
    assert.deepEqual(
      (await posted('change')).map((m) => [m.changeId, m.action]),
      [
        ['ch-1', 'open'],
        ['ch-1', 'accept'],
        ['ch-1', 'reject'],
        ['ch-2', 'accept'],
      ],
    );
    await changes.locator('button', { hasText: 'Accept all' }).click();
    await changes.locator('button', { hasText: 'Reject all' }).click();
    assert.deepEqual(
      (await posted('changesAll')).map((m) => m.action),
      ['accept', 'reject'],
    );
    await chat.play({ type: 'changes', changes: [] });
    assert.equal(await changes.isVisible(), false);
  });

  it('pending changes: an edit of two parts lists each with its line, size and first line, and its own Accept / Reject', async () => {
    await agentAnswer();
    const changes = chat.page.locator('section.changes');
    const hunk = (key: string, line: number, preview: string) => ({ key, line, added: 1, removed: 1, preview });
    await chat.play({
      type: 'changes',
      changes: [
        {
          id: 'ch-h',
          kind: 'edit',
          path: 'src/two.ts',
          added: 2,
          removed: 2,
          hunks: [hunk('0.1.0.1.k1', 1, 'const a = 10;'), hunk('3.1.3.1.k2', 4, HOSTILE)],
        },
        // One part only: the file's own buttons are enough.
        { id: 'ch-1', kind: 'edit', path: 'src/one.ts', added: 1, removed: 1, hunks: [hunk('0.1.0.1.k3', 1, 'x')] },
      ],
    });
    const rows = changes.locator('li[data-change-id="ch-h"] li.change-hunk');
    assert.equal(await rows.count(), 2);
    assert.equal(await changes.locator('li[data-change-id="ch-1"] li.change-hunk').count(), 0);
    assert.match(await rows.nth(0).innerText(), /Line 1\s+\+1 −1\s+const a = 10;/);
    assert.ok((await rows.nth(1).locator('.hunk-preview').innerText()).includes('<img src=x onerror='), 'text only');
    assert.equal(await rows.nth(1).locator('img, script, a').count(), 0);
    await changes.locator('button[aria-label="Reject the part at line 4 of src/two.ts"]').focus();
    await chat.page.keyboard.press('Enter');
    await rows.nth(0).locator('button[aria-label="Accept the part at line 1 of src/two.ts"]').click();
    assert.deepEqual(
      (await posted('changeHunk')).map((m) => [m.changeId, m.hunk, m.action]),
      [
        ['ch-h', '3.1.3.1.k2', 'reject'],
        ['ch-h', '0.1.0.1.k1', 'accept'],
      ],
    );
    assert.deepEqual(await posted('change'), [], 'no whole-file action');
  });

  it('in a narrow sidebar the tool name and status are never cut; a long target is, with the full path on hover', async () => {
    await chat.page.setViewportSize({ width: 200, height: 700 });
    await agentAnswer();
    await chat.play({
      type: 'agentTool',
      conversationId: 'c1',
      messageId: 'a1',
      tool: card({
        name: 'create_file',
        summary: 'Create src/deeply/nested/folder/with/a/long/name/component.test.ts',
        status: 'asking',
        ask: {
          kind: 'review',
          reason: 'creates a file',
          paths: ['src/deeply/nested/folder/with/a/long/name/component.test.ts'],
          fullPaths: ['/home/me/project/src/deeply/nested/folder/with/a/long/name/component.test.ts'],
        },
      }),
    });
    const cut = (selector: string) =>
      chat.page.locator(selector).evaluate((e) => e.scrollWidth > e.clientWidth + 1 || e.clientWidth === 0);
    assert.equal(await cut('.tool-card .tool-name'), false, 'the tool name shows whole');
    assert.equal(await cut('.tool-card .tool-status'), false, 'the status shows whole');
    assert.equal(
      await chat.page.locator('.tool-ask .ask-paths').getAttribute('title'),
      '/home/me/project/src/deeply/nested/folder/with/a/long/name/component.test.ts',
    );
  });

  it('one token account: the footer shows the turn figures the steps add up to; a stopped step is marked estimated', async () => {
    await agentAnswer();
    await chat.play({
      type: 'agentUsage',
      conversationId: 'c1',
      messageId: 'a1',
      step: { step: 1, tokens: { input: 0, output: 40, cacheRead: 6651, cacheWrite: 2486 } },
      turn: { input: 0, output: 40, cacheRead: 6651, cacheWrite: 2486 },
    });
    await chat.play({
      type: 'agentUsage',
      conversationId: 'c1',
      messageId: 'a1',
      step: { step: 2, tokens: { input: 12, output: 210, cacheRead: 9137, cacheWrite: 0, estimated: true } },
      turn: { input: 12, output: 250, cacheRead: 15788, cacheWrite: 2486, estimated: true },
    });
    await chat.play({
      type: 'streamFinished',
      conversationId: 'c1',
      messageId: 'a1',
      status: 'stopped',
      usage: { input: 12, output: 250, cacheRead: 15788, cacheWrite: 2486, estimated: true },
      model: 'claude-demo-agent',
    });
    const cost = chat.page.locator('.agent-cost');
    const turnLine = 'in 12 · out ~250 (estimated) · cache read 15,788 · cache write 2,486';
    assert.equal(await cost.locator('summary').innerText(), `Turn tokens: ${turnLine}`);
    await cost.locator('summary').click();
    assert.deepEqual(await cost.locator('li').allInnerTexts(), [
      'Step 1: out 40 · cache read 6,651 · cache write 2,486',
      'Step 2: in 12 · out ~210 (estimated) · cache read 9,137',
    ]);
    // The tokens are said once (the turn line above); the footer says why there is no cost.
    assert.equal(
      await chat.page.locator('.message.assistant .meta').innerText(),
      'claude-demo-agent · no cost shown: no price for claude-demo-agent (set modelGateway.prices)',
    );
  });

  it('cost per step and per turn, a 429 countdown, the end reason with Continue and Restore; Restore works from a stored turn', async () => {
    await agentAnswer();
    await chat.play({
      type: 'agentUsage',
      conversationId: 'c1',
      messageId: 'a1',
      step: { step: 1, tokens: { input: 1200, output: 40, cacheRead: 0, cacheWrite: 900 } },
      turn: { input: 1200, output: 40, cacheRead: 0, cacheWrite: 900 },
    });
    await chat.play({
      type: 'agentUsage',
      conversationId: 'c1',
      messageId: 'a1',
      step: { step: 2, tokens: { input: 30, output: 12, cacheRead: 900, cacheWrite: 0 } },
      turn: { input: 1230, output: 52, cacheRead: 900, cacheWrite: 900 },
    });
    const cost = chat.page.locator('.agent-cost');
    assert.equal(
      await cost.locator('summary').innerText(),
      'Turn tokens: in 1,230 · out 52 · cache read 900 · cache write 900',
    );
    await cost.locator('summary').click();
    assert.deepEqual(await cost.locator('li').allInnerTexts(), [
      'Step 1: in 1,200 · out 40 · cache write 900',
      'Step 2: in 30 · out 12 · cache read 900',
    ]);
    await chat.play({ type: 'agentWait', conversationId: 'c1', messageId: 'a1', until: Date.now() + 30_000 });
    assert.match(await chat.page.locator('.agent-wait .countdown').innerText(), /in (29|30) s/);
    await chat.play({ type: 'agentWait', conversationId: 'c1', messageId: 'a1', until: null });
    assert.equal(await chat.page.locator('.agent-wait .countdown').count(), 0);
    await chat.play({
      type: 'agentEnd',
      conversationId: 'c1',
      messageId: 'a1',
      end: { reason: 'step_budget', message: 'Stopped after 3 steps: the step budget.', retry: true },
    });
    await chat.play({ type: 'streamFinished', conversationId: 'c1', messageId: 'a1', status: 'complete' });
    await chat.play({ type: 'busy', busy: false });
    const end = chat.page.locator('.agent-end');
    assert.match(await end.innerText(), /Step budget reached\. Stopped after 3 steps/);
    assert.equal(
      await cost.locator('summary').innerText(),
      'Turn tokens: in 1,230 · out 52 · cache read 900 · cache write 900',
      'the cost survives the final render',
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await posted('continue')).length, 0, 'Continue is never automatic');
    // A budget stop goes on from where it stopped (Continue); Retry would send step 1 again and stop at the same place.
    assert.equal(await end.locator('button', { hasText: 'Retry' }).count(), 0);
    await end.locator('button', { hasText: 'Continue' }).click();
    await end.locator('button', { hasText: 'Restore to before this turn' }).click();
    assert.deepEqual(
      (await posted('continue')).map((m) => m.messageId),
      ['a1'],
    );
    assert.deepEqual(
      (await posted('restoreCheckpoint')).map((m) => m.messageId),
      ['a1'],
    );
    await chat.play({ type: 'agentRestored', conversationId: 'c1', messageId: 'a1' });
    assert.match(await end.innerText(), /Workspace restored to before this turn/);
    // After a reload the turn comes from history: Restore is still offered.
    await chat.play({
      type: 'snapshot',
      snapshot: snapshot(
        [
          msg('u1', 'user', 'q'),
          msg('a2', 'assistant', 'done', {
            agent: turn({
              turnId: 'turn-a2',
              tools: [card({ status: 'done', result: 'ok' })],
              end: { reason: 'end_turn', message: 'Done.', retry: false },
              tokens: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 },
            }),
          }),
        ],
        { mode: 'agent', agent: { ok: true } },
      ),
    });
    const stored = chat.page.locator('.message[data-id="a2"]');
    await stored.scrollIntoViewIfNeeded();
    assert.equal(await stored.locator('.tool-card').count(), 1);
    assert.equal(await stored.locator('button', { hasText: 'Retry' }).count(), 0, 'a finished turn offers no Retry');
    await stored.locator('button', { hasText: 'Restore to before this turn' }).click();
    assert.deepEqual(
      (await posted('restoreCheckpoint')).map((m) => m.messageId),
      ['a1', 'a2'],
    );
    // A turn that only read has nothing to restore: no Restore.
    await chat.play({
      type: 'agentEnd',
      conversationId: 'c1',
      messageId: 'a2',
      end: { reason: 'end_turn', message: 'Done.', retry: false, unchanged: true },
    });
    await stored.locator('.agent-end', { hasText: 'Done.' }).waitFor();
    assert.equal(await stored.locator('button', { hasText: 'Restore to before this turn' }).count(), 0);
  });
});
