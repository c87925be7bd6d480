// Cost per agent step and per turn, and the daily budget: a turn stops before a request that would pass it (never
// before its first: starting or continuing a turn is the user's decision). Scripted gateway on 127.0.0.1.
import * as assert from 'node:assert/strict';
import { runAgentTurn, type AgentTurnOptions } from '../../../src/agent';
import { priceTokens, tokenCountsOf } from '../../../src/gateway/pricing';
import { eventLog, fakeWorkspace } from './fakeTools';
import { goTurnOptions } from './turnOptions';
import { toolUse, type Script, scriptedGatewayPerTest } from './scriptedGateway';

describe('agent loop: cost and the daily budget', () => {
  const startGateway = scriptedGatewayPerTest();
  const readForever: Script = (_req, n) => ({
    kind: 'message',
    usage: { input_tokens: 1000, output_tokens: 100 },
    blocks: [toolUse(`t${n}`, 'read_file', { path: 'a.txt' })],
  });

  async function turn(extra: Partial<AgentTurnOptions>) {
    const gw = await startGateway(readForever);
    const log = eventLog();
    const ws = fakeWorkspace({ '/ws/a.txt': 'A' });
    const result = await runAgentTurn(goTurnOptions(gw, ws.tools, { onEvent: log.onEvent, maxSteps: 3, ...extra }));
    return { result, gw, log };
  }

  it('prices every step and sums the turn (estimates marked)', async () => {
    const { log } = await turn({
      costOf: (_model, usage) => ({
        amount: priceTokens(tokenCountsOf(usage), { input: 3, output: 15 })!,
        source: 'user',
        estimate: true,
      }),
    });
    const usage = log.ofType('usage');
    assert.equal(usage.length, 3);
    // 1000 × 3 / 1M + 100 × 15 / 1M = 0.0045 per step
    assert.deepEqual(usage[0].cost, { amount: 0.0045, source: 'user', estimate: true });
    assert.deepEqual(usage[2].turnCost, { amount: 0.0135, sources: ['user'], estimate: true, partial: false });
  });

  it("every step's request is told to the ledger as an agent step (usageKind 'agent')", async () => {
    const gw = await startGateway(readForever);
    const ws = fakeWorkspace({ '/ws/a.txt': 'A' });
    const kinds: unknown[] = [];
    const client: AgentTurnOptions['client'] = {
      streamMessage: (request, options) => {
        kinds.push(options?.usageKind);
        return gw.client.streamMessage(request, options);
      },
    };
    await runAgentTurn({ ...goTurnOptions(gw, ws.tools, { maxSteps: 2 }), client });
    assert.deepEqual(kinds, ['agent', 'agent']);
  });

  it('stops before the request that would pass the daily budget, never before the first', async () => {
    const asked: number[] = [];
    const events = eventLog();
    let usedToday = 0;
    const { result, gw } = await turn({
      onEvent: (e) => {
        if (e.type === 'usage') usedToday += e.usage.input + e.usage.output;
        events.onEvent(e);
      },
      wouldPassDailyBudget: async (next) => {
        asked.push(next);
        return usedToday + next > 2_500;
      },
    });
    assert.equal(result.reason, 'daily_budget');
    assert.equal(gw.bodies.length, 2, 'two requests: the third would pass the budget');
    assert.equal(asked.length, 2, 'asked before the 2nd and 3rd request, not before the 1st');
    assert.match(events.ofType('turn_end')[0].message, /daily budget|today's budget/);
  });
});
