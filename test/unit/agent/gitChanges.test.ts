// The `changes` @-mention runs git in a repository that may be hostile: its .git/config can name programs git runs
// (core.fsmonitor on every status, diff.external and textconv on every diff, clean filters). On real `git init`
// folders: the diff is read, the fixture's scripts demonstrably run under plain git, and never under the mention's.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { matchIgnored } from '../../../src/agent';
import { formatChanges, uncommittedChanges, unsafeKeys } from '../../../src/agentHost/gitChanges';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: 'pipe' });
}

const secrets = ['.env*', '*.pem'];
const isSecret = (rel: string) => matchIgnored(rel, secrets);

/** A repository with one commit: a.txt and .env tracked. */
function repo(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q']);
  git(dir, ['config', 'user.email', 't@example.com']);
  git(dir, ['config', 'user.name', 'T']);
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(dir, '.env'), 'TOKEN=old\n');
  git(dir, ['add', '.']);
  git(dir, ['commit', '-qm', 'init']);
}

/** A script that leaves `marker` when run. */
function script(dir: string, name: string, marker: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\necho ran >> '${marker}'\ncat "$@" 2>/dev/null\nexit 0\n`, { mode: 0o755 });
  return file;
}

describe('uncommitted changes for the @changes mention (real git)', function () {
  if (process.platform === 'win32') return;
  this.timeout(30_000);
  let root: string;
  beforeEach(() => (root = makeTempDir('changes')));
  afterEach(() => removeTempDir(root));

  it('reads the diff against HEAD (staged and unstaged), leaves secret files out and lists untracked names', async () => {
    const ws = path.join(root, 'ws');
    repo(ws);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\ntwo\n');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'staged\n');
    git(ws, ['add', 'b.txt']);
    fs.writeFileSync(path.join(ws, '.env'), 'TOKEN=new-secret-value\n');
    fs.writeFileSync(path.join(ws, 'new.md'), 'untracked body\n');
    fs.writeFileSync(path.join(ws, 'server.pem'), 'KEY\n');

    const result = await uncommittedChanges(ws, isSecret);
    assert.equal(result.kind, 'changes');
    if (result.kind !== 'changes') return;
    assert.match(result.diff, /\+two/);
    assert.match(result.diff, /\+staged/);
    assert.deepEqual(result.secretFiles, [{ path: '.env', pattern: '.env*' }]);
    assert.deepEqual(result.untracked.sort(), ['new.md', 'server.pem']);
    const text = formatChanges(result, isSecret);
    assert.ok(!text.includes('new-secret-value') && !text.includes('TOKEN'), 'the secret file’s content is not sent');
    assert.match(text, /\.env: changed, not shown: it matches the secrets ignore list \(\.env\*\)/);
    assert.match(text, /new\.md\n/);
    assert.match(text, /server\.pem \(secret: not shared\)/);
    assert.ok(!text.includes('untracked body'), 'untracked files are named, not read');
  });

  it('never runs the repository’s core.fsmonitor or diff.external (the marker stays absent)', async () => {
    const ws = path.join(root, 'ws');
    repo(ws);
    const marker = path.join(root, 'marker');
    git(ws, ['config', 'core.fsmonitor', script(root, 'fsmonitor.sh', marker)]);
    git(ws, ['config', 'diff.external', script(root, 'extdiff.sh', marker)]);
    fs.writeFileSync(path.join(root, 'ws', '.gitattributes'), '*.txt diff=conv\n');
    git(ws, ['config', 'diff.conv.textconv', script(root, 'textconv.sh', marker)]);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\nchanged\n');
    // The fixture is real: plain git runs the scripts.
    git(ws, ['diff', 'HEAD']);
    assert.ok(fs.existsSync(marker), 'plain git ran a script of the repository');
    fs.rmSync(marker);

    assert.deepEqual(unsafeKeys(ws), [], 'every key found is one the hardened call switches off');
    const result = await uncommittedChanges(ws, isSecret);
    assert.equal(result.kind, 'changes');
    assert.match(result.kind === 'changes' ? result.diff : '', /\+changed/, 'the real diff, not an external tool’s');
    assert.ok(!fs.existsSync(marker), 'no script of the repository ran');
  });

  it('refuses to run git when the config has a clean filter (it would run on the diff), naming the key', async () => {
    const ws = path.join(root, 'ws');
    repo(ws);
    const marker = path.join(root, 'marker');
    fs.writeFileSync(path.join(ws, '.gitattributes'), '*.txt filter=evil\n');
    git(ws, ['config', 'filter.evil.clean', script(root, 'clean.sh', marker)]);
    fs.writeFileSync(path.join(ws, 'a.txt'), 'one\nthree\n');
    const result = await uncommittedChanges(ws, isSecret);
    assert.deepEqual(result, { kind: 'unsafeConfig', keys: ['filter.evil.clean'] });
    assert.ok(!fs.existsSync(marker));
  });

  it('a diff larger than what is read is cut, not lost', async () => {
    const ws = path.join(root, 'ws');
    repo(ws);
    fs.writeFileSync(path.join(ws, 'a.txt'), `${'0123456789abcdef'.repeat(8)}\n`.repeat(80_000));
    const result = await uncommittedChanges(ws, isSecret);
    assert.equal(result.kind, 'changes');
    const diff = result.kind === 'changes' ? result.diff : '';
    assert.ok(diff.length > 1_000_000 && diff.length <= 8 * 1024 * 1024, String(diff.length));
    assert.match(diff, /^diff --git a\/a\.txt b\/a\.txt/);
  });

  it('a folder outside any repository, and a repository without a commit yet', async () => {
    const plain = path.join(root, 'plain');
    fs.mkdirSync(plain);
    // GIT_CEILING_DIRECTORIES keeps git from finding a repository above the temporary folder.
    process.env.GIT_CEILING_DIRECTORIES = root;
    try {
      assert.deepEqual(await uncommittedChanges(plain, isSecret), { kind: 'notRepository' });
      const fresh = path.join(root, 'fresh');
      fs.mkdirSync(fresh);
      git(fresh, ['init', '-q']);
      fs.writeFileSync(path.join(fresh, 'first.txt'), 'hello\n');
      git(fresh, ['add', 'first.txt']);
      const result = await uncommittedChanges(fresh, isSecret);
      assert.equal(result.kind, 'changes');
      assert.match(result.kind === 'changes' ? result.diff : '', /\+hello/);
    } finally {
      delete process.env.GIT_CEILING_DIRECTORIES;
    }
  });
});
