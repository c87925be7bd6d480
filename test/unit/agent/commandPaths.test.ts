// With `cat *` allow-listed, an argument that is a symlink to a secret or out of the workspace, or a glob the shell
// expands to `.env`, must not run unasked: real symlinks on disk, judged by the policy as the command tool does.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decide } from '../../../src/agent';
import { linkedArgumentPaths } from '../../../src/agentHost/commandPaths';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

describe('command arguments reached through symlinks or globs', function () {
  if (process.platform === 'win32') return;
  let root: string;
  let ws: string;
  beforeEach(() => {
    root = makeTempDir('cmdpaths');
    ws = path.join(root, 'ws');
    fs.mkdirSync(path.join(root, 'home', '.ssh'), { recursive: true });
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(root, 'home', '.ssh', 'id_rsa'), 'PRIVATE\n');
    fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=1\n');
    fs.writeFileSync(path.join(ws, 'plain.txt'), 'hello\n');
    fs.symlinkSync(path.join(root, 'home', '.ssh', 'id_rsa'), path.join(ws, 'notes.txt'));
    fs.symlinkSync(path.join(ws, '.env'), path.join(ws, 'innocent.txt'));
  });
  afterEach(() => removeTempDir(root));

  async function verdict(command: string) {
    const linked = await linkedArgumentPaths(command, ws);
    return decide(
      { toolName: 'run_command', approvalClass: 'command', target: { command, paths: [ws, ...linked], cwd: ws } },
      { workspaceFolders: [ws], commandAllowList: ['cat *'], autoApproveWrites: true },
    );
  }

  it('a link to a secret is refused, a link out of the workspace asks, a plain file runs', async () => {
    assert.equal((await verdict('cat innocent.txt')).decision, 'refuse');
    const out = await verdict('cat notes.txt');
    assert.notEqual(out.decision, 'auto');
    assert.match(out.reason, /id_rsa|outside/);
    assert.equal((await verdict('cat plain.txt')).decision, 'auto');
  });

  it('a glob the shell would expand is not a plain argument', async () => {
    for (const c of ['cat .en?', 'cat .e*', 'cat [.]env', 'cat .{e,x}nv'])
      assert.notEqual((await verdict(c)).decision, 'auto', c);
  });
});
