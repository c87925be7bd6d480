// Stop, cut streams, timeouts and 429 inside the agent loop: what is sent again and what never is.
import * as assert from 'node:assert/strict';
import { runAgentTurn, type AgentTurnOptions, type ToolResult } from '../../../src/agent';
import { eventLog, fakeWorkspace, WS } from './fakeTools';
import { goTurnOptions } from './turnOptions';
import {
  lastToolResults,
  text,
  toolUse,
  type Script,
  type ScriptedGateway,
  scriptedGatewayPerTest,
} from './scriptedGateway';

describe('agent loop: stop, cut and rate limits', () => {
  const startGateway = scriptedGatewayPerTest();

  /** Every test here may run `npm test` without asking. */
  const options = (gw: ScriptedGateway, tools: AgentTurnOptions['tools'], extra: Partial<AgentTurnOptions> = {}) =>
    goTurnOptions(gw, tools, { policy: { workspaceFolders: [WS], commandAllowList: ['npm test'] }, ...extra });

  it('Stop during a running tool cancels it, answers every call and sends nothing more', async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const ws = fakeWorkspace(
      {},
      {
        onCommand: (signal) => {
          toolSignal = signal;
          // Stop arrives while the command runs; the tool ends only when its signal fires.
          setImmediate(() => controller.abort());
          return new Promise<ToolResult>((resolve) =>
            signal.addEventListener('abort', () => resolve({ content: 'killed', isError: true })),
          );
        },
      },
    );
    const gw = await startGateway(() => ({
      kind: 'message',
      blocks: [toolUse('t1', 'run_command', { command: 'npm test' }), toolUse('t2', 'read_file', { path: 'a' })],
    }));
    const log = eventLog();
    const result = await runAgentTurn(options(gw, ws.tools, { signal: controller.signal, onEvent: log.onEvent }));
    assert.equal(result.reason, 'stopped');
    assert.equal(toolSignal?.aborted, true);
    assert.equal(gw.bodies.length, 1);
    assert.deepEqual(
      ws.invoked.map((i) => i.name),
      ['run_command'],
    );
    const last = result.messages[result.messages.length - 1].content as Array<{
      tool_use_id: string;
      is_error?: boolean;
      content: string;
    }>;
    assert.deepEqual(
      last.map((r) => [r.tool_use_id, r.is_error]),
      [
        ['t1', true],
        ['t2', true],
      ],
    );
    assert.match(last[1].content, /Not run/);
  });

  it('Stop does not wait for a tool that ignores its signal', async () => {
    const controller = new AbortController();
    const ws = fakeWorkspace(
      {},
      {
        onCommand: () => {
          setImmediate(() => controller.abort());
          return new Promise<ToolResult>(() => undefined); // never settles
        },
      },
    );
    const gw = await startGateway(() => ({
      kind: 'message',
      blocks: [toolUse('t1', 'run_command', { command: 'npm test' })],
    }));
    const result = await runAgentTurn(options(gw, ws.tools, { signal: controller.signal }));
    assert.equal(result.reason, 'stopped');
  });

  it('Stop during streaming closes the connection and keeps the partial answer out of the conversation', async () => {
    const controller = new AbortController();
    const gw = await startGateway(() => ({
      kind: 'hang',
      blocks: [text('thinking about it for a long while')],
      events: 4,
    }));
    const closed = gw.server.nextClose();
    const result = await runAgentTurn(
      options(gw, [], {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'text') controller.abort();
        },
      }),
    );
    await closed;
    assert.equal(result.reason, 'stopped');
    assert.equal(result.messages.length, 1);
    assert.ok(result.partial);
    assert.equal(gw.bodies.length, 1);
    // The stopped step counts what streamed (the gateway's output count comes only at the end), marked as estimated.
    const streamed = result.partial.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    assert.ok(streamed.length > 0);
    assert.equal(result.usage.output, Math.ceil(streamed.length / 4));
    assert.equal(result.usage.estimated, true);
  });

  it('a stream cut mid-way (tool call half sent) is never replayed and runs no tool', async () => {
    const ws = fakeWorkspace({ '/ws/a': 'A' });
    const gw = await startGateway(() => ({
      kind: 'cut',
      blocks: [text('Let me look.'), toolUse('t1', 'read_file', { path: 'a' })],
      events: 9,
    }));
    const log = eventLog();
    const result = await runAgentTurn(options(gw, ws.tools, { onEvent: log.onEvent }));
    assert.equal(result.reason, 'outcome_unknown');
    assert.equal(gw.bodies.length, 1);
    assert.equal(ws.invoked.length, 0);
    assert.equal(result.messages.length, 1, 'the conversation ends where it was, so the user can retry that step');
    assert.match(result.message, /not sent again/);
    assert.equal(log.ofType('turn_end')[0].reason, 'outcome_unknown');
  });

  it('a step that timed out is never replayed', async () => {
    const gw = await startGateway(() => ({ kind: 'hang', blocks: [text('slow')], events: 0 }), { timeoutMs: 300 });
    const result = await runAgentTurn(options(gw, []));
    assert.equal(result.reason, 'outcome_unknown');
    assert.equal(gw.bodies.length, 1);
  });

  it('a 429 waits visibly (Retry-After), then sends the same request again, one at a time', async () => {
    const script: Script = (_req, n) =>
      n === 1
        ? {
            kind: 'status',
            status: 429,
            headers: { 'retry-after-ms': '40' },
            body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
          }
        : n === 2
          ? { kind: 'message', blocks: [toolUse('t1', 'read_file', { path: 'a' })] }
          : n === 3
            ? {
                kind: 'status',
                status: 429,
                body: { type: 'error', error: { type: 'rate_limit_error', message: 'again' } },
              }
            : { kind: 'message', blocks: [text('done')] };
    const gw = await startGateway(script);
    const ws = fakeWorkspace({ '/ws/a': 'A' });
    const log = eventLog();
    const result = await runAgentTurn(
      options(gw, ws.tools, { onEvent: log.onEvent, rateLimit: { defaultWaitMs: 25 } }),
    );
    assert.equal(result.reason, 'end_turn');
    assert.deepEqual(
      log.ofType('rate_limited').map((e) => [e.step, e.waitMs, e.attempt]),
      [
        [1, 40, 1],
        [2, 25, 1],
      ],
    );
    assert.equal(gw.bodies.length, 4);
    assert.deepEqual(gw.bodies[0], gw.bodies[1], 'the refused request goes again unchanged');
    assert.equal(gw.maxInFlight(), 1);
    assert.equal(result.steps, 2);
    assert.equal(lastToolResults(gw.bodies[3]).length, 1);
  });

  it('a 429 asking for longer than the limit ends the turn instead of sleeping through it', async () => {
    const gw = await startGateway(() => ({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '3600' },
      body: { error: { message: 'quota' } },
    }));
    const log = eventLog();
    const result = await runAgentTurn(options(gw, [], { onEvent: log.onEvent, rateLimit: { maxWaitMs: 60_000 } }));
    assert.equal(result.reason, 'rate_limited');
    assert.equal(gw.bodies.length, 1);
    assert.equal(log.ofType('rate_limited').length, 0);
  });

  it('a 5xx on the POST is not replayed', async () => {
    const gw = await startGateway(() => ({
      kind: 'status',
      status: 500,
      body: { type: 'error', error: { type: 'api_error', message: 'boom' } },
    }));
    const result = await runAgentTurn(options(gw, []));
    assert.equal(result.reason, 'error');
    assert.equal(gw.bodies.length, 1);
  });
});
