// The key never reaches the model, a card or a stored transcript through a command's output (issue 32). A
// repository's test script, run unasked by an allow-listed `npm test`, reads /proc/<ancestor>/environ: its own
// environment was cleaned, but a process above it (the pty host, VS Code itself) still holds the key. The output
// passes the one redactor before it is shown, stored or sent; and the extension host's own process.env loses the
// variable at import, so the processes it starts later do not inherit it.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { runAgentTurn, type AgentEvent, type Tool } from '../../../src/agent';
import { takeEnvKey } from '../../../src/keys/fingerprint';
import { SecretRegistry } from '../../../src/shared/secretRedaction';
import { API_KEY_ENV } from '../../../src/shared/commands';
import { goTurnOptions } from './turnOptions';
import { scriptedGatewayPerTest, text, toolUse } from './scriptedGateway';

const KEY = 'Zq9plainKEY4d8e2f0a77c31b';

/** The repository's script: prints the environment of every ancestor it can read, as the attack did. */
const READ_ANCESTORS = `
const fs = require('fs');
let pid = process.ppid;
const out = [];
for (let i = 0; i < 6 && pid > 1; i++) {
  try { out.push('pid ' + pid + ': ' + fs.readFileSync('/proc/' + pid + '/environ', 'utf8').split('\\0').join('\\n')); } catch {}
  try { pid = Number(fs.readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' ')[1]); } catch { break; }
}
console.log(out.join('\\n'));
`;

/**
 * Runs the script the way a terminal does: under a parent that holds the key in its environment (the pty host),
 * with the command's own environment cleaned (ENV_REMOVED in src/agentHost/tools/command.ts).
 */
function runUnderKeyHolder(): Promise<string> {
  const parent = `
const { spawn } = require('child_process');
const env = { ...process.env }; delete env.${API_KEY_ENV};
const child = spawn(process.execPath, ['-e', ${JSON.stringify(READ_ANCESTORS)}], { env, stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.pipe(process.stdout);
child.on('exit', (code) => process.exit(code ?? 1));
`;
  return new Promise((resolve, reject) => {
    const holder = spawn(process.execPath, ['-e', parent], {
      env: { ...process.env, [API_KEY_ENV]: KEY },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    holder.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    holder.on('error', reject);
    holder.on('exit', () => resolve(out));
  });
}

const npmTest: Tool<{ command: string }> = {
  name: 'run_command',
  description: 'Run a command',
  approvalClass: 'command',
  inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  target: (input) => ({ command: input.command, cwd: '/ws' }),
  invoke: async (_input, ctx) => {
    const output = await runUnderKeyHolder();
    ctx.progress(output);
    return { content: `Exit code: 0\n${output}`, details: { output, exitCode: 0 } };
  },
};

describe('agent: a command that reads its ancestors’ environments', function () {
  if (process.platform !== 'linux') return;
  const startGateway = scriptedGatewayPerTest();

  it('the attack works: the script finds the key in an ancestor although its own environment is clean', async () => {
    const output = await runUnderKeyHolder();
    assert.ok(output.includes(KEY), 'the key holder is an ancestor of the script');
  });

  it('the key is in no tool result, card event or request body: every command output passes the redactor', async () => {
    const secrets = new SecretRegistry();
    secrets.setStored([KEY]);
    const events: AgentEvent[] = [];
    const gw = await startGateway((_req, n) =>
      n === 1
        ? { kind: 'message', blocks: [toolUse('c1', 'run_command', { command: 'npm test' })], stopReason: 'tool_use' }
        : { kind: 'message', blocks: [text('Tests ran.')] },
    );
    const result = await runAgentTurn(
      goTurnOptions(gw, [npmTest] as Array<Tool<never>>, {
        policy: { workspaceFolders: ['/ws'], commandAllowList: ['npm test'] },
        onEvent: (e) => events.push(e),
        redact: secrets.redactKnown,
      }),
    );
    assert.equal(result.reason, 'end_turn', result.message);
    const shown = JSON.stringify(events);
    const sent = JSON.stringify(gw.bodies);
    const kept = JSON.stringify(result.messages);
    assert.ok(sent.includes('[redacted]'), 'the output was sent, with the key redacted');
    for (const [where, textOf] of Object.entries({ shown, sent, kept }))
      assert.ok(!textOf.includes(KEY), `the key is in what is ${where}`);
  });

  it('the import takes the key out of the host’s process.env: a process started later does not inherit it', () => {
    const before = process.env[API_KEY_ENV];
    process.env[API_KEY_ENV] = ` ${KEY} `;
    try {
      const taken = takeEnvKey(process.env, API_KEY_ENV);
      assert.equal(taken.key, KEY);
      assert.equal(taken.raw, KEY, 'still a known secret to redact');
      assert.equal(process.env[API_KEY_ENV], undefined);
      const seen = execFileSync(process.execPath, ['-e', `console.log(String(process.env.${API_KEY_ENV}))`], {
        encoding: 'utf8',
      });
      assert.equal(seen.trim(), 'undefined');
    } finally {
      if (before === undefined) delete process.env[API_KEY_ENV];
      else process.env[API_KEY_ENV] = before;
    }
  });
});
