// Path containment and the secrets ignore list (pure helpers the approval policy stands on).
import * as assert from 'node:assert/strict';
import {
  expandBraces,
  containingFolder,
  DEFAULT_SECRET_PATTERNS,
  isPathInside,
  matchIgnored,
  parseIgnoreFile,
} from '../../../src/agent';

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

  // Each row was checked with `git check-ignore --no-index -v` against the same lines in a .gitignore.
  const gitRows: Array<[path: string, rule: string | undefined]> = [
    ['private/notes.txt', 'private/'],
    ['a/b/private/deep/x', 'private/'],
    ['private', undefined],
    ['config/prod.json', '/config/prod.json'],
    ['sub/config/prod.json', undefined],
    ['x/y/app.sqlite', '*.sqlite'],
    ['data/2024/05/dump-1.sql', 'data/**/dump-*.sql'],
    ['data/dump-1.sql', 'data/**/dump-*.sql'],
    ['#notes.txt', '\\#notes.txt'],
    ['sub/#notes.txt', '\\#notes.txt'],
    ['logs/a.log', 'logs/*'],
    ['build/x', '**/build'],
    ['src/build', '**/build'],
    ['foo/bar', 'foo/**'],
    ['foo', undefined],
    ['abc.txt', 'a?c.txt'],
    ['ab/c.txt', undefined],
    ['x.md', '[xy].md'],
    ['z.md', undefined],
  ];
  const gitLines = [
    'private/',
    '/config/prod.json',
    '*.sqlite',
    'data/**/dump-*.sql',
    '\\#notes.txt',
    'logs/*',
    '**/build',
    'foo/**',
    'a?c.txt',
    '[xy].md',
  ];
  for (const [p, rule] of gitRows)
    it(`gitignore semantics: ${p} ${rule ? `is ignored by ${rule}` : 'is not ignored'}`, () =>
      assert.equal(matchIgnored(p, gitLines), rule));

  it('a folder path (trailing slash) matches a directory-only pattern; `.`, `..` and empty segments do not hide names', () => {
    assert.equal(matchIgnored('private/', ['private/']), 'private/');
    assert.equal(matchIgnored('.ssh/', DEFAULT_SECRET_PATTERNS), '.ssh/');
    assert.equal(matchIgnored('./a//.env', DEFAULT_SECRET_PATTERNS), '.env*');
    assert.equal(matchIgnored('../ws/.aws/credentials', DEFAULT_SECRET_PATTERNS), '.aws/');
    assert.equal(matchIgnored('.', DEFAULT_SECRET_PATTERNS), undefined);
    assert.equal(matchIgnored('', DEFAULT_SECRET_PATTERNS), undefined);
    assert.equal(matchIgnored('.../x', ['x']), 'x', 'a folder named ... is tested, not thrown on');
  });

  it('negations never lift a refusal: not a built-in one, not one of the same list', () => {
    // In a .gitignore `!logs/keep.log` would re-include the file; here the list only adds refusals.
    assert.equal(matchIgnored('logs/keep.log', ['logs/*', '!logs/keep.log']), 'logs/*');
    assert.equal(matchIgnored('.env', [...DEFAULT_SECRET_PATTERNS, '!.env', '!*']), '.env*');
    assert.equal(matchIgnored('deploy/id_rsa', [...DEFAULT_SECRET_PATTERNS, '!id_rsa', '!deploy/']), 'id_rsa*');
    assert.equal(matchIgnored('!important', ['\\!important']), '\\!important', 'an escaped ! is a literal name');
    assert.equal(matchIgnored('a.txt', ['!a.txt']), undefined, 'a lone negation refuses nothing');
  });

  it('reads escapes as git does: `\\#` and `\\!` start a pattern, an escaped trailing space stays', () => {
    assert.deepEqual(parseIgnoreFile('\\#secret\n\\!bang\nspace\\  \n# comment\n!lifted'), [
      '\\#secret',
      '\\!bang',
      'space\\ ',
    ]);
    assert.equal(matchIgnored('space ', ['space\\ ']), 'space\\ ');
    assert.equal(matchIgnored('#secret', ['\\#secret']), '\\#secret');
  });

  it('names the first matching pattern in list order, so a built-in rule before a user one', () => {
    assert.equal(matchIgnored('certs/.env.prod', [...DEFAULT_SECRET_PATTERNS, 'certs/']), '.env*');
    assert.equal(matchIgnored('certs/a.txt', [...DEFAULT_SECRET_PATTERNS, 'certs/']), 'certs/');
  });

  it('a brace group refuses each alternative (a secrets list read the safe way), named by the line written', () => {
    assert.equal(matchIgnored('deploy/x.tfvars', ['*.{pem,tfvars}']), '*.{pem,tfvars}');
    assert.equal(matchIgnored('x.pem', ['*.{pem,tfvars}']), '*.{pem,tfvars}');
    assert.equal(matchIgnored('x.txt', ['*.{pem,tfvars}']), undefined);
    assert.equal(matchIgnored('conf/prod.json', ['conf/{prod,stage}.json']), 'conf/{prod,stage}.json');
    assert.equal(matchIgnored('conf/dev.json', ['conf/{prod,stage}.json']), undefined);
  });

  it('expands nested groups, keeps escaped and comma-less braces literal, and bounds the product', () => {
    assert.deepEqual(expandBraces('a{b,c{d,e}}'), ['ab', 'acd', 'ace']);
    assert.deepEqual(expandBraces('{x}.{a,b}'), ['{x}.a', '{x}.b']);
    assert.deepEqual(expandBraces('\\{a,b}'), ['\\{a,b}']);
    assert.deepEqual(expandBraces('a{b,c'), ['a{b,c']);
    assert.equal(expandBraces('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}').length, 64);
  });

  it('compiles each list once and keeps answering after many distinct paths', () => {
    const patterns = [...DEFAULT_SECRET_PATTERNS, 'private/'];
    for (let i = 0; i < 12_000; i++) assert.equal(matchIgnored(`src/f${i}.ts`, patterns), undefined);
    assert.equal(matchIgnored('src/private/f.ts', patterns), 'private/');
  });
});
