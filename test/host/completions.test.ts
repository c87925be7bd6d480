// Code completion in a real editor, through the extension's own client against the emulator's scripted coder model:
// VS Code's own inline-suggestion commands trigger a suggestion, accept it (Tab: inlineSuggest.commit), accept a word
// and hide it. Secret and huge files get no request; a gateway without /v1/completions (sub2api) gets the chat fill
// once and it is remembered; a 429 while typing is not waited out (the completion is skipped, the status bar says
// so), and its wait holds that key only.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { editorAtEnd } from '../support/editors';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { closeEditorsWithoutSaving, testHook, waitForValue, EXTENSION_ID } from '../support/hostTest';

const CODER_KEY = 'mg-coder-key-0011';
const KEY_NAME = 'completions-coder';
// Another key (the emulator's chat-only group lists claude-demo-haiku): a 429 of the coder key must not hold it.
const OTHER_KEY = 'mg-chat-only-0002';
const OTHER_KEY_NAME = 'completions-other';

describe('code completion in the editor', function () {
  this.timeout(120_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;
  const config = () => vscode.workspace.getConfiguration('modelGateway.completions');

  before(async function () {
    if (!admin || !vscode.workspace.workspaceFolders?.length) this.skip();
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await config().update('model', 'qwen2.5-coder-demo', vscode.ConfigurationTarget.Global);
    await config().update('enabled', true, vscode.ConfigurationTarget.Global);
    await testHook('setApiKey', { name: KEY_NAME, secret: CODER_KEY });
    await testHook('forgetLearnedCompletionModes');
  });

  after(async () => {
    await closeEditorsWithoutSaving();
    await config().update('enabled', undefined, vscode.ConfigurationTarget.Global);
    await config().update('model', undefined, vscode.ConfigurationTarget.Global);
    await admin?.setDialect(null).catch(() => undefined);
    await admin?.setFaults(CODER_KEY, null).catch(() => undefined);
    await testHook('forgetLearnedCompletionModes').then(undefined, () => undefined);
    await testHook('removeApiKey', OTHER_KEY_NAME).then(undefined, () => undefined);
    await testHook('removeApiKey', KEY_NAME).then(undefined, () => undefined);
  });

  const since = async (): Promise<Set<string>> => new Set((await admin!.requests()).map((r) => r.id));
  const newPosts = async (before: Set<string>): Promise<AdminRequestEntry[]> =>
    (await admin!.requests()).filter(
      // A gateway without the route answers 404 before reading the key: those entries have no key name.
      (r) => !before.has(r.id) && r.method === 'POST' && (r.keyName === 'coder' || r.keyName === undefined),
    );

  /** Triggers the suggestion until accepting it changed the document (VS Code shows it once the answer is in). */
  async function acceptWith(editor: vscode.TextEditor, command: string, expected: (text: string) => boolean) {
    return waitForValue(`the document after ${command}`, async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      await new Promise((r) => setTimeout(r, 400));
      await vscode.commands.executeCommand(command);
      const text = editor.document.getText();
      return expected(text) ? text : undefined;
    });
  }

  it('ghost text from the coder model over POST /v1/completions; Tab (inlineSuggest.commit) accepts it', async () => {
    const before = await since();
    const editor = await editorAtEnd(
      'completion-fib.ts',
      'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(n',
    );
    const text = await acceptWith(editor, 'editor.action.inlineSuggest.commit', (t) => t.endsWith('fibonacci(n - 2);'));
    assert.ok(text.endsWith('  return fibonacci(n - 1) + fibonacci(n - 2);'), text);
    const posts = await newPosts(before);
    assert.ok(posts.length >= 1 && posts.every((p) => p.path === '/v1/completions'), JSON.stringify(posts));
    const stats = await testHook<{ shown: number; accepted: number }>('completionStats');
    assert.ok(stats.shown >= 1 && stats.accepted >= 1, JSON.stringify(stats));
  });

  it('acceptNextWord takes the first word only; hide dismisses the rest', async () => {
    const editor = await editorAtEnd(
      'completion-clamp.ts',
      'export function clamp(value: number, min: number, max: number): number {\n  return Math.min(',
    );
    const text = await acceptWith(
      editor,
      'editor.action.inlineSuggest.acceptNextWord',
      (t) => !t.endsWith('Math.min('),
    );
    const added = text.slice(text.lastIndexOf('Math.min(') + 'Math.min('.length);
    assert.ok(
      'Math.max(value, min), max);'.startsWith(added) && added.length < 'Math.max(value, min), max);'.length,
      added,
    );
    await vscode.commands.executeCommand('editor.action.inlineSuggest.hide');
  });

  it('a one-api gateway relays POST /v1/completions: Tab accepts the fill there too', async () => {
    await admin!.setDialect('one-api');
    try {
      const before = await since();
      const editor = await editorAtEnd(
        'completion-oneapi.ts',
        'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(n',
      );
      await acceptWith(editor, 'editor.action.inlineSuggest.commit', (t) => t.endsWith('fibonacci(n - 2);'));
      const posts = await newPosts(before);
      assert.ok(
        posts.length > 0 && posts.every((r) => r.path === '/v1/completions' && r.status === 200),
        JSON.stringify(posts),
      );
    } finally {
      await admin!.setDialect(null);
    }
  });

  /**
   * The log once the earlier tests' editors are closed and no request has started for a second: after an accept, VS
   * Code asks for the next suggestion by itself, and on a loaded machine that request can start seconds later.
   */
  async function settledSince(): Promise<Set<string>> {
    await closeEditorsWithoutSaving();
    const newest = async () => (await admin!.requests()).at(-1)?.id;
    let last = await newest();
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const now = await newest();
      if (now === last) break;
      last = now;
    }
    return since();
  }

  it('a secret file (.env*) and a file over the size limit get no request', async () => {
    // Seen failing twice on loaded machines (a POST counted here): the suggestion VS Code asked for after the
    // previous test's accept started after this test began.
    const before = await settledSince();
    await editorAtEnd('.env.completion.ts', 'const token = ');
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await waitForValue(
      'the secret refusal',
      async () => (await testHook<Record<string, number>>('completionRefusals'))['secret'],
    );
    await editorAtEnd('completion-huge.ts', `${'// filler line for a large file\n'.repeat(20_000)}const x = `);
    await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
    await waitForValue(
      'the size refusal',
      async () => (await testHook<Record<string, number>>('completionRefusals'))['too-large'],
    );
    assert.deepStrictEqual(await newPosts(before), []);
  });

  it('a gateway without /v1/completions (sub2api: 404) gets the chat fill once, and remembers it', async () => {
    await admin!.setDialect('sub2api');
    try {
      const before = await since();
      const editor = await editorAtEnd(
        'completion-fallback.ts',
        'export function clamp(value: number, min: number, max: number): number {\n  return Math.min(Math.max(',
      );
      await acceptWith(editor, 'editor.action.inlineSuggest.commit', (t) => t.includes('Math.max(value, min), max'));
      const posts = (await newPosts(before)).map((r) => `${r.path} ${r.status}`);
      // Refused once, then the chat fill (a keystroke may cancel a chat fill; the FIM route is never tried again).
      assert.deepStrictEqual(
        posts.filter((p) => p.startsWith('/v1/completions')),
        ['/v1/completions 404'],
        posts.join(),
      );
      assert.equal(posts[0], '/v1/completions 404');
      assert.ok(posts.includes('/v1/messages 200'), posts.join());
      const learned = await testHook<Record<string, string>>('learnedCompletionModes');
      assert.deepStrictEqual(Object.values(learned), ['chat']);
      const again = await since();
      const second = await editorAtEnd(
        'completion-fallback2.ts',
        'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(n',
      );
      await acceptWith(second, 'editor.action.inlineSuggest.commit', (t) => t.endsWith('fibonacci(n - 2);'));
      const later = await newPosts(again);
      assert.ok(later.length > 0 && later.every((r) => r.path === '/v1/messages'), 'no second try of /v1/completions');
    } finally {
      await admin!.setDialect(null);
      await testHook('forgetLearnedCompletionModes');
    }
  });

  it('a 429 while typing is not waited out: the completion is skipped, the status bar says so; another key goes on at once', async () => {
    // A retry starts where the first attempt began: the coder key active with its model.
    await testHook('switchKey', KEY_NAME);
    await config().update('model', 'qwen2.5-coder-demo', vscode.ConfigurationTarget.Global);
    // No earlier test's editor left open to ask for a completion, and the log read before the fault is set: an
    // inline suggestion still on its way from another editor would take the one 429 before this test looked.
    await closeEditorsWithoutSaving();
    const before = await since();
    await admin!.setFaults(CODER_KEY, { status: 429, retryAfter: 60, count: 1 });
    const editor = await editorAtEnd(
      'completion-429.ts',
      'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(',
    );
    await waitForValue('the snoozed status', async () => {
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      const text = await testHook<string>('completionStatusText');
      return /snoozed|暂停/i.test(text) ? text : undefined;
    });
    // Typing on while snoozed: the provider is asked and refuses without a request.
    await waitForValue('the snoozed refusal', async () => {
      await editor.edit((b) => b.insert(editor.selection.active, 'n'));
      await vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
      return (await testHook<Record<string, number>>('completionRefusals'))['snoozed'];
    });
    const posts = await newPosts(before);
    assert.deepStrictEqual(
      posts.map((r) => `${r.path} ${r.status}`),
      ['/v1/completions 429'],
      'one request, never retried while the gateway asked to wait',
    );
    // The wait (60 s) is the gateway's word about this key: another key's completions go out at once.
    await testHook('setApiKey', { name: OTHER_KEY_NAME, secret: OTHER_KEY });
    await config().update('model', 'claude-demo-haiku', vscode.ConfigurationTarget.Global);
    await waitForValue('the status bar naming the model', async () => {
      const text = await testHook<string>('completionStatusText');
      return text.includes('claude-demo-haiku') ? text : undefined;
    });
    const switched = await since();
    const other = await editorAtEnd(
      'completion-other-key.ts',
      'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(n',
    );
    await acceptWith(other, 'editor.action.inlineSuggest.commit', (t) => !t.endsWith('fibonacci(n'));
    const sent = (await admin!.requests()).filter((r) => !switched.has(r.id) && r.method === 'POST');
    assert.ok(
      sent.length > 0 && sent.every((r) => r.keyName === 'chat-only' && r.status === 200),
      JSON.stringify(sent.map((r) => `${r.keyName} ${r.path} ${r.model} ${r.status}`)),
    );
  });
});
