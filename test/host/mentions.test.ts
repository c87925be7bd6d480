// @-mention resolution inside a real VS Code: files.exclude and the secret patterns in the list, a secret file refused
// with the agent's own words (the policy's read_file refusal, compared as strings), a link out of the workspace not
// followed, a folder's listing with secrets marked, the selection, the problems, and the terminal's last command read
// through shell integration (or the entry saying that there is none).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { decide } from '../../src/agent';
import { createAgentHost, type AgentHost } from '../../src/agentHost';
import { attachmentTokens } from '../../src/chat/composer/attachments';
import { MentionHost } from '../../src/chat/host/mentionHost';
import { TerminalRecorder } from '../../src/chat/host/terminalRecorder';
import type { ChatAttachment } from '../../src/shared/protocol/chat';
import { closeEditorsWithoutSaving, waitForValue } from '../support/hostTest';
import { makeTempDir, removeTempDir } from '../support/tempDir';

/** A line in the harness's live progress output: which terminal branch ran, a fact for the report. */
function report(line: string): void {
  const file = process.env.MG_HOST_RESULTS;
  if (file) fs.appendFileSync(`${file}.progress`, `[mentions] ${line}\n`);
}

function attachment(r: Awaited<ReturnType<MentionHost['resolve']>>): ChatAttachment {
  if ('refusal' in r) throw new Error(`refused: ${r.refusal}`);
  return r;
}
function refusal(r: Awaited<ReturnType<MentionHost['resolve']>>): string {
  if (!('refusal' in r)) throw new Error(`attached ${r.kind} ${r.path}: ${r.text.slice(0, 200)}`);
  return r.refusal;
}

describe('@-mentions in the extension host', function () {
  this.timeout(60_000);
  let host: AgentHost;
  let terminals: TerminalRecorder;
  let mentions: MentionHost;
  let root: string;
  let dir: string;
  let storage: string;
  let outside: string;
  let ids = 0;
  const rel = (name: string) => `${path.basename(dir)}/${name}`;

  before(() => {
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = fs.mkdtempSync(path.join(root, 'mentions-test-'));
    storage = makeTempDir('mentions-storage');
    outside = makeTempDir('mentions-outside');
    // A scheme of its own: the extension's agent host (loaded by earlier suites) holds the default one.
    host = createAgentHost({
      storage: { globalStorageUri: vscode.Uri.file(storage) },
      proposalScheme: 'model-gateway-proposal-mentions',
    });
    terminals = new TerminalRecorder();
    mentions = new MentionHost(
      () => host.snapshot(),
      terminals,
      () => `m${++ids}`,
    );
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'notes.md'), '# Notes\nMENTION-BODY-42\n');
    fs.mkdirSync(path.join(dir, 'sub', 'node_modules', 'dep'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'sub', 'node_modules', 'dep', 'mention-dep.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(dir, '.env'), 'API_TOKEN=MENTION-SECRET\n');
    fs.writeFileSync(path.join(outside, 'plain.txt'), 'OUTSIDE-TEXT');
    fs.symlinkSync(path.join(outside, 'plain.txt'), path.join(dir, 'link-out.txt'));
  });

  after(async () => {
    await closeEditorsWithoutSaving();
    terminals?.dispose();
    host?.dispose();
    for (const d of [dir, storage, outside]) removeTempDir(d);
  });

  it('mentions: a file is read by the host when picked; the list gave only its name and size', async () => {
    const listed = await waitForValue('notes.md in the list', async () =>
      (await mentions.search('mentions notes')).find((o) => o.path === rel('notes.md')),
    );
    assert.deepStrictEqual(
      { kind: listed.kind, detail: listed.detail, tokens: listed.tokens },
      {
        kind: 'file',
        detail: path.basename(dir),
        tokens: attachmentTokens('file', rel('notes.md'), fs.statSync(path.join(dir, 'notes.md')).size),
      },
    );
    const a = attachment(await mentions.resolve('file', rel('notes.md')));
    assert.strictEqual(a.kind, 'file');
    assert.strictEqual(a.path, rel('notes.md'));
    assert.match(a.text, /MENTION-BODY-42/);
    assert.strictEqual(a.tokens, listed.tokens, 'one estimate: the chip shows what the list showed');
  });

  it('mentions: node_modules stays out of the file list (a dependency tree would fill its scan cap), as in find_files', async () => {
    await waitForValue('notes.md in the list', async () =>
      (await mentions.search('mentions notes')).find((o) => o.path === rel('notes.md')),
    );
    const listed = (await mentions.search('mention-dep')).map((o) => o.path ?? o.kind);
    assert.ok(!listed.some((p) => p.includes('node_modules')), `listed: ${JSON.stringify(listed)}`);
  });

  it('mentions: a secret file is refused with the same note the agent shows, listed only when asked for', async () => {
    const note = refusal(await mentions.resolve('file', rel('.env')));
    const snap = await host.snapshot();
    const verdict = decide(
      { toolName: 'read_file', approvalClass: 'read', target: { paths: [fs.realpathSync(path.join(dir, '.env'))] } },
      snap.policy,
    );
    assert.strictEqual(verdict.decision, 'refuse');
    assert.strictEqual(note, verdict.reason, 'the agent’s words, word for word');
    assert.strictEqual(
      note,
      `${rel('.env')} matches the secrets ignore list (.env*): it is not shared with the model.`,
    );
    const bare = await mentions.search('');
    assert.ok(!bare.some((o) => o.path === rel('.env')), 'a bare @ does not list secret files');
    const asked = await waitForValue('.env in the list', async () =>
      (await mentions.search(`${path.basename(dir)}/.env`)).find((o) => o.path === rel('.env')),
    );
    assert.deepStrictEqual(
      { unavailable: asked.unavailable, detail: asked.detail, tokens: asked.tokens },
      {
        unavailable: true,
        detail: note,
        tokens: undefined,
      },
    );
  });

  it('mentions: a link out of the workspace is not followed; a folder lists its entries with secrets marked', async () => {
    assert.match(refusal(await mentions.resolve('file', rel('link-out.txt'))), /outside the workspace folders/);
    const folder = attachment(await mentions.resolve('folder', path.basename(dir)));
    assert.strictEqual(folder.kind, 'folder');
    assert.strictEqual(folder.text, 'sub/\n.env (secret: not shared)\nlink-out.txt\nnotes.md');
    assert.ok(!folder.text.includes('MENTION-SECRET'));
  });

  it('mentions: open editors first in a bare list; the selection of the active editor (and Ask about File), refused in a secret file', async () => {
    await closeEditorsWithoutSaving();
    const doc = await vscode.workspace.openTextDocument(path.join(dir, 'notes.md'));
    const editor = await vscode.window.showTextDocument(doc);
    const bare = await mentions.search('');
    assert.strictEqual(bare.find((o) => o.path)?.path, rel('notes.md'), 'a bare @ lists the open editors first');
    editor.selection = new vscode.Selection(1, 0, 1, 15);
    const a = attachment(await mentions.resolve('selection', undefined));
    assert.deepStrictEqual([a.kind, a.text, a.startLine, a.endLine], ['selection', 'MENTION-BODY-42', 2, 2]);
    const secret = await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument(path.join(dir, '.env')),
    );
    secret.selection = new vscode.Selection(0, 0, 0, 9);
    assert.match(
      refusal(await mentions.resolve('selection', undefined)),
      /matches the secrets ignore list \(\.env\*\)/,
    );
    // Ask about File / Selection take the same road: the whole secret file is refused, a plain one attached whole.
    assert.match(refusal(await mentions.fromEditor(secret, true)), /matches the secrets ignore list \(\.env\*\)/);
    const whole = attachment(await mentions.fromEditor(await vscode.window.showTextDocument(doc), true));
    assert.deepStrictEqual([whole.kind, whole.text], ['file', '# Notes\nMENTION-BODY-42\n']);
  });

  it('mentions: the workspace problems as path:line:col severity message', async () => {
    const collection = vscode.languages.createDiagnosticCollection('mentions-test');
    try {
      const uri = vscode.Uri.file(path.join(dir, 'notes.md'));
      collection.set(uri, [
        new vscode.Diagnostic(new vscode.Range(1, 2, 1, 4), 'MENTION-PROBLEM', vscode.DiagnosticSeverity.Error),
      ]);
      collection.set(vscode.Uri.file(path.join(dir, '.env')), [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'quotes MENTION-SECRET', vscode.DiagnosticSeverity.Error),
      ]);
      const a = attachment(await mentions.resolve('problems', undefined));
      assert.ok(a.text.includes(`${rel('notes.md')}:2:3 error MENTION-PROBLEM`), a.text);
      assert.ok(!a.text.includes('MENTION-SECRET'), 'problems of secret files are left out');
    } finally {
      collection.dispose();
    }
  });

  it('mentions: the terminal’s last command through shell integration, or the entry says there is none', async () => {
    const terminal = vscode.window.createTerminal({ name: 'mentions-test', cwd: dir });
    try {
      terminal.show();
      await waitForValue('the test terminal active', () => vscode.window.activeTerminal === terminal);
      const integrated = await waitForValue(
        'shell integration',
        () => terminal.shellIntegration ?? false,
        15_000,
      ).catch(() => undefined);
      report(`terminal on VS Code ${vscode.version}: shell integration ${integrated ? 'active' : 'did not activate'}`);
      if (!integrated) {
        const option = (await mentions.search('terminal')).find((o) => o.kind === 'terminal');
        assert.strictEqual(option?.unavailable, true);
        assert.match(option?.detail ?? '', /has no shell integration/);
        assert.match(refusal(await mentions.resolve('terminal', undefined)), /has no shell integration/);
        return;
      }
      assert.match(refusal(await mentions.resolve('terminal', undefined)), /No command has finished/);
      // The sleep keeps the command running past its output: VS Code 1.100.3 can end the execution's stream before a
      // very short command's output reached it (seen once here: "(no output)").
      integrated.executeCommand('echo MENTION-TERM-$((40+2)); sleep 1');
      const a = await waitForValue('the recorded run', async () => {
        const r = await mentions.resolve('terminal', undefined);
        return 'refusal' in r || !r.text.includes('[exit code 0]') ? false : r;
      });
      assert.strictEqual(a.kind, 'terminal');
      // The folder the command ran in follows it when shell integration had reported it by then (not always, on a
      // loaded machine): then it is the terminal's.
      const head = /^\$ echo MENTION-TERM-\$\(\(40\+2\)\); sleep 1(?: {3}\(in (.+)\))?\n/.exec(a.text);
      assert.ok(head, a.text);
      if (head[1] !== undefined) assert.strictEqual(path.resolve(head[1]), path.resolve(dir));
      assert.match(a.text, /\nMENTION-TERM-42\n/);
    } finally {
      terminal.dispose();
    }
  });
});
