// Continue after a budget stop (issue 35 item 1): the daily budget stops the agent before its next request; Continue
// goes on from there (the earlier steps' calls and results are sent again, step 1 is not repeated), past the daily
// budget for that turn only, one billable request per step (the emulator counts them).
import { strict as assert } from 'node:assert';
import { agentSession, readFileTool } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';
import { useEmulator } from '../emulator/helpers';

describe('Agent: Continue after a budget stop (emulator, real loop)', function () {
  this.timeout(30_000);
  const emulator = useEmulator();

  it('the daily budget stop continues from step 2 (not Retry of step 1), one request per step, then holds again', async () => {
    const checked: number[] = [];
    const t = agentSession({
      emulator: emulator(),
      tools: () => [readFileTool({ 'a.ts': 'export const a = 1;\n' })],
      // Today's budget is used up: every request after a turn's first would pass it.
      wouldPassDailyBudget: async (tokens) => (checked.push(tokens), true),
    });
    await t.s.load();
    t.s.setMode('agent');
    t.s.send('Read it three times.\n@steps 3\n@tool read_file {"path":"a.ts"}');
    await waitUntil(() => t.of('streamFinished').length === 1, 'the first turn to stop');
    const first = t.s.store.active.messages[1];
    assert.equal(first.agent!.end!.reason, 'daily_budget');
    assert.equal(emulator().billableCount('messages'), 1, 'stopped before the second request');

    assert.equal(t.s.continueAnswer(first.id), undefined, 'a budget stop can be continued');
    await waitUntil(() => t.of('streamFinished').length === 2, 'the continued turn to finish');
    const messages = t.s.store.active.messages;
    assert.equal(messages.length, 4);
    assert.equal(messages[2].role, 'user');
    assert.equal(messages[2].text, 'Continue');
    const second = messages[3];
    assert.equal(second.agent!.continued, true);
    assert.equal(second.agent!.end!.reason, 'end_turn', 'not held by the daily budget again');
    // Steps 2 and 3 and the final answer: three requests; step 1 was not sent again.
    assert.equal(emulator().billableCount('messages'), 4);
    assert.equal(second.agent!.tools.length, 2, 'two more reads: the agent went on where it stopped');
    const resumed = t.sent[1];
    const blocks = resumed.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    assert.equal(blocks.filter((b) => b.type === 'tool_use').length, 1, "step 1's call is sent with its result");
    assert.equal(blocks.filter((b) => b.type === 'tool_result').length, 1);

    // A new question is held by the daily budget again (the override was for that turn only).
    const before = checked.length;
    t.s.send('Again.\n@steps 2\n@tool read_file {"path":"a.ts"}');
    await waitUntil(() => t.of('streamFinished').length === 3, 'the third turn');
    assert.equal(t.s.store.active.messages[5].agent!.end!.reason, 'daily_budget');
    assert.ok(checked.length > before);
  });

  it('a finished turn is not continued (Retry or a new message is the way)', async () => {
    const t = agentSession({ emulator: emulator(), tools: () => [readFileTool({ 'a.ts': 'x' })] });
    await t.s.load();
    t.s.setMode('agent');
    t.s.send('@tool read_file {"path":"a.ts"}');
    await waitUntil(() => t.of('streamFinished').length === 1, 'finish');
    assert.match(t.s.continueAnswer(t.s.store.active.messages[1].id) ?? '', /not continued/);
  });
});
