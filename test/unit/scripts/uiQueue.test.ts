// The newest UI layer's queue (scripts/lib/uiQueue.cjs through scripts/lib/reporter.cjs): two real mocha processes
// over the same files and one queue folder, as the harness starts them in its two slots. Every suite runs in exactly
// one of them, its hooks only there; neither report counts the other's tests; without a queue a process runs all.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, removeTempDir } from '../../support/tempDir';

const root = path.resolve(__dirname, '..', '..', '..');
const MOCHA = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const REPORTER = path.join(root, 'scripts', 'lib', 'reporter.cjs');

interface Report {
  tests: { title: string; state: string }[];
  done: boolean;
}

describe('UI queue: two processes take the files of one layer', function () {
  this.timeout(60_000);
  let dir: string;
  let files: string[];
  beforeEach(() => {
    dir = makeTempDir('ui-queue');
    // Six files of one suite each (two tests, a nested suite, before/after hooks that log where they ran), each
    // taking 150-400 ms, so that both processes are usually busy at once (which one runs what is up to the machine).
    files = ['a', 'b', 'c', 'd', 'e', 'f'].map((name, i) => {
      const file = path.join(dir, `${name}.test.js`);
      fs.writeFileSync(
        file,
        `const fs = require('fs');
         const log = (what) => fs.appendFileSync(${JSON.stringify(path.join(dir, 'hooks.log'))}, what + ' ' + process.env.WHO + '\\n');
         describe('suite ${name}', () => {
           before(() => log('before ${name}'));
           after(() => log('after ${name}'));
           it('one', (done) => setTimeout(done, ${150 + 50 * i}));
           describe('nested', () => {
             before(() => log('nested ${name}'));
             it('two', () => {});
           });
         });`,
      );
      return file;
    });
  });
  afterEach(() => removeTempDir(dir));

  function mocha(who: string, env: Record<string, string>): Promise<Report> {
    const report = path.join(dir, `report-${who}.json`);
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [MOCHA, '--reporter', REPORTER, ...files], {
        env: { ...process.env, ...env, WHO: who, MG_REPORT_FILE: report },
        stdio: 'ignore',
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(fs.readFileSync(report, 'utf8')) as Report)
          : reject(new Error(`${who} exited ${code}`)),
      );
    });
  }
  const hookLines = () => fs.readFileSync(path.join(dir, 'hooks.log'), 'utf8').trim().split('\n');

  it('every suite runs once, in one process, with its hooks; the other counts none of it', async () => {
    const queue = path.join(dir, 'queue');
    fs.mkdirSync(queue);
    const [x, y] = await Promise.all([mocha('x', { MG_UI_QUEUE: queue }), mocha('y', { MG_UI_QUEUE: queue })]);
    const titles = [...x.tests, ...y.tests].map((t) => t.title).sort();
    assert.deepEqual(
      titles,
      ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((n) => [`suite ${n} nested two`, `suite ${n} one`]),
      'each test once across both reports',
    );
    assert.ok([...x.tests, ...y.tests].every((t) => t.state === 'passed'));
    assert.ok(x.done && y.done);
    // Hooks ran only where their suite ran: three per suite, in the process whose report has its tests.
    const lines = hookLines();
    assert.equal(lines.length, 18, lines.join('\n'));
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const who = x.tests.some((t) => t.title === `suite ${n} one`) ? 'x' : 'y';
      for (const hook of ['before', 'nested', 'after'])
        assert.ok(lines.includes(`${hook} ${n} ${who}`), `${hook} ${n}`);
    }
    assert.deepEqual(fs.readdirSync(queue).sort(), files.map((f) => path.basename(f)).sort());
  });

  it('without a queue a process runs every suite', async () => {
    const alone = await mocha('alone', {});
    assert.equal(alone.tests.length, 12);
    assert.equal(hookLines().length, 18);
  });
});
