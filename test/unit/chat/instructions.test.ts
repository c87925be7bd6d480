// Project instructions through the session: read before each answer, sent in Ask, Agent and Plan as part of the
// system prompt, shown with the answer ("Using AGENTS.md" with the notes), and honoured by the emulated model.
import { strict as assert } from 'node:assert';
import { buildInstructions } from '../../../src/agent';
import { parseConversation, serializeConversation } from '../../../src/chat/store/history';
import { useEmulator } from '../emulator/helpers';
import { agentSession, readFileTool } from './chatSessionFixture';

describe('project instructions through the session (emulator)', function () {
  this.timeout(30_000);
  const emulator = useEmulator();

  it('Ask, Agent and Plan send AGENTS.md in the system prompt, the answer lists it with its note, and the model follows it', async () => {
    let reads = 0;
    const t = agentSession({
      emulator: emulator(),
      tools: () => [readFileTool({ 'a.ts': 'x' })],
      askThroughGateway: true,
      instructions: async () => {
        reads++;
        return buildInstructions(
          [
            {
              path: '/ws/AGENTS.md',
              name: 'AGENTS.md',
              text: `Always start your answers with "Per AGENTS.md:".\n${'x'.repeat(9000)}`,
            },
          ],
          '',
        );
      },
    });
    await t.s.load();
    await t.sendUntilFinished('hello');
    t.s.setMode('agent');
    await t.sendUntilFinished('@tool read_file {"path":"a.ts"}');
    t.s.setMode('plan');
    await t.sendUntilFinished('@steps 0');
    assert.equal(reads, 3, 'read again before each answer');
    const answers = t.s.store.active.messages.filter((m) => m.role === 'assistant');
    assert.equal(answers.length, 3);
    for (const a of answers) {
      assert.match(a.text, /^Per AGENTS\.md:/m, `the emulated model followed the file: ${a.text.slice(0, 200)}`);
      assert.deepEqual(
        a.instructions?.files.map((f) => [f.name, f.path, f.truncated]),
        [['AGENTS.md', '/ws/AGENTS.md', true]],
      );
      assert.match(a.instructions?.notes?.[0] ?? '', /AGENTS\.md was shortened to 8 KB/);
    }
    assert.equal(t.sent.length, 4, 'Ask, two agent steps, Plan');
    for (const body of t.sent) assert.match(JSON.stringify(body.system), /project-instructions file=\\"AGENTS.md\\"/);
    assert.equal(t.s.instructionFile(answers[0].id, 0), '/ws/AGENTS.md');
    assert.equal(t.s.instructionFile(answers[0].id, 1), undefined);
    const back = parseConversation(serializeConversation(t.s.store.active));
    assert.deepEqual(back?.messages[1].instructions, answers[0].instructions, 'kept with the history');
  });

  it('no instruction files and no setting: nothing is shown and the system prompt is unchanged', async () => {
    const t = agentSession({
      emulator: emulator(),
      tools: () => [],
      askThroughGateway: true,
      instructions: async () => buildInstructions([], ''),
    });
    await t.s.load();
    await t.sendUntilFinished('hello');
    assert.equal(t.s.store.active.messages[1].instructions, undefined);
    assert.equal(t.sent[0].system, undefined);
  });
});
