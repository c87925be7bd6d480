// Code completion out of the box with the demo key as `npm start` serves it (issue 45, item 3), in a real VS Code:
// the status bar's toggle (the offer and the walkthrough use the same choice) turns completion on with a model that
// completes — a fast chat model here, not deepseek-demo-reasoner — and ghost text appears without touching a setting;
// when the gateway refuses the chosen model's completions, the status bar itself says so (not only its tooltip).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { editorAtEnd } from '../support/editors';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { closeEditorsWithoutSaving, testHook, waitForValue, EXTENSION_ID } from '../support/hostTest';

const DEMO_START_KEY = 'mg-demo-start-0012';
const KEY_NAME = 'completions-demo-start';

describe('code completion out of the box (the demo key of npm start)', function () {
  this.timeout(120_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;
  const config = () => vscode.workspace.getConfiguration('modelGateway.completions');
  const reset = async (): Promise<void> => {
    for (const name of ['enabled', 'model', 'mode'])
      await config().update(name, undefined, vscode.ConfigurationTarget.Global);
  };

  before(async function () {
    if (!admin || !vscode.workspace.workspaceFolders?.length) this.skip();
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await reset();
    await testHook('setApiKey', { name: KEY_NAME, secret: DEMO_START_KEY });
    await testHook('refreshModels', { quiet: true });
    await testHook('forgetLearnedCompletionModes');
  });

  after(async () => {
    await closeEditorsWithoutSaving();
    await reset();
    await testHook('forgetLearnedCompletionModes').then(undefined, () => undefined);
    await testHook('removeApiKey', KEY_NAME).then(undefined, () => undefined);
  });

  const since = async (): Promise<Set<string>> => new Set((await admin!.requests()).map((r) => r.id));
  const newPosts = async (before: Set<string>): Promise<AdminRequestEntry[]> =>
    (await admin!.requests()).filter((r) => !before.has(r.id) && r.method === 'POST' && r.keyName === 'demo-start');

  it('the toggle picks a fast chat model (not the reasoner), and Tab accepts ghost text from it', async () => {
    await reset(); // a retry starts from completion off, as a new user does
    await vscode.commands.executeCommand('modelGateway.toggleCompletions');
    const model = await waitForValue(
      'the completion model',
      async () => config().inspect<string>('model')?.globalValue,
    );
    assert.strictEqual(model, 'claude-demo-haiku');
    assert.strictEqual(config().inspect<boolean>('enabled')?.globalValue, true);
    const before = await since();
    const editor = await editorAtEnd(
      'completion-demo-start.ts',
      'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(n',
    );
    const text = await waitForValue('the accepted ghost text', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await new Promise((r) => setTimeout(r, 400));
      await vscode.commands.executeCommand('editor.action.inlineSuggest.commit');
      const now = editor.document.getText();
      return now.endsWith('fibonacci(n') ? undefined : now;
    });
    assert.ok(text.includes('fibonacci(n - 1)'), text);
    const posts = await newPosts(before);
    assert.ok(
      posts.length > 0 && posts.every((r) => r.model === 'claude-demo-haiku' && r.status === 200),
      JSON.stringify(posts.map((r) => `${r.path} ${r.model} ${r.status}`)),
    );
  });

  it('a model whose completions the gateway refuses: the status bar text says it cannot complete', async () => {
    // The user's own mode setting pins fill-in-the-middle, which this chat model refuses (400): no fallback.
    await config().update('mode', 'fim', vscode.ConfigurationTarget.Global);
    await config().update('model', 'claude-demo-haiku', vscode.ConfigurationTarget.Global);
    await config().update('enabled', true, vscode.ConfigurationTarget.Global);
    await editorAtEnd('completion-refused.ts', 'export function clamp(value: number) {\n  return Math.min(');
    const status = await waitForValue('the status bar saying so', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await new Promise((r) => setTimeout(r, 300));
      const text = await testHook<string>('completionStatusText');
      return /cannot complete|无法补全/.test(text) ? text : undefined;
    });
    assert.ok(status.includes('claude-demo-haiku'), status);
  });
});
