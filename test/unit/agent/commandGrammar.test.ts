// Property test of the command allow-list: command lines generated from a grammar of runner + options + arguments,
// judged with the most permissive settings (the runner, the runner with " *", and the generated line itself on the
// allow-list). Nothing carrying a code-running option, an environment prefix or a path outside the workspace may be
// auto-approved; a line of plain positional arguments inside the workspace must be.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { CODE_RUNNING_LONG_OPTIONS, decide, type PolicySettings } from '../../../src/agent';

const WS = '/home/dev/ws';
const RUNNERS = [
  'npm test',
  'npm run build',
  'npx jest',
  'node',
  'git status',
  'git log',
  'yarn test',
  'pnpm test',
  'make',
];
const SHORT_CODE_OPTIONS = ['-r', '-e', '-p', '-c', '-C', '-x', '-pe', '-rx', '-f', '-I'];

interface Word {
  text: string;
  /** A code-running option, an outside path or an environment prefix: the line must not be auto-approved. */
  dangerous: boolean;
  /** An option (dangerous or not): a " *" entry must not cover it. */
  option?: boolean;
}

/** Spellings a shell turns into the same word: plain, double-quoted, quoted in parts, backslash-escaped. */
const disguise = (w: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    w,
    `"${w}"`,
    `'${w.slice(0, 1)}'${w.slice(1)}`,
    w.replace(/-/g, '\\-'),
    `${w.slice(0, 2)}""${w.slice(2)}`,
  );

const outsidePath = fc.constantFrom(
  '/etc/passwd',
  '../other',
  '~/x',
  'sub/../../x',
  '/tmp',
  '..',
  'C:\\Windows',
  '..\\other',
  'sub\\..\\..\\x',
);
const insidePath = fc.constantFrom('src', 'src/a.ts', 'test/unit', 'README.md', `${WS}/lib`, 'a/../b');

const word: fc.Arbitrary<Word> = fc.oneof(
  // A long code-running option, alone, with =value or with a value that follows.
  fc
    .tuple(fc.constantFrom(...CODE_RUNNING_LONG_OPTIONS), fc.constantFrom('', '=x', '=./evil.js', ' value'))
    .chain(([o, v]) => disguise(o).map((d) => ({ text: `${d}${v}`, dangerous: true, option: true }))),
  fc
    .constantFrom(...SHORT_CODE_OPTIONS)
    .chain((o) => disguise(o).map((d) => ({ text: d, dangerous: true, option: true }))),
  // Plain options: never dangerous, but never covered by " *" either.
  fc
    .constantFrom('--watch', '-v', '--silent', '--', '--grep=x', '-l')
    .map((t) => ({ text: t, dangerous: false, option: true })),
  outsidePath.map((p) => ({ text: p, dangerous: true })),
  fc
    .tuple(fc.constantFrom('--out=', 'dir='), outsidePath)
    .map(([k, p]) => ({ text: `${k}${p}`, dangerous: true, option: true })),
  insidePath.map((p) => ({ text: p, dangerous: false })),
  fc.constantFrom('agent', 'parser', 'x.test.ts', 'main').map((t) => ({ text: t, dangerous: false })),
);

const line = fc.record({
  env: fc.option(fc.constantFrom('NODE_OPTIONS=--require=./x.js', 'GIT_DIR=/tmp/x', 'A=1'), { nil: undefined }),
  runner: fc.constantFrom(...RUNNERS),
  words: fc.array(word, { maxLength: 5 }),
});

function settingsFor(runner: string, full: string): PolicySettings {
  return {
    workspaceFolders: [WS],
    autoApproveWrites: true,
    commandAllowList: [runner, `${runner} *`, full],
  };
}

function decision(full: string, runner: string): string {
  return decide(
    { toolName: 'run_command', approvalClass: 'command', target: { command: full, paths: [WS], cwd: WS } },
    settingsFor(runner, full),
  ).decision;
}

describe('command allow-list (property)', () => {
  it('never auto-approves a line with a code-running option, an environment prefix or an outside path', () => {
    fc.assert(
      fc.property(line, ({ env, runner, words }) => {
        const full = [env, runner, ...words.map((w) => w.text)].filter(Boolean).join(' ');
        const dangerous = env !== undefined || words.some((w) => w.dangerous);
        if (dangerous) assert.notEqual(decision(full, runner), 'auto', full);
      }),
      { numRuns: 3000 },
    );
  });

  it('a " *" entry never covers an option, even a harmless one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RUNNERS), fc.array(word, { minLength: 1, maxLength: 4 }), (runner, words) => {
        if (!words.some((w) => w.option)) return;
        const full = [runner, ...words.map((w) => w.text)].join(' ');
        const v = decide(
          { toolName: 'run_command', approvalClass: 'command', target: { command: full, paths: [WS], cwd: WS } },
          { workspaceFolders: [WS], commandAllowList: [`${runner} *`] },
        );
        assert.notEqual(v.decision, 'auto', full);
      }),
      { numRuns: 2000 },
    );
  });

  it('plain positional arguments inside the workspace are auto-approved by a " *" entry', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RUNNERS),
        fc.array(fc.constantFrom('src', 'src/a.ts', 'test/unit', 'agent', 'x.test.ts', `${WS}/lib`), { maxLength: 4 }),
        (runner, args) => {
          const full = [runner, ...args].join(' ');
          const v = decide(
            { toolName: 'run_command', approvalClass: 'command', target: { command: full, paths: [WS], cwd: WS } },
            { workspaceFolders: [WS], commandAllowList: [`${runner} *`] },
          );
          assert.equal(v.decision, 'auto', `${full}: ${v.rule} ${v.reason}`);
        },
      ),
    );
  });
});
