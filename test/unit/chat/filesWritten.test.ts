// Issue 23, path 1: a turn rewrote package.json's test script (an auto-approved write) and the next turn of the
// same conversation ran the allow-listed `npm test` unasked. Writes now arm commands for the whole conversation,
// across turns and across a reload; a checkpoint restore arms them too; another conversation is not affected.
import { strict as assert } from 'node:assert';
import type { Tool } from '../../../src/agent';
import { filesWrittenIn } from '../../../src/chat/agent/filesWritten';
import { turnChangedNothing } from '../../../src/chat/agent/turnChanges';
import type { ChatMessage } from '../../../src/shared/protocol/chat';
import { useEmulator } from '../emulator/helpers';
import { agentSession } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';

function tools(files: Map<string, string>, ran: string[]): () => Tool[] {
  const write: Tool = {
    name: 'write_file',
    description: 'Write a file.',
    approvalClass: 'write',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
    target: (i) => ({ paths: [`/ws/${String(i.path)}`] }),
    invoke: async (i) => {
      files.set(String(i.path), String(i.content));
      return { content: `wrote ${String(i.path)}` };
    },
  };
  const run: Tool = {
    name: 'run_command',
    description: 'Run a command.',
    approvalClass: 'command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    target: (i) => ({ command: String(i.command), paths: ['/ws'], cwd: '/ws' }),
    invoke: async (i) => {
      ran.push(String(i.command));
      return { content: 'exit 0' };
    },
  };
  return () => [write, run];
}

describe('writes arm allow-listed commands for the whole conversation', function () {
  this.timeout(30_000);
  const emulator = useEmulator();
  const policy = { autoApproveWrites: true, commandAllowList: ['npm test'] };

  it('a write in one turn makes `npm test` ask in the next turns, also after a reload; a new conversation is not armed', async () => {
    const files = new Map<string, string>();
    const ran: string[] = [];
    const t = agentSession({ emulator: emulator(), tools: tools(files, ran), policy });
    await t.s.load();
    t.s.setMode('agent');
    await t.sendUntilFinished('@run "npm test"');
    assert.deepEqual(ran, ['npm test'], 'allow-listed and nothing written yet: it runs unasked');

    await t.sendUntilFinished(
      '@tool write_file {"path":"package.json","content":"{\\"scripts\\":{\\"test\\":\\"evil\\"}}"}',
    );
    assert.ok(files.has('package.json'), 'the write was auto-approved');

    const asked = (of: typeof t.of) => of('agentTool').filter((m) => m.tool.status === 'asking').length;
    const before = asked(t.of);
    assert.equal(t.s.send('@run "npm test"'), undefined);
    await waitUntil(() => asked(t.of) > before, 'the approval prompt of the second npm test');
    const card = t
      .of('agentTool')
      .filter((m) => m.tool.status === 'asking')
      .at(-1)!.tool;
    assert.match(card.ask!.reason, /written in this conversation/);
    assert.deepEqual(ran, ['npm test'], 'the second npm test did not run unasked');
    t.agent.answer(card.id, false);
    await waitUntil(() => t.of('streamFinished').length === 3, 'the third answer to finish');

    // Reload: a new session on the same stored history and state.
    const ranAfter: string[] = [];
    const r = agentSession({
      emulator: emulator(),
      tools: tools(files, ranAfter),
      policy,
      state: t.state,
      storage: t.storage,
    });
    await r.s.load();
    assert.equal(r.s.send('@run "npm test"'), undefined);
    await waitUntil(() => r.of('agentTool').some((m) => m.tool.status === 'asking'), 'the prompt after the reload');
    assert.deepEqual(ranAfter, []);
    r.agent.answer(r.of('agentTool').find((m) => m.tool.status === 'asking')!.tool.id, false);
    await waitUntil(() => r.of('streamFinished').length === 1, 'finish after reload');

    r.s.newConversation();
    r.s.setMode('agent');
    await r.sendUntilFinished('@run "npm test"');
    assert.deepEqual(ranAfter, ['npm test'], 'another conversation is not armed');
  });

  it('editing away the answer that wrote does not disarm the conversation', async () => {
    const files = new Map<string, string>();
    const ran: string[] = [];
    const t = agentSession({ emulator: emulator(), tools: tools(files, ran), policy });
    await t.s.load();
    t.s.setMode('agent');
    await t.sendUntilFinished('@tool write_file {"path":"package.json","content":"{}"}');
    assert.ok(files.has('package.json'));
    const question = t.s.store.active.messages[0];
    assert.equal(t.s.editAndResend(question.id, '@run "npm test"'), undefined);
    await waitUntil(() => t.of('agentTool').some((m) => m.tool.status === 'asking'), 'the prompt after the edit');
    assert.equal(t.s.store.active.messages.length, 2, 'the answer that wrote is gone from the history');
    assert.deepEqual(ran, []);
    t.agent.answer(t.of('agentTool').find((m) => m.tool.status === 'asking')!.tool.id, false);
    await waitUntil(() => t.of('streamFinished').length === 2, 'finish');
  });

  it('reads the record: applied or pending writes and restores arm, refused ones and reads do not', () => {
    const classes: Record<string, 'read' | 'write' | 'command'> = {
      read_file: 'read',
      write_file: 'write',
      run_command: 'command',
    };
    const answer = (tools: Array<{ name: string; status: 'done' | 'refused' | 'error' }>, restored?: boolean) =>
      ({
        id: 'a',
        role: 'assistant',
        text: '',
        status: 'complete',
        createdAt: 0,
        agent: {
          turnId: 't',
          steps: [],
          tools: tools.map((x, i) => ({ id: `t${i}`, step: 1, summary: '', ...x })),
          ...(restored ? { restored } : {}),
        },
      }) as ChatMessage;
    const armed = (m: ChatMessage) => filesWrittenIn([m], (n) => classes[n]);
    assert.equal(armed(answer([{ name: 'read_file', status: 'done' }])), false);
    assert.equal(armed(answer([{ name: 'run_command', status: 'done' }])), false);
    assert.equal(armed(answer([{ name: 'write_file', status: 'refused' }])), false);
    assert.equal(armed(answer([{ name: 'write_file', status: 'done' }])), true);
    assert.equal(
      armed(answer([{ name: 'write_file', status: 'error' }])),
      true,
      'a failed write may have written part',
    );
    assert.equal(armed(answer([{ name: 'mcp_write', status: 'done' }])), true, 'an unknown tool may write');
    assert.equal(armed(answer([], true)), true, 'a checkpoint restore wrote files');
  });
});

// Issue 35 item 8: "Restore to before this turn" only after a turn that may have changed something.
describe('a turn that changed nothing offers no Restore', () => {
  const turn = (tools: Array<{ name: string; status: string }>): ChatMessage =>
    ({
      id: 'a',
      role: 'assistant',
      text: '',
      status: 'complete',
      createdAt: 0,
      agent: { turnId: 't', steps: [], tools: tools.map((t, i) => ({ id: `c${i}`, step: 1, summary: '', ...t })) },
    }) as ChatMessage;
  const classOf = (name: string) =>
    (({ read_file: 'read', write_file: 'write', run_command: 'command' }) as const)[name as 'read_file'];

  it('reads only, or refused calls: unchanged; a write or a command that ran, or an unknown tool: may have changed', () => {
    assert.equal(turnChangedNothing(turn([]), classOf), true);
    assert.equal(turnChangedNothing(turn([{ name: 'read_file', status: 'done' }]), classOf), true);
    assert.equal(turnChangedNothing(turn([{ name: 'write_file', status: 'refused' }]), classOf), true);
    assert.equal(turnChangedNothing(turn([{ name: 'write_file', status: 'done' }]), classOf), false);
    assert.equal(turnChangedNothing(turn([{ name: 'run_command', status: 'error' }]), classOf), false);
    assert.equal(turnChangedNothing(turn([{ name: 'mcp_tool', status: 'done' }]), classOf), false);
  });
});
