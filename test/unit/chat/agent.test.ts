// Agent mode of the chat: the event → protocol mapping (pure), and whole turns through the session controller,
// AgentTurns and the real agent loop against the emulator's scripted agent over real sockets. The tools are
// small in-memory implementations of the core's Tool interface (the VS Code tools are covered by host and UI tests).
import { strict as assert } from 'node:assert';
import type { AgentEvent, ApprovalRequest, Tool } from '../../../src/agent';
import {
  AgentEventMapper,
  PROGRESS_CHARS,
  PROGRESS_INTERVAL_MS,
  RESULT_PREVIEW_CHARS,
  targetSummary,
} from '../../../src/chat/agent/agentEvents';
import { parseConversation, serializeConversation } from '../../../src/chat/store/history';
import { turnIdOf } from '../../../src/chat/agent/agentPort';
import type { AgentTurnInfo, ChatMessage, HostToWebviewMessage } from '../../../src/shared/protocol/chat';
import { agentSession, readFileTool } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';
import { useEmulator } from '../emulator/helpers';

type Posted = HostToWebviewMessage;
const ZERO = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

describe('agent events → chat protocol (pure)', () => {
  function mapper() {
    const posted: Posted[] = [];
    const texts: string[] = [];
    const message: ChatMessage & { agent: AgentTurnInfo } = {
      id: 'a1',
      role: 'assistant',
      text: '',
      status: 'streaming',
      createdAt: 0,
      agent: { turnId: 't1', tools: [], steps: [] },
    };
    const m = new AgentEventMapper('c1', message, {
      post: (p) => posted.push(structuredClone(p)),
      text: (kind, text) => {
        texts.push(`${kind}:${text}`);
        if (kind === 'text') message.text += text;
      },
      now: () => 1_000,
    });
    const cards = () =>
      posted.filter((p): p is Extract<Posted, { type: 'agentTool' }> => p.type === 'agentTool').map((p) => p.tool);
    return { m, posted, texts, message, cards };
  }
  const ev = (e: AgentEvent) => e;
  /** A tool proposed with no input; `target` where the card shows one. */
  const proposed = (step: number, toolUseId: string, name: string, target?: { paths: string[] }) =>
    ev({ type: 'tool_proposed', step, toolUseId, name, input: {}, ...(target ? { target } : {}) });
  const result = (step: number, toolUseId: string, content: Extract<AgentEvent, { type: 'tool_result' }>['content']) =>
    ev({ type: 'tool_result', step, toolUseId, isError: false, content });
  type Tokens = typeof ZERO;
  const usageEvent = (step: number, ofStep: Tokens, turn: Tokens) => ev({ type: 'usage', step, usage: ofStep, turn });

  it('a command: proposed → asking (exact command, reason) → running → done with a result preview', () => {
    const { m, cards, message } = mapper();
    m.handle(
      ev({
        type: 'tool_proposed',
        step: 1,
        toolUseId: 'tu1',
        name: 'run_command',
        input: { command: 'npm test' },
        target: { command: 'npm test', summary: 'Run npm test' },
        verdict: { decision: 'ask', rule: 'command-asks', reason: 'the command is not on the allow-list.' },
      }),
    );
    const request: ApprovalRequest = {
      toolUseId: 'tu1',
      toolName: 'run_command',
      approvalClass: 'command',
      input: { command: 'npm test' },
      target: { command: 'npm test' },
      verdict: { decision: 'ask', rule: 'command-asks', reason: 'the command is not on the allow-list.' },
    };
    m.asking(request);
    m.handle(ev({ type: 'tool_approved', step: 1, toolUseId: 'tu1', by: 'user' }));
    for (let i = 0; i < 50; i++)
      m.handle(ev({ type: 'tool_progress', step: 1, toolUseId: 'tu1', text: 'x'.repeat(PROGRESS_CHARS / 10 + 1) }));
    assert.equal(cards().length, 3, 'live output is not posted per chunk');
    m.flushProgress();
    m.flushProgress();
    m.handle(
      ev({
        type: 'tool_result',
        step: 1,
        toolUseId: 'tu1',
        isError: false,
        content: [
          { type: 'text', text: 'passed' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: '' } },
        ],
      }),
    );
    const seen = cards();
    assert.deepEqual(
      seen.map((c) => c.status),
      ['proposed', 'asking', 'running', 'running', 'done'],
    );
    assert.equal(seen[0].summary, 'npm test', 'the exact command, not a paraphrase');
    assert.deepEqual(seen[1].ask, {
      kind: 'approve',
      reason: 'the command is not on the allow-list.',
      command: 'npm test',
    });
    assert.equal(
      seen[3].progress!.length,
      PROGRESS_CHARS,
      'live output is capped to its tail, and posted once per interval',
    );
    assert.equal(seen[4].result, 'passed\n[image]');
    assert.equal(seen[4].ask, undefined);
    assert.equal(message.agent.tools.length, 1, 'one card per tool_use id');
  });

  it('live output is posted by itself after the interval (the last chunk is never lost)', async () => {
    const { m, cards } = mapper();
    m.handle(proposed(1, 'p1', 'run_command'));
    m.handle(ev({ type: 'tool_approved', step: 1, toolUseId: 'p1', by: 'policy' }));
    m.handle(ev({ type: 'tool_progress', step: 1, toolUseId: 'p1', text: 'one ' }));
    m.handle(ev({ type: 'tool_progress', step: 1, toolUseId: 'p1', text: 'two' }));
    await new Promise((r) => setTimeout(r, PROGRESS_INTERVAL_MS * 3));
    assert.deepEqual(
      cards().map((c) => c.progress),
      [undefined, undefined, 'one two'],
    );
  });

  it('cards show workspace-relative paths; the full paths go along for the hover', () => {
    const posted: Posted[] = [];
    const message: ChatMessage & { agent: AgentTurnInfo } = {
      id: 'a1',
      role: 'assistant',
      text: '',
      status: 'streaming',
      createdAt: 0,
      agent: { turnId: 't1', tools: [], steps: [] },
    };
    const m = new AgentEventMapper(
      'c1',
      message,
      { post: (p) => posted.push(structuredClone(p)), text: () => undefined, now: () => 0 },
      undefined,
      (p) => p.replace(/^\/home\/me\/project\//, ''),
    );
    const full = '/home/me/project/src/deeply/nested/folder/file.ts';
    m.handle(proposed(1, 'w1', 'delete_file', { paths: [full] }));
    m.asking({
      toolUseId: 'w1',
      toolName: 'delete_file',
      approvalClass: 'delete',
      input: {},
      target: { paths: [full] },
      verdict: { decision: 'ask', rule: 'delete', reason: 'deletes a file' },
    } as never);
    const card = (posted.at(-1) as Extract<Posted, { type: 'agentTool' }>).tool;
    assert.equal(card.summary, 'src/deeply/nested/folder/file.ts');
    assert.deepEqual(card.ask?.paths, ['src/deeply/nested/folder/file.ts']);
    assert.deepEqual(card.ask?.fullPaths, [full]);
  });

  it('a write is asked by its diff review: the card stays asking after the policy approval, until the result', () => {
    const { m, cards } = mapper();
    m.handle(proposed(1, 'w1', 'propose_edit', { paths: ['/ws/.vscode/settings.json'] }));
    m.asking({
      toolUseId: 'w1',
      toolName: 'propose_edit',
      approvalClass: 'write',
      input: {},
      target: { paths: ['/ws/.vscode/settings.json'] },
      verdict: {
        decision: 'ask',
        rule: 'vscode-dir',
        reason: '.vscode/settings.json is VS Code workspace configuration (.vscode).',
      },
    });
    m.handle(ev({ type: 'tool_approved', step: 1, toolUseId: 'w1', by: 'user' }));
    assert.equal(cards().at(-1)!.status, 'asking');
    assert.equal(cards().at(-1)!.ask!.kind, 'review');
    assert.deepEqual(cards().at(-1)!.ask!.paths, ['/ws/.vscode/settings.json'], 'no showPath: as the policy saw it');
    m.handle(result(1, 'w1', 'Rejected: the user rejected the edit.'));
    assert.equal(cards().at(-1)!.status, 'done');
  });

  it('refusals and denials close the card with the reason; long results are cut for the card only', () => {
    const { m, cards } = mapper();
    m.handle(proposed(1, 'r1', 'read_file', { paths: ['/ws/.env'] }));
    m.handle(ev({ type: 'tool_refused', step: 1, toolUseId: 'r1', reason: '.env matches the secrets ignore list' }));
    m.handle(proposed(1, 'r2', 'run_command'));
    m.handle(ev({ type: 'tool_denied', step: 1, toolUseId: 'r2', reason: 'the user denied this call' }));
    m.handle(proposed(2, 'r3', 'read_file'));
    m.handle(result(2, 'r3', 'y'.repeat(RESULT_PREVIEW_CHARS + 5)));
    const last = new Map(cards().map((c) => [c.id, c]));
    assert.equal(last.get('r1')!.status, 'refused');
    assert.match(last.get('r1')!.note!, /secrets ignore list/);
    assert.equal(last.get('r2')!.status, 'refused');
    assert.match(last.get('r2')!.note!, /^Denied: /);
    assert.equal(last.get('r3')!.result!.length, RESULT_PREVIEW_CHARS);
    assert.equal(last.get('r3')!.resultTruncated, true);
  });

  it('usage per step and per turn, a visible 429 wait that clears, notes, and the end with Retry only where the user decides', () => {
    const { m, posted, texts, message } = mapper();
    m.handle(ev({ type: 'step_start', step: 1, estimatedInputTokens: 10, caching: true }));
    m.handle(ev({ type: 'text', step: 1, text: 'Reading.' }));
    const firstStep = { input: 10, output: 5, cacheRead: 0, cacheWrite: 100 };
    m.handle(usageEvent(1, firstStep, firstStep));
    m.handle(ev({ type: 'rate_limited', step: 2, waitMs: 3000, attempt: 1 }));
    m.handle(ev({ type: 'step_start', step: 2, estimatedInputTokens: 10, caching: true }));
    m.handle(ev({ type: 'caching_disabled', step: 2, reason: 'The gateway rejected prompt caching.' }));
    m.handle(
      usageEvent(
        2,
        { input: 3, output: 7, cacheRead: 100, cacheWrite: 0 },
        { input: 13, output: 12, cacheRead: 100, cacheWrite: 100 },
      ),
    );
    m.handle(
      ev({
        type: 'turn_end',
        reason: 'step_budget',
        steps: 2,
        usage: { input: 13, output: 12, cacheRead: 100, cacheWrite: 100 },
        message: 'Stopped after 2 steps (the step budget).',
      }),
    );
    assert.deepEqual(texts, ['text:Reading.', 'text:\n\n'], 'each step starts a new paragraph');
    assert.deepEqual(
      posted.filter((p) => p.type === 'agentWait').map((p) => (p as { until: number | null }).until),
      [4000, null],
    );
    const usage = posted.filter((p): p is Extract<Posted, { type: 'agentUsage' }> => p.type === 'agentUsage');
    assert.deepEqual(
      usage.map((u) => u.step),
      [
        { step: 1, tokens: { input: 10, output: 5, cacheRead: 0, cacheWrite: 100 } },
        { step: 2, tokens: { input: 3, output: 7, cacheRead: 100, cacheWrite: 0 } },
      ],
    );
    assert.deepEqual(message.agent.tokens, { input: 13, output: 12, cacheRead: 100, cacheWrite: 100 });
    // The footer's figures are the turn's, in the same definitions (uncached input; cache reads and writes apart).
    assert.deepEqual(message.usage, { input: 13, output: 12, cacheRead: 100, cacheWrite: 100 });
    assert.deepEqual(message.agent.notes, ['The gateway rejected prompt caching.']);
    assert.deepEqual(message.agent.end, {
      reason: 'step_budget',
      message: 'Stopped after 2 steps (the step budget).',
      retry: true,
    });
    for (const reason of ['end_turn', 'refusal'] as const) {
      const x = mapper();
      x.m.handle(ev({ type: 'turn_end', reason, steps: 1, usage: ZERO, message: '' }));
      assert.equal(x.message.agent.end!.retry, false, `${reason}: nothing to retry`);
    }
  });

  it('Stop during an approval: the open card is closed, so no prompt stays live', () => {
    const { m, message } = mapper();
    m.handle(proposed(1, 's1', 'run_command'));
    m.asking({
      toolUseId: 's1',
      toolName: 'run_command',
      approvalClass: 'command',
      input: {},
      target: { command: 'sleep 100' },
      verdict: { decision: 'ask', rule: 'command-asks', reason: 'x' },
    });
    m.handle(ev({ type: 'turn_end', reason: 'stopped', steps: 1, usage: ZERO, message: 'Stopped.' }));
    assert.equal(message.agent.tools[0].status, 'refused');
    assert.equal(message.agent.tools[0].ask, undefined);
  });

  it('target summaries are one line and bounded (a command with newlines cannot fake a second line)', () => {
    assert.equal(targetSummary('run_command', { command: 'echo a\nrm -rf /' }), 'echo a ⏎ rm -rf /');
    assert.equal(targetSummary('read_file', { paths: ['/a', '/b'] }), '/a, /b');
    assert.equal(targetSummary('get_diagnostics', undefined), 'get_diagnostics');
    assert.equal(targetSummary('x', { summary: 'z'.repeat(1000) }).length, 300);
  });

  /** A conversation with these messages through the history file format and back. */
  const roundTrip = (messages: ChatMessage[], mode?: 'agent') =>
    parseConversation(
      serializeConversation({
        id: 'c1',
        title: 't',
        titled: true,
        createdAt: 1,
        updatedAt: 1,
        overrides: {},
        messages,
        ...(mode ? { mode } : {}),
      }),
    )!;

  it('an agent answer round-trips through history; open cards of a turn cut by a window close come back closed', () => {
    const message: ChatMessage = {
      id: 'a1',
      role: 'assistant',
      text: 'hi',
      status: 'streaming',
      createdAt: 1,
      agent: {
        turnId: 'turn-a1',
        tools: [
          {
            id: 'tu1',
            step: 1,
            name: 'run_command',
            summary: 'npm test',
            status: 'asking',
            ask: { kind: 'approve', reason: 'r', command: 'npm test' },
          },
          { id: 'tu2', step: 1, name: 'read_file', summary: 'a.ts', status: 'done', result: 'x' },
        ],
        steps: [{ step: 1, tokens: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 } }],
        tokens: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 },
      },
    };
    const back = roundTrip([message], 'agent');
    assert.equal(back.mode, 'agent');
    const agent = back.messages[0].agent!;
    assert.equal(agent.turnId, 'turn-a1', 'Restore works after a reload');
    assert.equal(agent.tools[0].status, 'refused');
    assert.equal(agent.tools[0].ask, undefined, 'no live approval buttons after a reload');
    assert.equal(agent.tools[1].result, 'x');
    assert.deepEqual(agent.tokens, { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 });
    assert.equal(agent.end?.retry, true);
    assert.equal(roundTrip([{ ...message, agent: { turnId: '../x' } as never }]).messages[0].agent, undefined);
  });
});

// ---- whole turns against the emulator ----

/** In-memory tools implementing the core's Tool: a file map, and a "command" that waits for its signal. */
function tools(files: Record<string, string>, ran: string[]): Tool[] {
  const run: Tool = {
    name: 'run_command',
    description: 'Run a command.',
    approvalClass: 'command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    target: (i) => ({ command: String(i.command) }),
    invoke: (i, ctx) =>
      new Promise((resolve) => {
        ran.push(String(i.command));
        if (String(i.command).startsWith('sleep')) {
          ctx.signal.addEventListener('abort', () => resolve({ content: 'killed', isError: true }), { once: true });
          return;
        }
        resolve({ content: `ran ${String(i.command)}: exit 0, 3 tests passed` });
      }),
  };
  return [readFileTool(files), run];
}

describe('Agent mode through the session (emulator, real loop)', function () {
  this.timeout(30_000);
  const emulator = useEmulator();

  function setup(opts: { trusted?: boolean; maxSteps?: number; models?: { ask: string; agent?: string } } = {}) {
    const ran: string[] = [];
    const files = { 'a.ts': 'export const a = 1;\n' };
    return { ...agentSession({ emulator: emulator(), tools: () => tools(files, ran), ...opts }), ran };
  }

  /** A fresh agent conversation that sends `text` (a command for run_command) and waits for its approval prompt. */
  async function untilAsked(text: string) {
    const t = setup();
    await t.s.load();
    t.s.setMode('agent');
    t.s.send(text);
    await waitUntil(() => t.of('agentTool').some((m) => m.tool.status === 'asking'), 'approval prompt');
    return { ...t, asking: t.of('agentTool').find((m) => m.tool.status === 'asking')!.tool };
  }

  it('reads a file: card done with the file text, the model gets it, cost per step, end_turn, checkpoint begun and ended', async () => {
    const { s, of, turns } = setup();
    await s.load();
    assert.equal(s.setMode('agent'), undefined);
    assert.equal(s.snapshot().mode, 'agent');
    assert.equal(s.store.summaries()[0].mode, 'agent', 'the mode is part of the conversation history');
    assert.equal(s.send('Look at it.\n@tool read_file {"path":"a.ts"}'), undefined);
    await waitUntil(() => of('streamFinished').length === 1, 'finish');
    const answer = s.store.active.messages[1];
    assert.equal(answer.status, 'complete');
    const done = of('agentTool').filter((t) => t.tool.status === 'done');
    assert.equal(done.length, 1);
    assert.equal(done[0].tool.name, 'read_file');
    assert.equal(done[0].tool.result, 'export const a = 1;\n');
    assert.match(answer.text, /Result 1: export const a = 1;/, 'the tool result reached the model');
    assert.equal(of('agentUsage').length, 2, 'one usage line per step');
    assert.ok(answer.agent!.tokens!.output > 0);
    assert.equal(of('agentEnd')[0].end.reason, 'end_turn');
    assert.equal(answer.agent!.end!.unchanged, true, 'a turn that only read has nothing to restore');
    assert.equal(of('agentEnd').at(-1)!.end.unchanged, true, 'the view is told');
    assert.deepEqual(turns, [`begin ${turnIdOf(answer.id)}`, 'end']);
    assert.equal(s.agentTurn(answer.id), turnIdOf(answer.id));
  });

  it('a command asks; approving runs it and its output reaches the model; a second answer to the same prompt is refused', async () => {
    const { s, agent, of, ran, asking } = await untilAsked('Run the tests.\n@run "npm test"');
    assert.equal(asking.ask!.command, 'npm test');
    assert.deepEqual(ran, [], 'nothing runs before the approval');
    assert.equal(agent.answer('toolu_unknown', true), false);
    assert.equal(agent.answer(asking.id, true), true);
    assert.equal(agent.answer(asking.id, true), false, 'one answer per prompt');
    await waitUntil(() => of('streamFinished').length === 1, 'finish');
    assert.deepEqual(ran, ['npm test']);
    assert.match(s.store.active.messages[1].text, /ran npm test: exit 0, 3 tests passed/);
    assert.equal(s.store.active.messages[1].agent!.end!.unchanged, undefined, 'a command ran: Restore stays');
  });

  it('deny: the command never runs and the model is told', async () => {
    const { s, agent, of, ran, asking } = await untilAsked('@run "rm -rf build"');
    agent.answer(asking.id, false);
    await waitUntil(() => of('streamFinished').length === 1, 'finish');
    assert.deepEqual(ran, []);
    assert.equal(s.store.active.messages[1].agent!.tools[0].status, 'refused');
    assert.match(s.store.active.messages[1].text, /Denied/);
  });

  it('Stop during a running command cancels it and ends the turn as stopped', async () => {
    const { s, agent, of, ran, asking } = await untilAsked('@run "sleep 100"');
    agent.answer(asking.id, true);
    await waitUntil(() => ran.length === 1, 'command started');
    s.stop();
    await waitUntil(() => of('streamFinished').length === 1, 'finish');
    assert.equal(of('streamFinished')[0].status, 'stopped');
    assert.equal(s.store.active.messages[1].agent!.end!.reason, 'stopped');
    assert.equal(s.busy, false);
  });

  it('the step budget ends a loop, with Retry left to the user', async () => {
    const { s, of } = setup({ maxSteps: 3 });
    await s.load();
    s.setMode('agent');
    s.send('Loop.\n@steps 30\n@tool read_file {"path":"a.ts"}');
    await waitUntil(() => of('streamFinished').length === 1, 'finish');
    const end = of('agentEnd')[0].end;
    assert.equal(end.reason, 'step_budget');
    assert.equal(end.retry, true);
    assert.equal(emulator().billableCount('messages'), 3, 'three requests, not one more');
  });

  it('Ask defaults to the chat model and Agent to the agent model; a model picked in the conversation wins', async () => {
    const { s, of } = setup({ models: { ask: 'claude-demo-sonnet', agent: 'claude-demo-agent' } });
    await s.load();
    assert.equal(s.snapshot().settings.model, 'claude-demo-sonnet');
    assert.equal(s.setMode('agent'), undefined);
    assert.equal(s.snapshot().settings.model, 'claude-demo-agent');
    assert.equal(of('settings').at(-1)?.settings.model, 'claude-demo-agent', 'the view is told the new model');
    s.setMode('ask');
    assert.equal(of('settings').at(-1)?.settings.model, 'claude-demo-sonnet');
    s.setSettings({ model: 'claude-demo-haiku' });
    s.setMode('agent');
    assert.equal(s.snapshot().settings.model, 'claude-demo-haiku');
  });

  it('Plan defaults to the agent model as Agent does (the Ask model cannot plan with tools)', async () => {
    const { s } = setup({ models: { ask: 'claude-demo-sonnet', agent: 'claude-demo-agent' } });
    await s.load();
    assert.equal(s.setMode('plan'), undefined);
    assert.equal(s.snapshot().settings.model, 'claude-demo-agent');
    s.setMode('ask');
    assert.equal(s.snapshot().settings.model, 'claude-demo-sonnet');
  });

  it('untrusted workspace: Agent cannot be chosen, and an agent conversation refuses to send (Ask still works)', async () => {
    const { s, of } = setup({ trusted: false });
    await s.load();
    assert.match(s.setMode('agent') ?? '', /Restricted Mode/);
    assert.equal(s.snapshot().mode, 'ask');
    assert.equal(s.snapshot().agent?.ok, false);
    s.store.active.mode = 'agent';
    assert.match(s.send('@tool read_file {"path":"a.ts"}') ?? '', /Restricted Mode/);
    assert.equal(emulator().billableCount('messages'), 0);
    assert.equal(s.setMode('ask'), undefined);
    assert.equal(s.send('hello'), undefined);
    await waitUntil(() => of('streamFinished').length === 1, 'ask answer');
  });
});
