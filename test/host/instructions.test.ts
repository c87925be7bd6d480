// Project instructions read inside a real VS Code: the nearest AGENTS.md above the active editor's file, an
// instruction file that is a symlink out of the workspace, into .git or .vscode is not read (and the chat says so),
// and only the user's settings scope can turn the files off (a workspace value is ignored).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { readProjectInstructions } from '../../src/agentHost';
import { makeTempDir, removeTempDir } from '../support/tempDir';
import { closeEditorsWithoutSaving } from '../support/hostTest';

describe('project instructions in the extension host', function () {
  this.timeout(60_000);
  let root: string;
  let dir: string;
  let outside: string;
  const settings = () => vscode.workspace.getConfiguration('modelGateway.agent');
  const settingsFile = () => path.join(root, '.vscode', 'settings.json');
  let workspaceSettings: string | undefined;

  before(() => {
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = fs.mkdtempSync(path.join(root, 'instructions-test-'));
    outside = makeTempDir('instructions-outside');
  });

  after(async () => {
    await closeEditorsWithoutSaving();
    await settings().update('useInstructionFiles', undefined, vscode.ConfigurationTarget.Global);
    if (workspaceSettings !== undefined) fs.writeFileSync(settingsFile(), workspaceSettings);
    else fs.rmSync(settingsFile(), { force: true });
    fs.rmSync(path.join(root, 'CLAUDE.md'), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
    removeTempDir(outside);
  });

  it('instructions: the nearest AGENTS.md above the active file is read; a CLAUDE.md linking out of the workspace is not', async () => {
    fs.mkdirSync(path.join(dir, 'pkg', 'src'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'pkg', 'AGENTS.md'), 'Package rule: use tabs.\n');
    fs.writeFileSync(path.join(dir, 'pkg', 'src', 'x.ts'), 'export const x = 1;\n');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'CLAUDE.md'));
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'pkg', 'src', 'x.ts')));
    const found = await readProjectInstructions();
    const names = found.sources.map((s) => s.name);
    assert.ok(names.includes(`${path.basename(dir)}/pkg/AGENTS.md`), JSON.stringify(names));
    assert.ok(!names.includes('CLAUDE.md'), JSON.stringify(names));
    assert.match(found.prompt, /Package rule: use tabs\./);
    assert.ok(!found.prompt.includes('OUTSIDE-SECRET'));
  });

  it('instructions: links into .git and .vscode are not sent, the chat says which and why; the chip names the real file', async () => {
    const pkg = path.join(dir, 'linked');
    fs.mkdirSync(path.join(pkg, 'src'), { recursive: true });
    fs.mkdirSync(path.join(pkg, '.git'), { recursive: true });
    fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
    fs.writeFileSync(
      path.join(pkg, '.git', 'config'),
      '[remote "origin"]\n\turl = https://u:GIT-TOKEN-123@example.com/r\n',
    );
    fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), '{ "db.password": "VSCODE-PASSWORD-123" }');
    fs.writeFileSync(path.join(dir, 'docs', 'agents.md'), 'Linked rule: use spaces.\n');
    fs.writeFileSync(path.join(pkg, 'src', 'y.ts'), 'export const y = 1;\n');
    fs.symlinkSync(path.join(pkg, '.git', 'config'), path.join(pkg, 'AGENTS.md'));
    fs.rmSync(path.join(root, 'CLAUDE.md'), { force: true });
    fs.symlinkSync(path.join(dir, '.vscode', 'settings.json'), path.join(root, 'CLAUDE.md'));
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(pkg, 'src', 'y.ts')));
    const found = await readProjectInstructions();
    assert.ok(!found.prompt.includes('GIT-TOKEN-123'), found.prompt);
    assert.ok(!found.prompt.includes('VSCODE-PASSWORD-123'), found.prompt);
    const notes = found.notes.join('\n');
    assert.match(notes, /linked\/AGENTS\.md was not sent to the model: .*\.git folder/, notes);
    assert.match(notes, /CLAUDE\.md was not sent to the model: .*\.vscode/, notes);
    // A link to an ordinary file is read, and named by the file it leads to.
    fs.rmSync(path.join(root, 'CLAUDE.md'));
    fs.symlinkSync(path.join(dir, 'docs', 'agents.md'), path.join(root, 'CLAUDE.md'));
    const linked = await readProjectInstructions();
    assert.match(linked.prompt, /Linked rule: use spaces\./);
    const names = linked.sources.map((s) => s.name);
    assert.ok(names.includes(`${path.basename(dir)}/docs/agents.md`), JSON.stringify(names));
    fs.rmSync(path.join(root, 'CLAUDE.md'));
    // The next test reads the first test's AGENTS.md, above this file.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'pkg', 'src', 'x.ts')));
  });

  it('instructions: a workspace setting cannot turn the files off; the user setting can', async () => {
    // The API refuses to write this user-only setting into the workspace; a cloned repository's file can hold it.
    workspaceSettings = fs.existsSync(settingsFile()) ? fs.readFileSync(settingsFile(), 'utf8') : undefined;
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    fs.writeFileSync(settingsFile(), JSON.stringify({ 'modelGateway.agent.useInstructionFiles': false }));
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok((await readProjectInstructions()).sources.length > 0, 'the workspace value is ignored');
    await settings().update('useInstructionFiles', false, vscode.ConfigurationTarget.Global);
    const off = await readProjectInstructions();
    assert.deepStrictEqual(off.sources, []);
    assert.strictEqual(off.prompt, '');
  });
});
