// The README's Agent demo end to end inside a real VS Code: a plain request ("add a test for titleCase") to the
// emulator's scripted agent model, through the real agent loop and gateway client, with the agent host's real
// tools: it searches the workspace, reads the source and package.json, proposes a new test file as a diff (the
// user accepts it: written through WorkspaceEdit), asks to run `npm test` (approved: it runs in a real terminal),
// reads the output and sums up; every step's tokens are counted. The created test really passes.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { runAgentTurn, type AgentEvent, type ApprovalRequest, type Tool } from '../../src/agent';
import { createAgentHost, type AgentHost } from '../../src/agentHost';
import { createGatewayClient } from '../../src/gateway';
import { makeTempDir, removeTempDir } from '../support/tempDir';
import { closeEditorsWithoutSaving } from '../support/hostTest';

const AGENT_KEY = 'mg-agent-key-0008';

describe('agent demo: "add a test for titleCase" with the scripted agent model', function () {
  this.timeout(180_000);
  let host: AgentHost;
  let storage: string;
  const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  const created: string[] = [];
  const write = (rel: string, text: string) => {
    const file = path.join(root(), rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    created.push(file);
  };

  before(function () {
    if (!process.env.MG_EMULATOR_URL) this.skip();
    // The same small project `npm start` puts in its playground (scripts/start.mjs).
    if (fs.existsSync(path.join(root(), 'package.json'))) this.skip(); // never overwrite a real project file
    write(
      'package.json',
      `${JSON.stringify({ name: 'playground', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
    );
    write(
      'src/text.js',
      '// Small text helpers.\n\n/** "Hello World" -> "hello-world" */\nexport function slugify(title) {\n' +
        "  return title.trim().toLowerCase().split(/\\s+/).join('-');\n}\n\n" +
        '/** "hello world" -> "Hello World" */\nexport function titleCase(text) {\n' +
        '  return text.replace(/\\b\\w/g, (c) => c.toUpperCase());\n}\n',
    );
    write(
      'test/slugify.test.js',
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slugify } from '../src/text.js';\n\n" +
        "test('slugify', () => {\n  assert.equal(slugify(' Hello World '), 'hello-world');\n});\n",
    );
    storage = makeTempDir('agent-demo');
    host = createAgentHost({
      storage: {
        globalStorageUri: vscode.Uri.file(path.join(storage, 'global')),
        storageUri: vscode.Uri.file(path.join(storage, 'ws')),
      },
      proposalScheme: 'model-gateway-proposal-demo',
      commands: { shellIntegrationWaitMs: 15_000 },
    });
  });

  after(async () => {
    host?.dispose();
    await closeEditorsWithoutSaving();
    for (const f of [...created, path.join(root(), 'test/text.test.js')]) fs.rmSync(f, { force: true });
    for (const d of ['src', 'test']) {
      const dir = path.join(root(), d);
      if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    }
    if (storage) removeTempDir(storage);
  });

  it('finds, reads, proposes the test as a diff (accepted), runs npm test after approval and reports the cost', async () => {
    const events: AgentEvent[] = [];
    const asked: ApprovalRequest[] = [];
    const accepted: string[] = [];
    // The user: accepts each proposed file in the pending changes (the diff editor shows it meanwhile).
    const onChange = host.changes.onDidChange((list) => {
      for (const c of list) {
        if (accepted.includes(c.id)) continue;
        accepted.push(c.id);
        setTimeout(() => void host.changes.accept(c.id), 500);
      }
    });
    await host.beginTurn('demo-turn');
    try {
      const snapshot = await host.snapshot();
      const result = await runAgentTurn({
        client: createGatewayClient({ baseUrl: process.env.MG_EMULATOR_URL!, apiKey: AGENT_KEY, maxRetries: 0 }),
        model: 'claude-demo-agent',
        maxTokens: 4096,
        messages: [{ role: 'user', content: 'add a test for titleCase' }],
        tools: host.tools({ vscodeTools: false }) as Array<Tool<never>>,
        policy: snapshot.policy,
        onEvent: (e) => events.push(e),
        // As the chat does: a command waits for Approve (given here); a write's review is its approval.
        approve: async (r) => {
          asked.push(r);
          return { approved: true };
        },
      });
      assert.strictEqual(result.reason, 'end_turn', result.message);
      const calls = events
        .filter((e): e is Extract<AgentEvent, { type: 'tool_proposed' }> => e.type === 'tool_proposed')
        .map((e) => e.name);
      assert.deepStrictEqual(calls, [
        'find_files',
        'search_text',
        'read_file',
        'read_file',
        'find_files',
        'create_file',
        'run_command',
      ]);
      assert.deepStrictEqual(
        asked.map((r) => [r.approvalClass, r.target.command ?? '']),
        [
          ['write', ''],
          ['command', 'npm test'],
        ],
      );
      assert.strictEqual(accepted.length, 1, 'one file was proposed for review');
      const testFile = path.join(root(), 'test/text.test.js');
      assert.ok(fs.existsSync(testFile), 'the accepted test file is on disk');
      const written = fs.readFileSync(testFile, 'utf8');
      assert.match(written, /import \{ titleCase \} from '\.\.\/src\/text\.js';/);
      // It checks what titleCase does (the example its comment documents), not only that it exists.
      assert.match(written, /assert\.equal\(titleCase\('hello world'\), 'Hello World'\);/, written);
      const run = events.find(
        (e): e is Extract<AgentEvent, { type: 'tool_result' }> =>
          e.type === 'tool_result' && JSON.stringify(e.content).includes('Exit code'),
      );
      assert.ok(run, 'the command ran and its result reached the model');
      assert.match(JSON.stringify(run.content), /Exit code: 0/, JSON.stringify(run.content).slice(0, 2000));
      const text = events
        .filter((e): e is Extract<AgentEvent, { type: 'text' }> => e.type === 'text')
        .map((e) => e.text)
        .join('');
      assert.match(
        text,
        /Done: I added `test\/text\.test\.js`[\s\S]*`npm test` passed \(exit code 0\)/,
        text.slice(-600),
      );
      const usage = events.filter((e): e is Extract<AgentEvent, { type: 'usage' }> => e.type === 'usage');
      assert.strictEqual(usage.length, 5, 'tokens of every step');
      assert.ok(result.usage.input + result.usage.cacheRead + result.usage.cacheWrite > 0 && result.usage.output > 0);
    } finally {
      onChange.dispose();
      await host.endTurn();
    }
  });
});
