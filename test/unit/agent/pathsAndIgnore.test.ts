// Path containment and the secrets ignore list (pure helpers the approval policy stands on).
import * as assert from 'node:assert/strict';
import {
  containingFolder,
  DEFAULT_SECRET_PATTERNS,
  isPathInside,
  matchIgnored,
  parseIgnoreFile,
} from '../../../src/agent';
import { matchGlob } from '../../../src/agent/glob';

describe('agent path containment', () => {
  const cases: Array<[child: string, parent: string, inside: boolean, caseInsensitive?: boolean]> = [
    ['/ws', '/ws', true],
    ['/ws/', '/ws', true],
    ['/ws', '/ws/', true],
    ['/ws/a/b.ts', '/ws', true],
    ['/ws/a/b.ts', '/ws///', true],
    ['/ws2', '/ws', false],
    ['/ws2/a', '/ws', false],
    ['/w', '/ws', false],
    ['/ws/../ws2/a', '/ws', false],
    ['/ws/a/../../etc/passwd', '/ws', false],
    ['/ws/a/../b', '/ws', true],
    ['/ws/./a', '/ws/.', true],
    ['/other/../ws/a', '/ws', true],
    ['/WS/a', '/ws', false],
    ['/WS/a', '/ws', true, true],
    ['/ws/a', '/', true],
    ['relative/a', '/ws', false],
    ['', '/ws', false],
    ['/ws/a', '', false],
    ['/ws/a\0b', '/ws', false],
    ['C:\\Work\\Repo\\src\\a.ts', 'c:\\work\\repo', true],
    ['C:\\Work\\Repo2\\a.ts', 'C:\\Work\\Repo', false],
    ['C:\\Work\\Repo\\..\\Other\\a.ts', 'C:\\Work\\Repo', false],
    ['C:/Work/Repo/a.ts', 'C:\\Work\\Repo\\', true],
    ['D:\\Work\\Repo\\a.ts', 'C:\\Work\\Repo', false],
    ['C:\\', 'C:\\', true],
    ['C:\\a', 'C:\\', true],
    ['\\\\server\\share\\repo\\a', '\\\\server\\share\\repo', true],
    ['\\\\server\\share\\repo2', '\\\\server\\share\\repo', false],
    ['C:relative\\a', 'C:\\', false],
  ];
  for (const [child, parent, inside, ci] of cases) {
    it(`${JSON.stringify(child)} ${inside ? 'is' : 'is not'} inside ${JSON.stringify(parent)}${ci ? ' (case-insensitive)' : ''}`, () => {
      assert.equal(isPathInside(child, parent, ci === undefined ? undefined : { caseInsensitive: ci }), inside);
    });
  }

  it('picks the deepest containing workspace folder', () => {
    assert.equal(
      containingFolder('/ws/packages/app/x.ts', ['/ws', '/ws/packages/app', '/ws/packages/app2']),
      '/ws/packages/app',
    );
    assert.equal(containingFolder('/ws2/x', ['/ws']), undefined);
  });
});

describe('agent secrets ignore list', () => {
  const refused = [
    '.env',
    '.env.local',
    'config/.env.production',
    '.envrc',
    'certs/server.pem',
    'tls/site.key',
    'TLS/SITE.KEY',
    'deploy/id_rsa',
    'id_ed25519',
    'home/.ssh/known_hosts',
    'keystore/app.p12',
    'cert.crt',
    '.npmrc',
    '.aws/credentials',
  ];
  const allowed = [
    'src/env.ts',
    'src/id_utils.ts',
    'guide/keys.md',
    'src/environment.ts',
    'keyboard.ts',
    'src/monkey.ts',
    'README.md',
    'pem.txt',
  ];
  for (const p of refused)
    it(`refuses ${p}`, () => assert.notEqual(matchIgnored(p, DEFAULT_SECRET_PATTERNS), undefined));
  for (const p of allowed) it(`allows ${p}`, () => assert.equal(matchIgnored(p, DEFAULT_SECRET_PATTERNS), undefined));

  it('applies user and ignore-file patterns: names at any depth, anchored paths, directories and their contents', () => {
    const patterns = parseIgnoreFile(
      '# secrets\r\n\nprivate/\n/config/prod.json\n*.sqlite\n!.env\n  data/**/dump-*.sql  \n',
    );
    assert.deepEqual(patterns, ['private/', '/config/prod.json', '*.sqlite', 'data/**/dump-*.sql']);
    assert.equal(matchIgnored('private/notes.txt', patterns), 'private/');
    assert.equal(matchIgnored('a/b/private/deep/x', patterns), 'private/');
    assert.equal(
      matchIgnored('private', patterns),
      undefined,
      'a directory-only pattern does not match a file of that name',
    );
    assert.equal(matchIgnored('config/prod.json', patterns), '/config/prod.json');
    assert.equal(matchIgnored('sub/config/prod.json', patterns), undefined, 'anchored at the folder root');
    assert.equal(matchIgnored('x/y/app.SQLITE', patterns), '*.sqlite');
    assert.equal(matchIgnored('data/2024/05/dump-1.sql', patterns), 'data/**/dump-*.sql');
    assert.equal(matchIgnored('data/dump-1.sql', patterns), 'data/**/dump-*.sql');
    // A negation in the ignore file (which the repository controls) cannot lift a default.
    assert.notEqual(matchIgnored('.env', [...DEFAULT_SECRET_PATTERNS, ...patterns]), undefined);
  });

  it('matches globs: *, **, ?, classes and braces', () => {
    assert.equal(matchGlob('*.ts', 'a.ts'), true);
    assert.equal(matchGlob('*.ts', 'dir/a.ts'), false);
    assert.equal(matchGlob('**/*.ts', 'a.ts'), true);
    assert.equal(matchGlob('**/*.ts', 'x/y/a.ts'), true);
    assert.equal(matchGlob('src/**', 'src/a/b'), true);
    assert.equal(matchGlob('file?.txt', 'file1.txt'), true);
    assert.equal(matchGlob('file?.txt', 'file/.txt'), false);
    assert.equal(matchGlob('[ab].txt', 'b.txt'), true);
    assert.equal(matchGlob('[!ab].txt', 'b.txt'), false);
    assert.equal(matchGlob('*.{pem,key}', 'x.key'), true);
    assert.equal(matchGlob('*.{pem,key', 'x.key'), true, 'an unclosed brace still compiles');
    assert.equal(matchGlob('a.b', 'aXb'), false, 'dots are literal');
    assert.equal(matchGlob('(x)+', '(x)+'), true, 'regex characters are literal');
  });
});
