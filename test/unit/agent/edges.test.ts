// Edge cases of the agent loop: inputs cut by max_tokens, unknown tools, failing tools, approvals and
// renderers that throw, pause_turn, and the purity of src/agent (it must run without VS Code).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runAgentTurn, secretPattern, type AgentTurnOptions, type Tool } from '../../../src/agent';
import { eventLog, fakeWorkspace, WS } from './fakeTools';
import { goTurnOptions } from './turnOptions';
import { lastToolResults, text, toolUse, type Script, scriptedGatewayPerTest } from './scriptedGateway';

describe('agent loop: edge cases', () => {
  const startGateway = scriptedGatewayPerTest();

  async function turn(script: Script, extra: Partial<AgentTurnOptions> = {}) {
    const gw = await startGateway(script);
    const ws = fakeWorkspace({ '/ws/a': 'A' });
    const log = eventLog();
    const result = await runAgentTurn(goTurnOptions(gw, ws.tools, { onEvent: log.onEvent, ...extra }));
    return { result, ws, log, gw };
  }

  it('a tool input cut by max_tokens is answered with an error (the message was billed), and the turn goes on', async () => {
    const { result, ws, gw } = await turn((_req, n) =>
      n === 1
        ? {
            kind: 'message',
            stopReason: 'max_tokens',
            blocks: [
              toolUse('t1', 'read_file', { path: 'a' }),
              toolUse('t2', 'write_file', '{"path":"b","content":"hal'),
            ],
          }
        : { kind: 'message', blocks: [text('I will write less at once.')] },
    );
    assert.equal(result.reason, 'end_turn');
    assert.deepEqual(
      ws.invoked.map((i) => i.name),
      ['read_file'],
    );
    const results = lastToolResults(gw.bodies[1]);
    assert.deepEqual(
      results.map((r) => r.is_error === true),
      [false, true],
    );
    assert.match(String(results[1].content), /"content":"hal/, 'the model sees what it sent');
  });

  it('an unknown tool, a failing tool and a failing approval prompt each become an error result', async () => {
    const failing: Tool<Record<string, unknown>> = {
      name: 'explode',
      description: 'fails',
      approvalClass: 'write',
      inputSchema: { type: 'object' },
      target: () => ({ paths: [`${WS}/x`] }),
      invoke: async () => {
        throw new Error('disk full');
      },
    };
    const broken: Tool<Record<string, unknown>> = {
      ...failing,
      name: 'bad_target',
      target: () => {
        throw new Error('path escapes the workspace');
      },
    };
    const { result, gw, log } = await turn(
      (_req, n) =>
        n === 1
          ? {
              kind: 'message',
              blocks: [toolUse('t1', 'nope', {}), toolUse('t2', 'explode', {}), toolUse('t3', 'bad_target', {})],
            }
          : { kind: 'message', blocks: [text('ok')] },
      {
        tools: [failing as Tool<never>, broken as Tool<never>],
        approve: async () => {
          throw new Error('webview gone');
        },
      },
    );
    assert.equal(result.reason, 'end_turn');
    const results = lastToolResults(gw.bodies[1]);
    assert.deepEqual(
      results.map((r) => r.is_error),
      [true, true, true],
    );
    assert.match(String(results[0].content), /no tool named "nope"/);
    assert.match(String(results[1].content), /approval prompt failed: webview gone/);
    assert.match(String(results[2].content), /path escapes the workspace/);
    assert.equal(log.ofType('tool_result').length, 3);
  });

  it('a tool that throws after approval reports its error to the model', async () => {
    const failing: Tool<Record<string, unknown>> = {
      name: 'explode',
      description: 'fails',
      approvalClass: 'read',
      inputSchema: { type: 'object' },
      target: () => ({ paths: [`${WS}/x`] }),
      invoke: async () => {
        throw new Error('disk full');
      },
    };
    const { gw } = await turn(
      (_req, n) =>
        n === 1
          ? { kind: 'message', blocks: [toolUse('t1', 'explode', {})] }
          : { kind: 'message', blocks: [text('ok')] },
      { tools: [failing as Tool<never>] },
    );
    assert.deepEqual(
      lastToolResults(gw.bodies[1]).map((r) => [r.is_error, r.content]),
      [[true, 'The tool failed: disk full']],
    );
  });

  it('a renderer that throws does not break the turn', async () => {
    const { result } = await turn(
      (_req, n) =>
        n === 1
          ? { kind: 'message', blocks: [toolUse('t1', 'read_file', { path: 'a' })] }
          : { kind: 'message', blocks: [text('ok')] },
      {
        onEvent: () => {
          throw new Error('render bug');
        },
      },
    );
    assert.equal(result.reason, 'end_turn');
    assert.equal(result.messages.length, 4);
  });

  it('pause_turn sends the conversation again to let the model go on (counted as a step)', async () => {
    const { result, gw } = await turn((_req, n) =>
      n === 1
        ? { kind: 'message', stopReason: 'pause_turn', blocks: [text('working…')] }
        : { kind: 'message', blocks: [text('done')] },
    );
    assert.equal(result.reason, 'end_turn');
    assert.equal(result.steps, 2);
    assert.deepEqual(
      gw.bodies[1].messages.map((m) => m.role),
      ['user', 'assistant'],
    );
  });

  it('max_tokens without tool calls ends the turn with that reason', async () => {
    const { result } = await turn(() => ({ kind: 'message', stopReason: 'max_tokens', blocks: [text('a long')] }));
    assert.equal(result.reason, 'max_tokens');
  });

  it('secretPattern lets listing tools drop secrets the same way the policy refuses them', () => {
    assert.equal(secretPattern(`${WS}/config/.env`, { workspaceFolders: [WS] }), '.env*');
    assert.equal(secretPattern(`${WS}/src/a.ts`, { workspaceFolders: [WS], secretPatterns: ['src/'] }), 'src/');
    assert.equal(secretPattern(`${WS}/src/a.ts`, { workspaceFolders: [WS] }), undefined);
  });
});

describe('agent core: pure modules', () => {
  const dir = path.join(__dirname, '../../../src/agent');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    // src/shared/l10n is the pure Localizer interface: approval reasons are shown in the user's language;
    // src/shared/tokens the one shape of token counts (the chat and the ledger count in it too); src/shared/secretRedaction
    // the one redaction every tool result passes; src/shared/tokenEstimate the one token estimate; the `ignore` package
    // the gitignore matcher of the secret rules.
    it(`${file} imports neither vscode nor anything outside src/agent, src/gateway, the Localizer, the token shape and estimate, the redaction and ignore`, () => {
      const source = readFileSync(path.join(dir, file), 'utf8');
      assert.ok(!/from ['"]vscode['"]|require\(['"]vscode['"]\)/.test(source), `${file} imports vscode`);
      for (const m of source.matchAll(/from ['"]([^'"]+)['"]/g)) {
        assert.ok(
          /^(\.\/|\.\.\/gateway\/|\.\.\/shared\/(l10n|tokens|tokenEstimate|secretRedaction)$|node:|ignore$)/.test(m[1]),
          `${file} imports ${m[1]}`,
        );
      }
    });
  }
});
