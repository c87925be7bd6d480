// Instruction files that are symbolic links (issue 32): AGENTS.md, CLAUDE.md and .github/copilot-instructions.md
// linking to .git/config, .vscode/settings.json, a *.code-workspace file, .env or a file outside the workspace are
// judged on their real path by read_file's own rule, and are not sent; a link to an ordinary file is. Real links
// on disk, resolved as the host resolves them (realpath).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decide, instructionFileRefusal, ROOT_INSTRUCTION_FILES } from '../../../src/agent';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

describe('project instructions: links judged on their real path, as read_file judges them', function () {
  if (process.platform === 'win32') return;
  let base: string;
  let ws: string;
  let outside: string;

  before(() => {
    base = makeTempDir('instruction-links');
    ws = path.join(base, 'ws');
    outside = path.join(base, 'outside.md');
    for (const dir of ['.git', '.vscode', '.github', 'docs']) fs.mkdirSync(path.join(ws, dir), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.git', 'config'),
      '[remote "origin"]\n\turl = https://user:TOKEN123@example.com/r\n',
    );
    fs.writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{ "db.password": "PASSWORD123" }');
    fs.writeFileSync(path.join(ws, 'team.code-workspace'), '{ "settings": { "token": "WS123" } }');
    fs.writeFileSync(path.join(ws, '.env'), 'API_TOKEN=ENV123');
    fs.writeFileSync(path.join(ws, 'docs', 'agents.md'), 'Use tabs.');
    fs.writeFileSync(outside, 'OUTSIDE123');
  });

  after(() => removeTempDir(base));

  const targets: Array<[string, RegExp]> = [
    ['.git/config', /\.git folder/],
    ['.vscode/settings.json', /\.vscode/],
    ['team.code-workspace', /workspace file/],
    ['.env', /secrets ignore list/],
    ['../outside.md', /outside the workspace/],
  ];

  for (const name of ROOT_INSTRUCTION_FILES) {
    for (const [target, why] of targets) {
      it(`${name} → ${target} is not sent, and says why`, () => {
        const link = path.join(ws, name);
        fs.rmSync(link, { force: true });
        fs.symlinkSync(path.join(ws, target), link);
        const real = fs.realpathSync(link);
        const policy = { workspaceFolders: [ws] };
        const refusal = instructionFileRefusal(link, real, policy);
        assert.ok(refusal, `${name} → ${target} would be sent`);
        assert.match(refusal, why);
        // The same predicate as read_file's: a read of that real path is not automatic either.
        const read = decide({ toolName: 'read_file', approvalClass: 'read', target: { paths: [real] } }, policy);
        assert.notEqual(read.decision, 'auto');
      });
    }
  }

  it('a link to an ordinary workspace file, and a plain file, are sent', () => {
    const link = path.join(ws, 'AGENTS.md');
    fs.rmSync(link, { force: true });
    fs.symlinkSync(path.join(ws, 'docs', 'agents.md'), link);
    assert.equal(instructionFileRefusal(link, fs.realpathSync(link), { workspaceFolders: [ws] }), undefined);
    const plain = path.join(ws, 'CLAUDE.md');
    fs.rmSync(plain, { force: true });
    fs.writeFileSync(plain, 'Be brief.');
    assert.equal(instructionFileRefusal(plain, plain, { workspaceFolders: [ws] }), undefined);
  });
});
