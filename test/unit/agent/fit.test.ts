// Context fitting: the size estimate, older tool results shortened first with a visible marker, and the loop
// sending the shortened conversation (read from the request body the server got).
import * as assert from 'node:assert/strict';
import { estimateMessages, fitToWindow, omittedMarker, runAgentTurn } from '../../../src/agent';
import type { MessageParam } from '../../../src/gateway/types';
import { eventLog, fakeWorkspace, WS } from './fakeTools';
import { IMAGE_TOKENS, MAX_CALIBRATION, estimateTokens } from '../../../src/shared/tokenEstimate';
import { lastToolResults, text, toolUse, scriptedGatewayPerTest, type AgentRequest } from './scriptedGateway';

/** Our estimate of a request as the loop makes it (system and tools, then the messages). */
function requestEstimate(req: AgentRequest): number {
  return estimateTokens({ system: req.system, tools: req.tools }) + estimateMessages(req.messages as MessageParam[]);
}

function toolRound(id: string, result: string): MessageParam[] {
  return [
    { role: 'assistant', content: [{ type: 'tool_use', id, name: 'read_file', input: { path: id } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] },
  ];
}

function resultText(messages: MessageParam[], i: number): string {
  return String((messages[i].content as Array<{ content: string }>)[0].content);
}

describe('agent context fitting', () => {
  it('estimates 3 ASCII characters per token, one token per other character, images at a flat rate', () => {
    const small = estimateMessages([{ role: 'user', content: 'x'.repeat(3000) }]);
    assert.ok(small >= 1000 && small < 1020, String(small));
    const cjk = estimateMessages([{ role: 'user', content: '字'.repeat(1000) }]);
    assert.ok(cjk >= 1000 && cjk < 1020, String(cjk));
    const image = estimateMessages([
      {
        role: 'user',
        content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(400_000) } }],
      },
    ]);
    assert.ok(image >= IMAGE_TOKENS && image < IMAGE_TOKENS + 100, String(image));
  });

  /** "go", then three tool rounds (a, b, c) whose results are each `big`. */
  const threeBigRounds = (big: string): MessageParam[] => [
    { role: 'user', content: 'go' },
    ...toolRound('a', big),
    ...toolRound('b', big),
    ...toolRound('c', big),
  ];

  it('leaves a conversation that fits untouched (same array)', () => {
    const messages: MessageParam[] = [{ role: 'user', content: 'hi' }, ...toolRound('a', 'x'.repeat(1000))];
    const fit = fitToWindow(messages, 0, 10_000);
    assert.equal(fit.messages, messages);
    assert.equal(fit.fits, true);
    assert.equal(fit.results, 0);
  });

  it('shortens the oldest tool results first, keeps their start, and marks what was omitted', () => {
    const big = 'A'.repeat(20_000);
    const messages = threeBigRounds(big);
    const before = JSON.stringify(messages);
    const fit = fitToWindow(messages, 100, 16_000);
    assert.equal(fit.fits, true);
    assert.equal(fit.results, 1, 'only as many as needed');
    assert.equal(resultText(fit.messages, 2), `${'A'.repeat(400)}\n${omittedMarker(19_600)}`);
    assert.equal(resultText(fit.messages, 4), big);
    assert.equal(resultText(fit.messages, 6), big);
    assert.match(
      omittedMarker(19_600),
      /^\[… 19600 characters of an older tool result omitted to fit the context window\]$/,
    );
    assert.equal(JSON.stringify(messages), before, "the caller's messages are not mutated");
    // Fitting again is stable: a shortened result is not shortened twice.
    const again = fitToWindow(fit.messages, 100, 16_000);
    assert.equal(again.results, 0);
  });

  it('shortens down to the target, below the budget, so the prompt (and its cache) stays stable for several steps', () => {
    const big = 'A'.repeat(20_000);
    const messages = threeBigRounds(big);
    const fit = fitToWindow(messages, 100, 16_000, 9_000);
    assert.equal(fit.results, 2, 'two results shortened to reach the target');
    const grown = [...fit.messages, ...toolRound('d', 'D'.repeat(6_000))];
    assert.equal(
      fitToWindow(grown, 100, 16_000, 9_000).results,
      0,
      'the next step still fits: nothing shortened, same prefix',
    );
  });

  it('shortens the newest results only when the older ones are not enough, and says when nothing fits', () => {
    const messages: MessageParam[] = [
      { role: 'user', content: 'go' },
      ...toolRound('a', 'A'.repeat(8000)),
      ...toolRound('b', 'B'.repeat(40_000)),
    ];
    const fit = fitToWindow(messages, 0, 2000);
    assert.equal(fit.fits, true);
    assert.equal(fit.results, 2);
    const none = fitToWindow([{ role: 'user', content: 'x'.repeat(100_000) }], 0, 2000);
    assert.equal(none.fits, false);
  });

  describe('in the loop', () => {
    const startGateway = scriptedGatewayPerTest();

    it('sends older tool results shortened when the window would overflow, and reports it', async () => {
      const big = 'line of a big file\n'.repeat(1500); // ~28 500 characters, ~7 000 tokens
      // The gateway counts what we estimate (calibration 1), so the plain estimate decides.
      const gw = await startGateway((req, n) => ({
        kind: 'message',
        usage: { input_tokens: requestEstimate(req) },
        blocks: n <= 3 ? [toolUse(`t${n}`, 'read_file', { path: 'big.txt' })] : [text('done')],
      }));
      const log = eventLog();
      const result = await runAgentTurn({
        client: gw.client,
        model: 'm',
        maxTokens: 1000,
        contextWindow: 17_000,
        clearOldResults: false, // the window's own shortening, without the clearing of older results before it
        tools: fakeWorkspace({ '/ws/big.txt': big }).tools,
        policy: { workspaceFolders: [WS] },
        messages: [{ role: 'user', content: 'read it thrice' }],
        approve: async () => ({ approved: true }),
        onEvent: log.onEvent,
      });
      assert.equal(result.reason, 'end_turn');
      const last = gw.bodies[3];
      assert.match(
        JSON.stringify(last.messages[2]),
        /characters of an older tool result omitted to fit the context window/,
      );
      assert.equal(lastToolResults(last)[0].content, big, 'the newest result is intact');
      assert.ok(log.ofType('context_trimmed').length >= 1);
      assert.ok(JSON.stringify(last).length / 4 < 17_000 - 1000);
    });

    /** Two reads of a ~2 000-token file, then done, in a window the plain estimate fits and twice it does not. */
    const twoReads = async (reportedPerEstimated: number) => {
      const big = 'line of a big file\n'.repeat(300);
      const gw = await startGateway((req, n) => ({
        kind: 'message',
        usage: { input_tokens: Math.round(requestEstimate(req) * reportedPerEstimated) },
        blocks: n <= 2 ? [toolUse(`t${n}`, 'read_file', { path: 'big.txt' })] : [text('done')],
      }));
      const log = eventLog();
      const result = await runAgentTurn({
        client: gw.client,
        model: 'm',
        maxTokens: 1000,
        contextWindow: 6_500,
        clearOldResults: false,
        tools: fakeWorkspace({ '/ws/big.txt': big }).tools,
        policy: { workspaceFolders: [WS] },
        messages: [{ role: 'user', content: 'read it twice' }],
        approve: async () => ({ approved: true }),
        onEvent: log.onEvent,
      });
      return { result, log, gw, plain: requestEstimate(gw.bodies[2]) };
    };

    it('fits by the plain estimate while the gateway counts what we estimate', async () => {
      const exact = await twoReads(1);
      assert.equal(exact.result.reason, 'end_turn');
      assert.ok(exact.plain < 5_500, `the plain estimate fits: ${exact.plain}`);
      assert.equal(exact.log.ofType('context_trimmed').length, 0);
    });

    it('fits by the estimate calibrated with the input tokens the gateway reported for the last step', async () => {
      // The gateway counts three times what we estimate: clamped to twice, and the third request no longer fits.
      const under = await twoReads(3);
      assert.equal(under.result.reason, 'end_turn');
      assert.equal(under.log.ofType('context_trimmed').length, 1);
      assert.ok(under.plain * MAX_CALIBRATION <= 5_500, `shortened to fit when calibrated: ${under.plain}`);
      assert.match(JSON.stringify(under.gw.bodies[2].messages[2]), /omitted to fit the context window/);
    });

    it('a calibration from earlier in the conversation applies from the first step', async () => {
      const gw = await startGateway(() => ({ kind: 'message', blocks: [text('done')] }));
      const run = (calibration: number | undefined) =>
        runAgentTurn({
          client: gw.client,
          model: 'm',
          maxTokens: 1000,
          contextWindow: 4_000,
          tools: [],
          policy: { workspaceFolders: [WS] },
          messages: [{ role: 'user', content: 'x'.repeat(7_500) }],
          approve: async () => ({ approved: true }),
          calibration,
        });
      assert.equal((await run(undefined)).reason, 'end_turn', '2 500 tokens by the plain estimate fit 3 000');
      assert.equal((await run(1.5)).reason, 'context_full', '3 750 calibrated tokens do not');
    });

    it('ends the turn when even shortened results cannot fit', async () => {
      const gw = await startGateway(() => ({ kind: 'message', blocks: [text('never')] }));
      const result = await runAgentTurn({
        client: gw.client,
        model: 'm',
        maxTokens: 1000,
        contextWindow: 2000,
        tools: [],
        policy: { workspaceFolders: [WS] },
        messages: [{ role: 'user', content: 'x'.repeat(40_000) }],
        approve: async () => ({ approved: true }),
      });
      assert.equal(result.reason, 'context_full');
      assert.equal(gw.bodies.length, 0, 'nothing sent that would be refused (or billed) anyway');
    });
  });
});
