// Condensing: past the threshold, older turns are summarised by the model in one request before the turn's first
// step; the answer carries the summary card with its cost; later requests send the summary instead of those turns
// (the history keeps them); the current question and the last two turns are never condensed.
import { strict as assert } from 'node:assert';
import {
  CONDENSE_PROMPT,
  condensedHistory,
  condenseRequest,
  summaryMessages,
} from '../../../src/chat/condense/condense';
import { planCondense, type CondenseThreshold } from '../../../src/chat/condense/condenser';
import type { ChatMessage } from '../../../src/shared/protocol/chat';
import { useEmulator } from '../emulator/helpers';
import { agentSession, readFileTool } from './chatSessionFixture';

const m = (id: string, role: ChatMessage['role'], text = id): ChatMessage => ({
  id,
  role,
  text,
  status: 'complete',
  createdAt: 0,
});

/** A threshold every request passes (estimate 1,000 of a 100-token window), and one none passes. */
const over: CondenseThreshold = { estimate: () => 1_000, inputWindow: 100, threshold: 0.8 };
const under: CondenseThreshold = { estimate: () => 10, inputWindow: 100, threshold: 0.8 };
const condensePoint = (h: ChatMessage[]): string | undefined => planCondense(h, over).cut?.through;

describe('condensing', function () {
  this.timeout(60_000);
  const emulator = useEmulator();

  it('plans both ways with one planner: before an answer past the threshold (the current question and two turns kept), the Condense action always (two turns kept)', () => {
    const turns = (n: number): ChatMessage[] =>
      Array.from({ length: n }, (_, i) => [m(`q${i + 1}`, 'user'), m(`a${i + 1}`, 'assistant')]).flat();
    // Before an answer: the history ends with the question being answered.
    const asking = [...turns(3), m('q4', 'user')];
    assert.deepEqual(planCondense(asking, under), { whole: asking }, 'under the threshold: no cut');
    const auto = planCondense(asking, over).cut!;
    assert.equal(auto.through, 'a1');
    assert.equal(auto.count, 2);
    assert.equal(planCondense(asking.slice(0, 5), over).cut, undefined, 'two earlier turns: nothing to condense');
    // The Condense action: no question pending; the last two turns stay whole, whatever the estimate.
    const idle = turns(3);
    const manual = planCondense(idle).cut!;
    assert.equal(manual.through, 'a1');
    assert.deepEqual(planCondense(idle).whole, idle);
    assert.equal(planCondense(turns(2)).cut, undefined, 'two turns: nothing to condense');
    // After a summary, only the turns it does not cover count (the summary's answer is one of them).
    const summarised = turns(5);
    summarised[5] = {
      ...summarised[5],
      condensed: { through: 'a2', summary: 'S', tokens: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
    };
    const after = planCondense(summarised);
    assert.equal(after.cut?.through, 'a3');
    assert.equal(after.cut?.count, 2, 'q3 and a3, after the summary');
    assert.match(after.whole[1].text, /^Summary of the earlier conversation/);
    assert.equal(planCondense([...summarised, m('q6', 'user')], over).cut?.through, 'a3');
  });

  it('condenses all but the current question and the last two turns; a later summary replaces the turns it covers', () => {
    const h = [m('q1', 'user'), m('a1', 'assistant'), m('q2', 'user'), m('a2', 'assistant'), m('q3', 'user')];
    assert.equal(condensePoint(h), undefined, 'two earlier turns: nothing to condense');
    const h4 = [...h.slice(0, 4), m('q3', 'user'), m('a3', 'assistant'), m('q4', 'user')];
    assert.equal(condensePoint(h4), 'a1');
    const a3 = {
      ...h4[5],
      agent: {
        turnId: 't3',
        tools: [],
        steps: [],
        condensed: { through: 'a1', summary: 'S', tokens: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } },
      },
    };
    const c = condensedHistory([...h4.slice(0, 5), a3, h4[6]]);
    assert.equal(c.summary, 'S');
    assert.deepEqual(
      c.rest.map((x) => x.id),
      ['q2', 'a2', 'q3', 'a3', 'q4'],
    );
    // The model wrote the summary: it is the assistant's words in the request, never the user's.
    const [ask, said] = summaryMessages('S');
    assert.equal(ask.role, 'user');
    assert.doesNotMatch(ask.text, /S$|Summary/);
    assert.equal(said.role, 'assistant');
    assert.match(said.text, /^Summary of the earlier conversation \(condensed; written by the assistant, not the user/);
    const body = condenseRequest('m', [{ role: 'user', content: 'line one\n@tool x {}' }], 'old summary');
    assert.equal(body.system, CONDENSE_PROMPT);
    assert.match(String(body.messages[0].content), /^Earlier summary:\nold summary/);
    assert.match(String(body.messages[0].content), /User: line one\n\| @tool x \{\}/, 'continuation lines quoted');
  });

  it('past the threshold: one condensing request, a summary card with its cost, later requests smaller and without the old turns', async () => {
    const big = 'export const value = 1; // padding of a large source file\n'.repeat(160);
    const t = agentSession({
      emulator: emulator(),
      tools: () => [readFileTool({ 'big.ts': big })],
      contextWindow: 3_000,
      condenseThreshold: 0.3,
    });
    await t.s.load();
    t.s.setMode('agent');
    for (let i = 1; i <= 5; i++) await t.sendUntilFinished(`Question ${i}\n@tool read_file {"path":"big.ts"}`);
    const condensing = t.sent.filter((b) => b.system === CONDENSE_PROMPT);
    assert.ok(condensing.length >= 1, 'condensed at least once');
    const answers = t.s.store.active.messages.filter((x) => x.role === 'assistant');
    const first = answers.findIndex((a) => a.agent?.condensed);
    assert.ok(first >= 2, `the first condensed turn: ${first}`);
    const card = answers[first].agent!.condensed!;
    assert.ok(card.tokens.input > 0 && card.tokens.output > 0, 'its cost');
    assert.equal(card.through, t.s.store.active.messages[first * 2 - 5].id, 'all but the last two turns');
    // Each crossing condenses once: the turns that condensed are the condensing requests, one each.
    assert.equal(condensing.length, answers.filter((a) => a.agent?.condensed).length);
    const last = t.sent[t.sent.length - 1];
    assert.match(
      JSON.stringify(last.messages[1]),
      /^\{"role":"assistant","content":"Summary of the earlier conversation/,
    );
    const rest = JSON.stringify(last.messages.slice(2));
    assert.doesNotMatch(rest, /Question 1\\n/, 'the first question is only in the summary');
    assert.match(rest, /Question 5/);
    assert.equal(t.s.store.active.messages.length, 10, 'the history keeps every turn');
  });

  it('the Condense action in Ask mode: says so while there is nothing to condense, then one request, its card on the last answer, later Ask requests send the summary', async () => {
    const t = agentSession({ emulator: emulator(), tools: () => [], askThroughGateway: true });
    await t.s.load();
    await t.sendUntilFinished('Question 1 about the parser');
    await t.sendUntilFinished('Question 2');
    const before = t.sent.length;
    assert.match((await t.s.condense()) ?? '', /^Nothing to condense yet: the last 2 questions/);
    assert.equal(t.sent.length, before, 'no request when nothing can be condensed');
    await t.sendUntilFinished('Question 3');
    assert.equal(await t.s.condense(), undefined);
    const condensing = t.sent.slice(before + 1);
    assert.equal(condensing.length, 1, 'one request');
    assert.equal(condensing[0].system, CONDENSE_PROMPT);
    assert.match(JSON.stringify(condensing[0].messages), /Question 1 about the parser/);
    assert.doesNotMatch(JSON.stringify(condensing[0].messages), /Question 2/, 'the last two turns stay whole');
    const messages = t.s.store.active.messages;
    const card = messages[messages.length - 1].condensed;
    assert.ok(card && card.tokens.input > 0 && card.tokens.output > 0, 'the card on the last answer, with its tokens');
    assert.equal(card.through, messages[1].id, 'through the first answer');
    const posted = t.of('agentCondensed');
    assert.equal(posted.length, 1);
    assert.equal(posted[0].messageId, messages[messages.length - 1].id);
    // The view is told while it runs (a line on the answer), and when it ended.
    assert.deepEqual(
      t.of('condensing').map((m) => [m.messageId, m.running]),
      [
        [posted[0].messageId, true],
        [posted[0].messageId, false],
      ],
    );
    assert.equal(t.s.busy, false);

    await t.sendUntilFinished('Question 4');
    const next = t.sent[t.sent.length - 1];
    assert.match(JSON.stringify(next.messages[1]), /Summary of the earlier conversation/);
    assert.doesNotMatch(JSON.stringify(next.messages.slice(2)), /Question 1 about the parser/, 'only in the summary');
    assert.match(JSON.stringify(next.messages), /Question 2/);
    assert.equal(t.s.store.active.messages.length, 8, 'the history keeps every turn');
  });

  it('Stop ends the Condense action with nothing changed', async () => {
    const t = agentSession({ emulator: emulator(), tools: () => [], askThroughGateway: true });
    await t.s.load();
    for (let i = 1; i <= 3; i++) await t.sendUntilFinished(`Question ${i}`);
    const running = t.s.condense();
    assert.equal(t.s.busy, true, 'visible as a running request (Stop is offered)');
    t.s.stop();
    assert.equal(await running, undefined);
    assert.equal(t.s.busy, false);
    assert.ok(
      t.s.store.active.messages.every((x) => !x.condensed && !x.agent?.condensed),
      'no summary kept',
    );
    assert.equal(t.of('agentCondensed').length, 0);
  });

  it('an Ask answer past the threshold condenses the older turns first, once, and sends the summary', async () => {
    const t = agentSession({
      emulator: emulator(),
      tools: () => [],
      askThroughGateway: true,
      contextWindow: 2_000,
      condenseThreshold: 0.3,
    });
    await t.s.load();
    const long = 'a long question with a pasted log line\n'.repeat(12);
    for (let i = 1; i <= 4; i++) await t.sendUntilFinished(`Question ${i}: ${long}`);
    const condensing = t.sent.filter((b) => b.system === CONDENSE_PROMPT);
    assert.ok(condensing.length >= 1, 'condensed');
    const answers = t.s.store.active.messages.filter((x) => x.role === 'assistant');
    assert.equal(condensing.length, answers.filter((a) => a.condensed).length, 'one condensing request per crossing');
    const last = t.sent[t.sent.length - 1];
    assert.notEqual(last.system, CONDENSE_PROMPT);
    assert.match(JSON.stringify(last.messages[1]), /Summary of the earlier conversation/);
  });

  it('the Condense action in an Agent conversation summarises the turns with their tool calls; the next turn sends the summary', async () => {
    const t = agentSession({
      emulator: emulator(),
      tools: () => [readFileTool({ 'a.ts': 'export const a = 1;\n' })],
      askThroughGateway: true, // the Condense action's client is the chat's
    });
    await t.s.load();
    t.s.setMode('agent');
    for (let i = 1; i <= 3; i++) await t.sendUntilFinished(`Task ${i}\n@tool read_file {"path":"a.ts"}`);
    const before = t.sent.length;
    assert.equal(await t.s.condense(), undefined);
    const condensing = t.sent.slice(before);
    assert.equal(condensing.length, 1);
    assert.match(
      String(condensing[0].messages[0].content),
      /User: Task 1[\s\S]*Agent called read_file \{"path":"a\.ts"\}/,
    );
    const answers = t.s.store.active.messages.filter((x) => x.role === 'assistant');
    const card = answers[answers.length - 1].agent?.condensed;
    assert.ok(card && card.tokens.output > 0, "the card in the last agent answer's section");
    assert.equal(card.through, answers[0].id);
    await t.sendUntilFinished('Task 4\n@tool read_file {"path":"a.ts"}');
    const next = t.sent[t.sent.length - 2]; // the turn's first request (its second is the final answer's)
    assert.match(JSON.stringify(next.messages[1]), /Summary of the earlier conversation/);
    assert.doesNotMatch(JSON.stringify(next.messages.slice(2)), /Task 1\\n/);
    assert.match(JSON.stringify(next.messages.slice(2)), /Task 2/);
  });
});
