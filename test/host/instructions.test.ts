// Project instructions read inside a real VS Code: the nearest AGENTS.md above the active editor's file, an
// instruction file that is a symlink out of the workspace is not read, and only the user's settings scope can turn
// the files off (a workspace value is ignored).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { readProjectInstructions } from '../../src/agentHost';

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
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mg-instructions-outside-')));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await settings().update('useInstructionFiles', undefined, vscode.ConfigurationTarget.Global);
    if (workspaceSettings !== undefined) fs.writeFileSync(settingsFile(), workspaceSettings);
    else fs.rmSync(settingsFile(), { force: true });
    fs.rmSync(path.join(root, 'CLAUDE.md'), { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
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
