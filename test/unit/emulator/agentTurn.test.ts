// End to end: the real agent loop (src/agent runAgentTurn) with the real gateway client against the emulator's
// scripted agent model, over a real socket, with in-memory tools. A 15-step turn, with and without prompt
// caching: the emulator's usage adds up to the loop's totals, and caching moves input to cache reads.
import { strict as assert } from 'node:assert';
import { CachingMemory, runAgentTurn, type AgentTurnResult } from '../../../src/agent';
import { instantAnswers, useEmulator } from './helpers';
import { createGatewayClient } from '../../../src/gateway';
import { eventLog, fakeWorkspace, WS } from '../agent/fakeTools';

const AGENT_KEY = 'mg-agent-key-0008';
/** About 1,500 tokens per read: the prefix passes the 1,024-token minimum from the second step on. */
const BIG = Array.from({ length: 300 }, (_v, i) => `line ${i}: export const value${i} = ${i};`).join('\n');
const TASK =
  'Read the file fifteen times.\n@tool read_file {"path":"big.ts"}\n@steps 15\n@after-result-say All reads done.';

describe('agent loop × emulator: a 15-step scripted turn', function () {
  this.timeout(60_000);
  const emulator = useEmulator(instantAnswers);

  async function turn(
    caching: boolean,
  ): Promise<{ result: AgentTurnResult; invoked: number; usageEvents: number; text: string }> {
    emulator().reset();
    const ws = fakeWorkspace({ '/ws/big.ts': BIG });
    const log = eventLog();
    const client = createGatewayClient({ baseUrl: emulator().url, apiKey: AGENT_KEY, maxRetries: 0 });
    const result = await runAgentTurn({
      client,
      model: 'claude-demo-agent',
      maxTokens: 1024,
      system: 'You are a careful coding agent.',
      tools: ws.tools,
      policy: { workspaceFolders: [WS] },
      messages: [{ role: 'user', content: TASK }],
      // The caching mechanics alone: a clearing of older results rewrites the prefix after the first result it
      // clears, so that one step reads only the tools and system prompt (priced in bench/agent.ts).
      clearOldResults: false,
      onEvent: log.onEvent,
      approve: async () => ({ approved: true }),
      caching: caching
        ? { keyId: 'test', memory: new CachingMemory() }
        : { enabled: false, keyId: 'test', memory: new CachingMemory() },
    });
    return {
      result,
      invoked: ws.invoked.length,
      usageEvents: log.ofType('usage').length,
      text: log
        .ofType('text')
        .map((e) => e.text)
        .join(''),
    };
  }

  function emulatorTotals(): { input: number; output: number; cacheRead: number; cacheWrite: number } {
    const t = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    for (const r of emulator().requests()) {
      if (!r.usage) continue;
      t.input += r.usage.input;
      t.output += r.usage.output;
      t.cacheRead += r.usage.cacheRead;
      t.cacheWrite += r.usage.cacheWrite;
    }
    return t;
  }

  it('runs 15 tool steps and a final answer; with caching, input moves to cache reads and the totals match the emulator', async () => {
    const plain = await turn(false);
    assert.equal(plain.result.reason, 'end_turn', plain.result.message);
    assert.equal(plain.result.steps, 16, '15 tool steps + the final answer');
    assert.equal(plain.invoked, 15);
    assert.equal(plain.usageEvents, 16);
    assert.match(
      plain.text,
      /All reads done\.[\s\S]*Result 1: line 0: export const value0 = 0;[\s\S]*Done after 15 tool steps\./,
    );
    assert.deepEqual(plain.result.usage, emulatorTotals());
    assert.deepEqual([plain.result.usage.cacheRead, plain.result.usage.cacheWrite], [0, 0]);

    const cached = await turn(true);
    assert.equal(cached.result.reason, 'end_turn');
    assert.equal(cached.result.steps, 16);
    assert.equal(cached.invoked, 15);
    const u = cached.result.usage;
    assert.deepEqual(u, emulatorTotals());
    // Same conversation, same tokens: caching only splits them differently.
    assert.equal(u.input + u.cacheRead + u.cacheWrite, plain.result.usage.input);
    assert.equal(u.output, plain.result.usage.output);
    const perStep = emulator()
      .requests()
      .map((r) => r.usage!);
    assert.equal(perStep.length, 16);
    assert.ok(
      perStep.slice(2).every((s) => s.cacheRead > 0),
      'from step 3 on, each step reads the previous prefix',
    );
    assert.ok(
      u.input * 10 < plain.result.usage.input,
      `full-price input ${u.input} vs ${plain.result.usage.input} without caching`,
    );
  });
});
