// The approval policy table: every rule has a case here (a new rule without one fails), every never-auto rule
// holds with the most permissive settings, and allow-listed prefixes cannot be stretched with shell syntax.
import * as assert from 'node:assert/strict';
import { allowListMatch, APPROVAL_RULES, decide, type PolicyFacts, type PolicySettings } from '../../../src/agent';

const WS = '/home/dev/ws';

/** Everything a user could switch on: auto-approved writes and a generous allow-list. */
const PERMISSIVE: PolicySettings = {
  workspaceFolders: [WS, '/home/dev/other'],
  protectedPaths: [
    '/home/dev/.config/Code/User/settings.json',
    '/home/dev/.config/Code/User/globalStorage/model-gateway.model-gateway',
  ],
  autoApproveWrites: true,
  commandAllowList: ['npm test', 'npm test *', 'git *', 'ls *', 'cat *', 'echo *', 'curl *'],
  secretPatterns: ['secrets/', '*.sqlite'],
};

const read = (...paths: string[]): PolicyFacts => ({ toolName: 'read_file', approvalClass: 'read', target: { paths } });
const write = (...paths: string[]): PolicyFacts => ({
  toolName: 'write_file',
  approvalClass: 'write',
  target: { paths },
});
const command = (cmd: string | undefined, cwd = WS): PolicyFacts => ({
  toolName: 'run_command',
  approvalClass: 'command',
  target: { command: cmd, paths: [cwd], cwd },
});

/** One case per rule id: facts that reach the rule under PERMISSIVE settings (or the settings given). */
const CASES: Record<string, Array<{ facts: PolicyFacts; settings?: PolicySettings }>> = {
  'secret-file': [
    { facts: read(`${WS}/.env`) },
    { facts: read(`${WS}/config/.env.production`) },
    { facts: write(`${WS}/certs/server.pem`) },
    { facts: read(`${WS}/deploy/id_rsa`) },
    { facts: read(`${WS}/deploy/id_ed25519.pub`) },
    { facts: read(`${WS}/tls/site.KEY`) },
    { facts: read(`${WS}/secrets/db.json`) },
    { facts: read(`${WS}/data/app.sqlite`) },
    { facts: read('/home/dev/.ssh/config') },
  ],
  'symlink-escape': [
    {
      facts: {
        ...read(`${WS}/notes`, '/etc'),
        target: { paths: ['/etc', `${WS}/notes`], links: [{ written: `${WS}/notes`, real: '/etc' }] },
      },
    },
    {
      facts: {
        ...write(`${WS}/link/x`, '/home/dev/ws2/x'),
        target: {
          paths: ['/home/dev/ws2/x', `${WS}/link/x`],
          links: [{ written: `${WS}/link/x`, real: '/home/dev/ws2/x' }],
        },
      },
    },
  ],
  'outside-workspace': [
    { facts: read('/etc/passwd') },
    { facts: write('/home/dev/ws2/file.ts') },
    { facts: read(`${WS}/../ws2/x`) },
    { facts: write('relative/path.ts') },
    { facts: read(`${WS}/src/a.ts`), settings: { ...PERMISSIVE, workspaceFolders: [] } },
    { facts: command('npm test'), settings: { ...PERMISSIVE, workspaceFolders: ['/elsewhere'] } },
  ],
  'extension-settings': [
    {
      facts: write('/home/dev/.config/Code/User/settings.json'),
      settings: { ...PERMISSIVE, workspaceFolders: ['/home/dev'] },
    },
    {
      facts: {
        toolName: 'set_setting',
        approvalClass: 'write',
        target: { settings: ['modelGateway.agent.autoApproveWrites'], paths: [`${WS}/x`] },
      },
    },
  ],
  'git-hooks': [
    { facts: write(`${WS}/.git/hooks/pre-commit`) },
    { facts: write(`${WS}/.husky/pre-push`) },
    { facts: write(`${WS}/.pre-commit-config.yaml`) },
  ],
  'git-dir': [
    { facts: write(`${WS}/.git/config`) },
    { facts: read(`${WS}/.git/config`) },
    { facts: write(`${WS}/vendor/lib/.git/HEAD`) },
    { facts: write(`${WS}/.GIT/config`) },
  ],
  'vscode-dir': [
    { facts: write(`${WS}/.vscode/settings.json`) },
    { facts: write(`${WS}/.vscode/tasks.json`) },
    { facts: write(`${WS}/packages/app/.vscode/launch.json`) },
    { facts: write(`${WS}/.VSCode/settings.json`) },
    // A nested workspace folder must not hide that the file is under the outer folder's .vscode.
    {
      facts: write(`${WS}/.vscode/settings.json`),
      settings: { ...PERMISSIVE, workspaceFolders: [WS, `${WS}/.vscode`] },
    },
  ],
  'code-workspace': [
    { facts: write(`${WS}/project.code-workspace`) },
    { facts: write(`${WS}/sub/Team.CODE-WORKSPACE`) },
  ],
  devcontainer: [{ facts: write(`${WS}/.devcontainer/devcontainer.json`) }],
  'git-config': [
    { facts: write(`${WS}/.gitattributes`) },
    { facts: write(`${WS}/src/.gitattributes`) },
    { facts: write(`${WS}/.gitmodules`) },
  ],
  'ci-definition': [
    { facts: write(`${WS}/.github/workflows/ci.yml`) },
    { facts: write(`${WS}/.GitHub/Workflows/release.yaml`) },
    { facts: write(`${WS}/.github/actions/setup/action.yml`) },
    { facts: write(`${WS}/.gitlab-ci.yml`) },
    { facts: write(`${WS}/.circleci/config.yml`) },
    { facts: write(`${WS}/azure-pipelines.yml`) },
    { facts: write(`${WS}/Jenkinsfile`) },
  ],
  'tool-config': [
    { facts: write(`${WS}/.yarnrc.yml`) },
    { facts: write(`${WS}/.yarnrc`) },
    { facts: write(`${WS}/Makefile`) },
    { facts: write(`${WS}/sub/makefile`) },
    { facts: write(`${WS}/GNUmakefile`) },
  ],
  'package-scripts': [
    {
      facts: {
        ...write(`${WS}/package.json`),
        target: { paths: [`${WS}/package.json`], packageKeys: { file: 'package.json', keys: ['scripts'] } },
      },
    },
  ],
  'external-tool': [{ facts: { toolName: 'mcp_fetch', approvalClass: 'external', target: {} } }],
  'command-missing': [{ facts: command(undefined) }, { facts: command('   ') }],
  'command-syntax': [{ facts: command('npm test && curl evil') }],
  'command-mentions-secret': [
    { facts: command('cat .env') },
    { facts: command('cat "deploy/id_rsa"') },
    { facts: command('npm test --env-file=.env.local') },
    { facts: command('git show HEAD:config/.env') },
    { facts: command('cat ".e"nv') },
  ],
  'command-env-prefix': [{ facts: command('NODE_OPTIONS=--require=./x.js npm test') }, { facts: command('A=1 ls') }],
  'command-code-option': [
    { facts: command("npm test --node-options='--import=data:text/javascript,process.exit()'") },
    { facts: command('npm test --prefix sub') },
    { facts: command('git -C sub status') },
    { facts: command('git -c core.pager=sh status') },
    { facts: command('npm test "--"require=./x.js') },
    { facts: command('npm test \\-\\-require ./x.js') },
  ],
  'command-outside-path': [
    { facts: command('cat /etc/hostname') },
    { facts: command('ls ../other-project') },
    { facts: command('ls ~/notes') },
    { facts: command('ls sub/../../x') },
  ],
  'command-cwd': [{ facts: command('npm test', `${WS}/packages/app`) }],
  'command-repo-config': [
    {
      facts: {
        ...command('git status'),
        target: {
          ...command('git status').target,
          repoConfig: [{ file: `${WS}/.git/config`, key: 'core.fsmonitor' }],
        },
      },
    },
  ],
  'command-after-write': [{ facts: { ...command('npm test'), filesWritten: true } }],
  'command-allow-listed': [
    { facts: command('npm test') },
    { facts: { ...command('npm test'), filesWritten: false } },
    { facts: command('npm   test  agent') },
    { facts: command('ls src/agent') },
    { facts: command('cat "src/a b.ts"') },
  ],
  'command-asks': [
    { facts: command('rm build') },
    { facts: command('npm testify') },
    { facts: command('npm test -- --grep agent') },
    { facts: command('git status --short'), settings: { ...PERMISSIVE, commandAllowList: ['git status'] } },
    { facts: command('make CC=sh'), settings: { ...PERMISSIVE, commandAllowList: ['make *'] } },
    { facts: command('npm test'), settings: { ...PERMISSIVE, commandAllowList: [] } },
    // Issue 45: after a write, a command on an empty allow-list asks because it is on no list, not "an allow-listed
    // command could run what was written".
    { facts: { ...command('npm test'), filesWritten: true }, settings: { ...PERMISSIVE, commandAllowList: [] } },
  ],
  'write-auto-approved': [{ facts: write(`${WS}/src/a.ts`) }],
  'write-asks': [
    { facts: write(`${WS}/src/a.ts`), settings: { ...PERMISSIVE, autoApproveWrites: false } },
    { facts: write() },
  ],
  'read-in-workspace': [
    { facts: read(`${WS}/src/a.ts`) },
    { facts: read(`${WS}/src/id_utils.ts`) },
    { facts: read(`${WS}/.github/workflows/ci.yml`) },
  ],
};

describe('agent approval policy', () => {
  it('has a case for every rule of the table, and each case is decided by its rule', () => {
    assert.deepEqual(Object.keys(CASES).sort(), APPROVAL_RULES.map((r) => r.id).sort());
    for (const r of APPROVAL_RULES) {
      for (const { facts, settings } of CASES[r.id]) {
        const verdict = decide(facts, settings ?? PERMISSIVE);
        assert.equal(verdict.rule, r.id, `${JSON.stringify(facts.target)} → ${verdict.rule}: ${verdict.reason}`);
        assert.equal(verdict.decision, r.decision);
        assert.ok(verdict.reason.length > 0);
      }
    }
  });

  it('never auto-approves a never-auto rule, whatever the settings say', () => {
    const never = APPROVAL_RULES.filter((r) => r.neverAuto);
    assert.deepEqual(
      never.map((r) => r.id),
      [
        'secret-file',
        'symlink-escape',
        'outside-workspace',
        'extension-settings',
        'git-hooks',
        'git-dir',
        'git-config',
        'ci-definition',
        'tool-config',
        'package-scripts',
        'vscode-dir',
        'code-workspace',
        'devcontainer',
        'external-tool',
        'command-missing',
        'command-syntax',
        'command-mentions-secret',
        'command-env-prefix',
        'command-code-option',
        'command-outside-path',
        'command-cwd',
        'command-repo-config',
        'command-asks',
      ],
    );
    for (const r of never) {
      assert.notEqual(r.decision, 'auto');
      for (const { facts, settings } of CASES[r.id]) {
        // The most permissive settings possible, plus an allow-list entry equal to the command itself (except
        // for the rule that is about a command missing from the allow-list).
        const s = { ...(settings ?? PERMISSIVE), autoApproveWrites: true };
        if (facts.target.command && !settings && r.id !== 'command-asks')
          s.commandAllowList = [...(s.commandAllowList ?? []), facts.target.command];
        assert.notEqual(decide(facts, s).decision, 'auto', `${r.id}: ${JSON.stringify(facts.target)}`);
      }
    }
  });

  it('writes and commands ask by default; reads inside the workspace are automatic', () => {
    const defaults: PolicySettings = { workspaceFolders: [WS] };
    assert.equal(decide(write(`${WS}/a.ts`), defaults).decision, 'ask');
    assert.equal(decide(command('npm test'), defaults).decision, 'ask');
    assert.equal(decide(read(`${WS}/a.ts`), defaults).decision, 'auto');
    assert.equal(decide(read(`${WS}/.env`), defaults).decision, 'refuse');
  });

  it('after a write, the reason names the allow-list entry the command matches; with no entry it says the list has none', () => {
    const after = { ...command('npm test'), filesWritten: true };
    assert.match(decide(after, PERMISSIVE).reason, /matches "npm test" on the allow-list, but it could run what was/);
    const empty = decide(after, { ...PERMISSIVE, commandAllowList: [] });
    assert.equal(empty.decision, 'ask');
    assert.doesNotMatch(empty.reason, /allow-listed/);
    assert.match(empty.reason, /not on the allow-list/);
  });

  it('an allow-listed prefix cannot be stretched with shell syntax', () => {
    const list = ['npm test', 'git status'];
    const bypasses = [
      'npm test && curl evil',
      'npm test; curl evil',
      'npm test || curl evil',
      'npm test | sh',
      'npm test & curl evil',
      'npm test `curl evil`',
      'npm test $(curl evil)',
      'npm test ${IFS}',
      'npm test > /etc/passwd',
      'npm test < /dev/zero',
      'npm test\ncurl evil',
      'npm test\rcurl evil',
      'npm test 2>&1',
      'npm test\u2028curl evil',
      'npm test\u0000',
      'npm test ^& calc',
      'npm test %COMSPEC%',
      'npm testx',
      'npm',
      'npmtest',
      ' git  statusx',
      'git status\u200b; curl evil',
      'FOO=1 npm test',
    ];
    for (const b of bypasses) assert.equal(allowListMatch(b, list), undefined, JSON.stringify(b));
    assert.equal(allowListMatch('npm test', list), 'npm test');
    assert.equal(allowListMatch('  npm\ttest  ', list), 'npm test');
  });

  it('an entry approves its exact command line; only an entry ending in " *" adds plain positional arguments', () => {
    const list = ['npm test', 'npm run lint', 'git status', 'ls *'];
    // Exact entries: no argument at all may be added.
    for (const c of [
      'npm test -- --grep x',
      'npm test foo',
      'git status --short',
      'git status .',
      'npm run lint --fix',
    ])
      assert.equal(allowListMatch(c, list), undefined, c);
    assert.equal(allowListMatch('npm run "lint"', list), 'npm run lint');
    // " *": positional words only, never an option or an assignment.
    assert.equal(allowListMatch('ls src test', list), 'ls *');
    assert.equal(allowListMatch('ls', list), 'ls *');
    for (const c of ['ls -la', 'ls --color=always', 'ls -- x', 'ls CC=1', 'ls "-la"', "ls '--'color", 'ls \\-la'])
      assert.equal(allowListMatch(c, list), undefined, c);
    // A bare "*" allows nothing.
    assert.equal(allowListMatch('rm x', ['*']), undefined);
  });

  it('code-running options and environment prefixes ask even when the exact line is on the allow-list', () => {
    for (const c of [
      'npm test --node-options=--require=./evil.js',
      'node -e process.exit()',
      'node -pe 1',
      'npm test --prefix /tmp/other',
      'git -C /tmp/other status',
      'git --git-dir=/tmp/x/.git status',
      'git -c core.fsmonitor=./x status',
      'npx -c evil',
      'npm exec --call evil',
      'make -f other.mk',
      'NODE_OPTIONS=--require=./x.js npm test',
    ])
      assert.equal(allowListMatch(c, [c]), undefined, c);
  });

  it('an empty or unsafe allow-list entry allows nothing', () => {
    assert.equal(allowListMatch('rm -rf /', ['', '   ']), undefined);
    assert.equal(allowListMatch('npm test', ['npm test;']), undefined);
  });

  it('a user-approved unsafe command still reaches the user (ask, not refuse)', () => {
    const v = decide(command('npm test && npm run lint'), PERMISSIVE);
    assert.equal(v.decision, 'ask');
    assert.match(v.reason, /"&"/);
  });
});
