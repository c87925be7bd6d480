// `npm test`'s command line (scripts/lib/testCli.mjs, node:util parseArgs) keeps every option it had, and
// --repeat's summary (scripts/lib/testReport.mjs) names a test that failed in some runs as flaky.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

const root = path.resolve(__dirname, '..', '..', '..');

interface Options {
  layers: Set<string>;
  grep?: string;
  versions: string[];
  repeat: number;
  keep: boolean;
  build: boolean;
  help: boolean;
  clone: boolean;
  slots: number;
  vsix?: string;
}
interface Report {
  record(row: Record<string, unknown>): void;
  keepTests(layer: string | undefined, tests: Array<Record<string, unknown>>): void;
  outcomes: Map<string, string>;
}
const load = async () => ({
  cli: (await import(path.join(root, 'scripts', 'lib', 'testCli.mjs'))) as {
    parseOptions(argv: string[], env?: Record<string, string>): Options;
    HELP: string;
  },
  report: (await import(path.join(root, 'scripts', 'lib', 'testReport.mjs'))) as {
    createReport(dir: string): Report;
    printRepeatSummary(runs: Array<{ report: Report; totals: Record<string, number> }>): number;
  },
});

describe('npm test: options and --repeat', () => {
  it('reads every option of --help; no layer flag means all three and the fresh-clone check', async () => {
    const { cli } = await load();
    const all = cli.parseOptions([], {});
    assert.deepEqual([...all.layers], ['unit', 'host', 'ui']);
    // No --slots: the schedule decides (two, or three when nothing needs provisioning).
    assert.deepEqual([all.clone, all.build, all.repeat, all.slots], [true, true, 1, undefined]);
    const some = cli.parseOptions(
      ['--host', '--ui', '--grep', 'a b', '--vscode', '1.100.3,1.139.1', '--keep', '--no-build', '--slots', '1'],
      {},
    );
    assert.deepEqual([...some.layers], ['host', 'ui']);
    assert.deepEqual(
      [some.grep, some.versions, some.keep, some.build, some.clone, some.slots],
      ['a b', ['1.100.3', '1.139.1'], true, false, false, 1],
    );
    const vsix = cli.parseOptions(['--unit', '--vsix', 'x.vsix', '--clone', '--soak', '--repeat', '3', '-h'], {
      MG_VSCODE_SLOTS: '1',
    });
    assert.deepEqual(
      [vsix.vsix, vsix.build, vsix.clone, vsix.repeat, vsix.help, vsix.slots, [...vsix.layers]],
      [path.resolve('x.vsix'), false, true, 3, true, 1, ['unit', 'soak']],
    );
    assert.throws(() => cli.parseOptions(['--bogus'], {}), /Unknown option '--bogus' \(see --help\)/);
    assert.throws(() => cli.parseOptions(['--repeat', '0'], {}), /--repeat needs a whole number/);
    assert.throws(() => cli.parseOptions(['--slots', '0'], {}), /--slots needs a number ≥ 1/);
    assert.equal(cli.parseOptions([], { MG_VSCODE_SLOTS: '3' }).slots, 3);
    assert.throws(() => cli.parseOptions(['--repeat', '2', '--keep'], {}), /do not go together/);
    for (const option of ['--unit', '--host', '--ui', '--soak', '--grep', '--vscode', '--repeat', '--keep'])
      assert.ok(cli.HELP.includes(option), option);
  });

  it('--repeat names a test that passed in one run and failed in another as flaky, a test failing every run apart', async () => {
    const { report } = await load();
    const run = (flakyState: string) => {
      const r = report.createReport('test-results');
      r.keepTests(undefined, [
        { title: 'a steady test', file: '/x/test/unit/a.test.ts', state: 'passed', durationMs: 1 },
        { title: 'a flaky test', file: '/x/test/unit/b.test.ts', state: flakyState, durationMs: 1 },
        { title: 'a broken test', file: '/x/test/unit/c.test.ts', state: 'failed', durationMs: 1 },
      ]);
      return { report: r, totals: { passed: 1, failed: 2, seconds: 1 } };
    };
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => void lines.push(String(line));
    let failing: number;
    try {
      failing = report.printRepeatSummary([run('passed'), run('failed'), run('passed')]);
    } finally {
      console.log = log;
    }
    assert.equal(failing, 2);
    const text = lines.join('\n');
    assert.match(text, /flaky: 1[\s\S]*~ \[unit\] a flaky test {2}\(failed in 1 of 3 runs\)/);
    assert.match(text, /failing every run: 1[\s\S]*✗ \[unit\] a broken test {2}\(failed in 3 of 3 runs\)/);
    assert.doesNotMatch(text, /a steady test/);
  });
});

describe('npm test: a third VS Code slot', () => {
  it('counts another run of scripts/test.mjs on the machine (not a shell that starts one)', async function () {
    if (process.platform !== 'linux') this.skip(); // read from /proc
    const { otherTestRuns } = (await import(path.join(root, 'scripts', 'lib', 'testSchedule.mjs'))) as {
      otherTestRuns(): number;
    };
    const dir = makeTempDir('mg-other-run-');
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.writeFileSync(path.join(dir, 'scripts', 'test.mjs'), 'setTimeout(() => {}, 30_000);\n');
    const before = otherTestRuns(); // another copy of the suite may be running on this machine
    const shell = spawn('sh', ['-c', `sleep 30 # scripts/test.mjs`]);
    const run = spawn(process.execPath, [path.join(dir, 'scripts', 'test.mjs')]);
    try {
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(otherTestRuns(), before + 1);
    } finally {
      run.kill();
      shell.kill();
      removeTempDir(dir);
    }
  });
});
