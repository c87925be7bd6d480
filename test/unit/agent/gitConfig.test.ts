// Repository-supplied git configuration (issue 23, path 2): an allow-listed `git status` in a repository whose
// config sets core.fsmonitor to a script ran that script unasked. On real `git init` folders: the check finds the
// key (top repository, nested ones, worktree-style `.git` files, submodule configs) and the policy asks; the
// environment auto-approved commands get also keeps git from running the script.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decide } from '../../../src/agent';
import { codeRunningKeys, HARDENED_GIT_ENV, repositoryConfigRisks } from '../../../src/agentHost/gitConfig';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: 'pipe' });
}

/** A repository whose core.fsmonitor is a script that leaves a marker file when git runs it. */
function armedRepo(dir: string, marker: string): void {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q']);
  const script = path.join(dir, 'fsmonitor.sh');
  fs.writeFileSync(script, `#!/bin/sh\necho ran > '${marker}'\n`, { mode: 0o755 });
  git(dir, ['config', 'core.fsmonitor', script]);
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  git(dir, ['add', 'a.txt']);
}

describe('git repository configuration before an allow-listed git command', function () {
  if (process.platform === 'win32') return;
  let root: string;
  beforeEach(() => (root = makeTempDir('gitcfg')));
  afterEach(() => removeTempDir(root));

  it('asks before `git status` in a repository whose core.fsmonitor runs a script, and the script does not run', () => {
    const ws = path.join(root, 'ws');
    const marker = path.join(root, 'marker');
    armedRepo(ws, marker);
    // The fixture is real: plain git runs the script.
    git(ws, ['status', '--short']);
    assert.ok(fs.existsSync(marker), 'git ran the fsmonitor script');
    fs.rmSync(marker);

    const risks = repositoryConfigRisks(ws);
    assert.deepEqual(risks, [{ file: path.join(ws, '.git', 'config'), key: 'core.fsmonitor' }]);
    const verdict = decide(
      {
        toolName: 'run_command',
        approvalClass: 'command',
        target: { command: 'git status', paths: [ws], cwd: ws, repoConfig: risks },
      },
      { workspaceFolders: [ws], commandAllowList: ['git status', 'git *'], autoApproveWrites: true },
    );
    assert.equal(verdict.decision, 'ask');
    assert.equal(verdict.rule, 'command-repo-config');
    assert.match(verdict.reason, /core\.fsmonitor/);
    assert.ok(!fs.existsSync(marker), 'nothing ran while deciding');

    // Auto-approved commands run with the hardening environment: git leaves the script alone.
    git(ws, ['status', '--short'], HARDENED_GIT_ENV);
    assert.ok(!fs.existsSync(marker), 'the hardened environment kept git from running the script');
  });

  it('finds the configuration of repositories nested in the working folder and of `.git` files', () => {
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    armedRepo(path.join(ws, 'vendor', 'lib'), path.join(root, 'm1'));
    // A `.git` file pointing at a repository elsewhere (how worktrees and submodules look).
    const elsewhere = path.join(root, 'elsewhere.git');
    git(root, ['init', '-q', '--bare', elsewhere]);
    git(elsewhere, ['config', 'alias.st', '!sh -c "touch pwned"']);
    fs.mkdirSync(path.join(ws, 'pkg'));
    fs.writeFileSync(path.join(ws, 'pkg', '.git'), `gitdir: ${elsewhere}\n`);
    const keys = repositoryConfigRisks(ws)
      .map((r) => `${path.relative(root, r.file)} ${r.key}`)
      .sort();
    assert.deepEqual(keys, ['elsewhere.git/config alias.st', 'ws/vendor/lib/.git/config core.fsmonitor']);
  });

  it('a plain repository has nothing to report, so allow-listed git stays automatic', () => {
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    git(ws, ['init', '-q']);
    assert.deepEqual(repositoryConfigRisks(ws), []);
  });

  it('reads every spelling of the code-running keys', () => {
    const text = [
      '[core]',
      '\tfsmonitor = true',
      '\tpager = less -R',
      '[Filter "x"]',
      '  clean = ./clean.sh',
      '[diff "bin"] textconv = ./t.sh',
      '[diff]',
      '  external = ./d.sh',
      '[includeIf "gitdir:/"]',
      '  path = ../evil.cfg',
      '[core.fsmonitor-sub]',
      '[credential]',
      '  helper = !./h.sh',
      '[user]',
      '  name = me',
    ].join('\n');
    assert.deepEqual(codeRunningKeys(text), [
      'core.pager',
      'filter.x.clean',
      'diff.bin.textconv',
      'diff.external',
      'includeif.gitdir:/.path',
      'credential.helper',
    ]);
  });
});
