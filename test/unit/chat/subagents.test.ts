// Sub-agents through the session, AgentTurns and the real loop against the emulator's scripted agent (which sends two
// explorers in parallel when asked to use sub-agents): their cards (model, task, steps, calls, tokens), the footer
// that sums parent and children, a refused model, and a reload that shows an unfinished sub-agent as stopped.
import { strict as assert } from 'node:assert';
import type { Tool } from '../../../src/agent';
import { parseConversation, serializeConversation } from '../../../src/chat/store/history';
import type { AgentSubagentCard } from '../../../src/shared/protocol/chat';
import { totalTokens } from '../../../src/shared/tokens';
import { useEmulator } from '../emulator/helpers';
import { waitUntil } from '../../support/poll';
import { agentSession, readFileTool } from './chatSessionFixture';

const listTool: Tool = {
  name: 'list_directory',
  description: 'List a folder.',
  approvalClass: 'read',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  target: (i) => ({ paths: [`/ws/${String(i.path)}`], summary: String(i.path) }),
  invoke: async () => ({ content: 'src/\ndocs/\nREADME.md' }),
};

describe('sub-agents through the session (emulator, real loop)', function () {
  this.timeout(60_000);
  const emulator = useEmulator();
  const tools = () => [readFileTool({ 'README.md': '# Demo\n' }), listTool];

  it('two explorers run in parallel: a card each with its model, task, steps, calls and tokens; the footer sums them', async () => {
    const t = agentSession({ emulator: emulator(), tools, subagents: { permission: 'read-only', maxParallel: 3 } });
    await t.s.load();
    t.s.setMode('agent');
    await t.sendUntilFinished('Explore the workspace with sub-agents');
    const answer = t.s.store.active.messages[1];
    const subs = answer.agent?.subagents ?? [];
    assert.equal(subs.length, 2);
    assert.deepEqual(
      subs.map((c) => c.task),
      [
        'Look around the folder "src" (read-only) and report what it holds.',
        'Look around the folder "docs" (read-only) and report what it holds.',
      ],
    );
    for (const c of subs) {
      assert.equal(c.status, 'done');
      assert.equal(c.model, 'claude-demo-agent');
      assert.equal(c.role, 'explore');
      assert.ok(c.steps >= 2, `steps ${c.steps}`);
      assert.ok(c.toolCalls >= 1);
      assert.ok(totalTokens(c.tokens) > 0);
      assert.match(c.result ?? '', /<subagent-report>/);
    }
    // Their calls are in their cards, not the answer's flow; the parent sent them in one message (parallel).
    const childCalls = answer.agent!.tools.filter((c) => c.subagent !== undefined);
    assert.ok(childCalls.length >= 2);
    assert.ok(childCalls.every((c) => c.textAt === undefined && c.id.startsWith(`${c.subagent}::`)));
    const parentTurn = answer.agent!.tokens!;
    assert.equal(
      totalTokens(answer.usage!),
      totalTokens(parentTurn) + subs.reduce((n, c) => n + totalTokens(c.tokens), 0),
    );
    // Live: the cards were posted while running and when done.
    const posts = t.of('agentSubagent');
    assert.ok(posts.some((p) => p.subagent.status === 'running'));
    assert.equal(posts.filter((p) => p.subagent.status === 'done').length, 2);
    // A child's request: its own system prompt and the task only.
    const child = t.sent.find((b) => JSON.stringify(b.system).includes('You are a sub-agent'));
    assert.ok(child);
    assert.equal(child.messages.length, 1);
    assert.ok(!child.tools?.some((x) => x.name === 'start_subagent'), 'depth 1');
  });

  it('a model the gateway refuses: the sub-agent stops with the reason, no other model is tried', async () => {
    const t = agentSession({
      emulator: emulator(),
      tools,
      subagents: { permission: 'read-only', maxParallel: 3, model: 'no-such-model-here' },
    });
    await t.s.load();
    t.s.setMode('agent');
    await t.sendUntilFinished('Explore the workspace with sub-agents');
    const subs = t.s.store.active.messages[1].agent?.subagents ?? [];
    assert.equal(subs.length, 2);
    for (const c of subs) {
      assert.equal(c.status, 'error');
      assert.equal(c.modelRefused, true);
      assert.equal(c.model, 'no-such-model-here');
    }
    const models = new Set(t.sent.map((b) => b.model));
    assert.deepEqual([...models].sort(), ['claude-demo-agent', 'no-such-model-here']);
    assert.equal(t.sent.filter((b) => b.model === 'no-such-model-here').length, 2, 'one request each, no retry');
  });

  it('mid-turn, a finished sub-agent is already in the stored history: a reload then shows it done, the other stopped', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    // The second explorer waits in its listing until released (its calls' ids are scoped to it); the first finishes.
    let first: string | undefined;
    const slowList: Tool = {
      ...listTool,
      invoke: async (input, ctx) => {
        const child = ctx.toolUseId.includes('::') ? ctx.toolUseId.split('::')[0] : undefined;
        if (child !== undefined && (first ??= child) !== child) await held;
        return listTool.invoke(input as never, ctx);
      },
    };
    const t = agentSession({
      emulator: emulator(),
      tools: () => [readFileTool({ 'README.md': '# Demo\n' }), slowList],
      subagents: { permission: 'read-only', maxParallel: 3 },
    });
    await t.s.load();
    t.s.setMode('agent');
    const before = t.of('streamFinished').length;
    assert.equal(t.s.send('Explore the workspace with sub-agents'), undefined);
    const stored = () => {
      const file = [...t.storage.files.values()].find((f) => f.includes('subagents'));
      return file === undefined ? undefined : parseConversation(file);
    };
    try {
      await waitUntil(
        () => stored()?.messages[1].agent?.subagents?.some((c) => c.status === 'done') === true,
        'the finished sub-agent to be stored mid-turn',
      );
      assert.equal(t.of('streamFinished').length, before, 'the turn still runs');
      const subs = stored()!.messages[1].agent!.subagents!;
      const done = subs.find((c) => c.status === 'done')!;
      assert.match(done.result ?? '', /<subagent-report>/);
      assert.ok(totalTokens(done.tokens) > 0);
      // As a reload reads it: the one still running shows as stopped.
      assert.deepEqual(subs.map((c) => c.status).sort(), ['done', 'stopped']);
    } finally {
      release();
      await waitUntil(() => t.of('streamFinished').length > before, 'the turn to end');
    }
  });

  it("a sub-agent's 429 wait is shown on its card (its requests go through the key's one client and its 429 handling)", async () => {
    const emu = emulator();
    let armed = false;
    // After a child's first call the gateway answers the key's next request with 429 (Retry-After: 1 s).
    const arming: Tool = {
      ...listTool,
      invoke: async (input, ctx) => {
        if (ctx.toolUseId.includes('::') && !armed) {
          armed = true;
          emu.setFaults('mg-agent-key-0008', { status: 429, count: 1, retryAfter: 1 });
        }
        return listTool.invoke(input as never, ctx);
      },
    };
    const t = agentSession({
      emulator: emu,
      tools: () => [readFileTool({ 'README.md': '# Demo\n' }), arming],
      subagents: { permission: 'read-only', maxParallel: 3 },
    });
    await t.s.load();
    t.s.setMode('agent');
    await t.sendUntilFinished('Explore the workspace with sub-agents');
    const waits = t.of('agentSubagent').filter((p) => p.subagent.waitUntil !== undefined);
    assert.equal(waits.length, 1, 'one child waited');
    assert.equal(waits[0].subagent.status, 'running');
    assert.ok(waits[0].subagent.waitUntil! > Date.now() - 60_000);
    const subs = t.s.store.active.messages[1].agent!.subagents!;
    assert.deepEqual(
      subs.map((c) => [c.status, c.waitUntil]),
      [
        ['done', undefined],
        ['done', undefined],
      ],
    );
    assert.equal(t.of('agentWait').length, 0, "the parent's own wait line is not used for a child's wait");
  });

  it('a reload shows finished sub-agents with their report and cost, an unfinished one as stopped', () => {
    const card = (id: string, status: AgentSubagentCard['status']): AgentSubagentCard => ({
      id,
      task: 'look',
      role: 'explore',
      model: 'm',
      status,
      steps: 2,
      toolCalls: 1,
      tokens: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
      cost: { amount: 0.01, source: 'billed', estimate: false },
      ...(status === 'done' ? { result: 'found it' } : {}),
    });
    const stored = serializeConversation({
      id: 'c1',
      title: 't',
      createdAt: 0,
      updatedAt: 0,
      settings: {},
      messages: [
        { id: 'u1', role: 'user', text: 'go', status: 'complete', createdAt: 0 },
        {
          id: 'a1',
          role: 'assistant',
          text: '',
          status: 'streaming',
          createdAt: 0,
          agent: {
            turnId: 'turn-a1',
            tools: [{ id: 's2::r1', step: 1, name: 'read_file', summary: 'a', status: 'running', subagent: 's2' }],
            steps: [],
            subagents: [card('s1', 'done'), card('s2', 'running')],
          },
        },
      ],
    } as never);
    const back = parseConversation(stored)!;
    const info = back.messages[1].agent!;
    assert.equal(info.subagents![0].status, 'done');
    assert.equal(info.subagents![0].result, 'found it');
    assert.equal(info.subagents![0].cost?.amount, 0.01);
    assert.equal(info.subagents![1].status, 'stopped');
    assert.match(info.subagents![1].message ?? '', /window was closed/);
    assert.equal(info.tools[0].subagent, 's2');
    assert.equal(info.tools[0].status, 'refused');
  });
});
