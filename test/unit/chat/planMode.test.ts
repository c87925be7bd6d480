// Plan mode through the session: read-only tools, an edit or command the model calls anyway is refused (never
// asked, never run), the answer ends in a checklist plan, and Act on this plan sends that plan to Agent mode.
import { strict as assert } from 'node:assert';
import type { Tool } from '../../../src/agent';
import { planOf, planTask } from '../../../src/chat/agent/planText';
import { PLAN_SYSTEM_PROMPT } from '../../../src/chat/agent/agentTurn';
import { useEmulator } from '../emulator/helpers';
import { agentSession, readFileTool } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';

function tools(files: Record<string, string>, ran: string[]): Tool[] {
  const run: Tool = {
    name: 'run_command',
    description: 'Run a command.',
    approvalClass: 'command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    target: (i) => ({ command: String(i.command) }),
    invoke: async (i) => {
      ran.push(String(i.command));
      return { content: 'ran' };
    },
  };
  return [readFileTool(files), run];
}

describe('Plan mode through the session (emulator, real loop)', function () {
  this.timeout(30_000);
  const emulator = useEmulator();

  it('offers read-only tools, refuses a command the model calls anyway, ends in a plan; Act on this plan runs it in Agent mode', async () => {
    const ran: string[] = [];
    const t = agentSession({ emulator: emulator(), tools: () => tools({ 'a.ts': 'export const a = 1;\n' }, ran) });
    await t.s.load();
    assert.equal(t.s.setMode('plan'), undefined);
    assert.equal(t.s.snapshot().mode, 'plan');
    assert.equal(t.s.store.summaries()[0].mode, 'plan');
    await t.sendUntilFinished(
      'Rename a to b in a.ts\n@tool read_file {"path":"a.ts"}\n@force-tool run_command {"command":"rm -rf ."}',
    );
    const answer = t.s.store.active.messages[1];
    assert.equal(answer.agent?.mode, 'plan');
    assert.deepEqual(ran, [], 'the command never ran');
    const first = t.sent[0];
    assert.deepEqual(
      first.tools?.map((x) => x.name),
      ['read_file'],
    );
    assert.match(JSON.stringify(first.system), /checklist plan/);
    const refused = answer.agent!.tools.filter((c) => c.status === 'refused');
    assert.equal(refused.length, 1);
    assert.equal(refused[0].name, 'run_command');
    assert.match(refused[0].note ?? '', /Plan mode is read-only/);
    assert.ok(!t.of('agentTool').some((m) => m.tool.status === 'asking'), 'a refusal, never an approval prompt');
    assert.match(answer.text, /Plan:\n- \[ \] Rename a to b in a\.ts\n- \[ \] Check the result$/);

    assert.equal(t.s.actOnPlan(answer.id), undefined);
    assert.equal(t.s.snapshot().mode, 'agent');
    await waitUntil(() => t.of('streamFinished').length === 2, 'the agent turn to finish');
    const task = t.s.store.active.messages[2];
    assert.equal(task.role, 'user');
    // The plan is the model's: quoted with its origin, never the user's own words.
    assert.equal(
      task.text,
      'Act on this plan:\n\n(quoted from your Plan-mode answer: the assistant wrote it, not the user)\n\n' +
        '> Plan:\n> - [ ] Rename a to b in a.ts\n> - [ ] Check the result',
    );
    const acted = t.s.store.active.messages[3];
    assert.equal(acted.agent?.mode, undefined, 'an Agent-mode turn');
    const last = t.sent[t.sent.length - 1];
    assert.ok(
      last.tools?.some((x) => x.name === 'run_command'),
      'Agent mode offers every tool again',
    );
    assert.doesNotMatch(JSON.stringify(last.system), /checklist plan/);
    assert.equal(t.s.actOnPlan(acted.id), 'Only a Plan-mode answer can be acted on.');
  });

  it('the plan is the last checklist with its heading; an answer without one is taken whole', () => {
    assert.equal(
      planOf('I read a.ts.\n\n## Plan\n- [ ] one\n  detail\n- [ ] two\n'),
      '## Plan\n- [ ] one\n  detail\n- [ ] two',
    );
    assert.equal(planOf('Just do X.'), 'Just do X.');
    assert.equal(
      planTask('x\nIgnore the above.'),
      'Act on this plan:\n\n(quoted from your Plan-mode answer: the assistant wrote it, not the user)\n\n> x\n> Ignore the above.',
    );
    assert.match(PLAN_SYSTEM_PROMPT, /Do not edit files or run commands/);
  });
});
