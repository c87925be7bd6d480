// Clearing older tool results inside a turn (clearResults.ts): the newest results are always whole, older large ones
// keep their head and a marker that says how to get them back, each is cleared once (the cached prefix stays the
// same from step to step), and the loop sends exactly that (read from the request bodies the server got).
import * as assert from 'node:assert/strict';
import { runAgentTurn } from '../../../src/agent';
import { estimateMessages } from '../../../src/agent/fit';
import {
  CLEAR_AT_LEAST_CHARS,
  CLEAR_MIN_CHARS,
  CLEAR_TRIGGER_TOKENS,
  CLEARED_HEAD_CHARS,
  clearOldResults,
  KEEP_WHOLE_CHARS,
} from '../../../src/agent/clearResults';
import { contextWindowOf } from '../../../src/agent/contextWindow';
import type { MessageParam } from '../../../src/gateway/types';
import { fakeWorkspace, WS } from './fakeTools';
import { lastToolResults, scriptedGatewayPerTest, text, toolUse } from './scriptedGateway';

function step(id: string, result: string, tool = 'read_file'): MessageParam[] {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name: tool, input: { path: id } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] },
  ];
}

const resultOf = (messages: readonly MessageParam[], i: number): string =>
  String((messages[i].content as Array<{ content: string }>)[0].content);

describe('agent: clearing older tool results', () => {
  const big = 'x'.repeat(20_000);

  it('keeps the newest step whole whatever its size, clears older large results once with a way back', () => {
    const huge = 'h'.repeat(200_000);
    const messages: MessageParam[] = [
      { role: 'user', content: 'task' },
      ...step('a', big, 'search_files'),
      ...step('b', 'small result'),
      ...step('c', big),
      ...step('d', huge),
    ];
    const out = clearOldResults(messages);
    assert.equal(resultOf(out.messages, 8), huge, 'the newest result is whole');
    // c + d pass KEEP_WHOLE_CHARS together: c is cleared; b is small and never cleared.
    assert.ok(20_000 + 200_000 > KEEP_WHOLE_CHARS);
    const c = resultOf(out.messages, 6);
    assert.ok(c.startsWith(big.slice(0, CLEARED_HEAD_CHARS)));
    assert.match(
      c,
      /\[… 19600 more characters of this earlier result were cleared .*call read_file again \(same input\)/,
    );
    assert.match(
      resultOf(out.messages, 2),
      /call search_files again/,
      'the marker names the tool that made the result',
    );
    assert.equal(resultOf(out.messages, 4), 'small result');
    assert.equal(out.results, 2);
    assert.equal(resultOf(messages, 6), big, "the caller's messages are not mutated");
    // Applied again (the next step): nothing changes, the cleared bytes stay the same (the cached prefix holds).
    const again = clearOldResults(out.messages);
    assert.equal(again.messages, out.messages);
    assert.equal(again.results, 0);
  });

  it('keeps the two newest steps whole while they are small together; results at or below the floor stay whole', () => {
    const medium = 'm'.repeat(10_000);
    const floor = 'f'.repeat(CLEAR_MIN_CHARS);
    const messages: MessageParam[] = [
      { role: 'user', content: 'task' },
      ...step('a', floor),
      ...step('b', medium),
      ...step('c', medium),
      ...step('d', medium),
      ...step('e', medium),
    ];
    // A request below the trigger keeps everything: a short task loses nothing.
    assert.ok(estimateMessages(messages) < CLEAR_TRIGGER_TOKENS);
    assert.equal(clearOldResults(messages).messages, messages);
    // Past it (a larger system prompt and tools), the older results over the floor go together, in one step.
    const out = clearOldResults(messages, CLEAR_TRIGGER_TOKENS);
    assert.equal(resultOf(out.messages, 10), medium);
    assert.equal(resultOf(out.messages, 8), medium, 'the step before the newest is whole: 20,000 characters together');
    assert.match(resultOf(out.messages, 6), /were cleared/);
    assert.match(resultOf(out.messages, 4), /were cleared/);
    assert.equal(resultOf(out.messages, 2), floor);
    assert.equal(out.results, 2);
  });

  it('waits until at least CLEAR_AT_LEAST_CHARS can go, so the cached prefix is not rewritten for a little', () => {
    const medium = 'm'.repeat(CLEAR_AT_LEAST_CHARS / 2);
    const messages: MessageParam[] = [
      { role: 'user', content: 'task' },
      ...step('a', medium),
      ...step('b', medium),
      ...step('c', medium),
    ];
    // One older result over the floor: less than CLEAR_AT_LEAST_CHARS would go.
    assert.equal(clearOldResults(messages, CLEAR_TRIGGER_TOKENS).results, 0);
    const more = [...messages, ...step('d', medium)];
    assert.equal(clearOldResults(more, CLEAR_TRIGGER_TOKENS).results, 2, 'two together: cleared at once');
  });

  describe('in the loop', () => {
    const startGateway = scriptedGatewayPerTest();

    it('each request carries its newest read whole; an earlier read, once cleared, is sent with the same bytes', async () => {
      const file = 'export const line = 1; // padded to a long line of source\n'.repeat(400); // ~23 KB
      const gw = await startGateway((_req, n) =>
        n <= 5
          ? { kind: 'message', blocks: [toolUse(`t${n}`, 'read_file', { path: `f${n}.ts` })] }
          : { kind: 'message', blocks: [text('done')] },
      );
      const files = Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`/ws/f${n}.ts`, file]));
      const result = await runAgentTurn({
        client: gw.client,
        model: 'm',
        maxTokens: 1000,
        tools: fakeWorkspace(files).tools,
        policy: { workspaceFolders: [WS] },
        messages: [{ role: 'user', content: 'read five files' }],
        approve: async () => ({ approved: true }),
      });
      assert.equal(result.reason, 'end_turn');
      assert.equal(gw.bodies.length, 6);
      for (const body of gw.bodies.slice(1)) {
        const newest = String(lastToolResults(body)[0].content);
        assert.ok(newest.length > 20_000 && !/were cleared/.test(newest), 'the newest result is whole');
      }
      // The first read (message 2) was cleared when the third request was built, and never changed afterwards.
      const first = gw.bodies.slice(2).map((b) => JSON.stringify(b.messages[2]));
      assert.match(first[0], /call read_file again/);
      assert.ok(
        first.every((m) => m === first[0]),
        'a cleared result keeps its bytes: the cached prefix holds',
      );
      const lastBody = JSON.stringify(gw.bodies[5]);
      assert.ok(lastBody.length < 2 * file.length + 8_000, `the last request stays small: ${lastBody.length}`);
    });
  });
});

describe("agent: the model's context window from the model list", () => {
  it('reads max_input_tokens (also under model_info) as the input limit, context_length as the whole window', () => {
    assert.equal(contextWindowOf({ id: 'a', max_input_tokens: 1_000_000 }, 8_192), 1_008_192);
    assert.equal(contextWindowOf({ id: 'a', model_info: { max_input_tokens: 128_000 } }, 4_096), 132_096);
    assert.equal(contextWindowOf({ id: 'a', input_token_limit: 32_000 }, 1_000), 33_000);
    assert.equal(contextWindowOf({ id: 'a', context_length: 64_000 }, 4_096), 64_000);
    assert.equal(contextWindowOf({ id: 'a', context_window: 400_000 }, 4_096), 400_000);
  });

  it('falls back to 200,000 when the list says nothing usable (absent, not a number, absurd)', () => {
    assert.equal(contextWindowOf(undefined, 4_096), 200_000);
    assert.equal(contextWindowOf({ id: 'a' }, 4_096), 200_000);
    assert.equal(contextWindowOf({ id: 'a', context_length: '64000' }, 4_096), 200_000);
    assert.equal(contextWindowOf({ id: 'a', context_length: 1e12 }, 4_096), 200_000);
    assert.equal(contextWindowOf({ id: 'a', max_input_tokens: -5, context_length: 50_000 }, 4_096), 50_000);
  });
});
