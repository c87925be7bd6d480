// Which VS Code version runs which test files (scripts/lib/versionMatrix.mjs), and the harness's hang guard
// (scripts/lib/proc.mjs run({ idleMs })): a slow command that keeps printing is never stopped, a silent one is; niced.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
type Layer = 'host' | 'ui';
const load = async () => ({
  matrix: (await import(path.join(root, 'scripts', 'lib', 'versionMatrix.mjs'))) as {
    NEWEST_ONLY: Record<Layer, string[]>;
    NEWEST_ONLY_TESTS: { ui: string[] };
    invertedGrepForVersion(
      layer: Layer,
      version: string,
      o?: { grep?: string; env?: Record<string, string> },
    ): string | undefined;
    queueOrder(files: string[]): string[];
    uiFileOrder(files: string[]): string[];
    filesForVersion(
      layer: Layer,
      version: string,
      files: string[],
      o?: { grep?: string; env?: Record<string, string> },
    ): string[];
  },
  proc: (await import(path.join(root, 'scripts', 'lib', 'proc.mjs'))) as {
    run(cmd: string, args: string[], o: Record<string, unknown>): Promise<string>;
    niced(level: number, cmd: string, args: string[]): [string, string[]];
    logBothStreams(child: import('node:child_process').ChildProcess, file: string): NodeJS.WritableStream;
  },
  versions: Object.keys(
    JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'vscode-versions.json'), 'utf8')) as object,
  ),
});
const testFiles = (layer: Layer) =>
  fs
    .readdirSync(path.join(root, 'test', layer))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();

describe('test harness: versions and hang guards', function () {
  this.timeout(60_000);
  it('lists only test files that exist, and the newest version runs every file', async () => {
    const { matrix, versions } = await load();
    for (const layer of ['host', 'ui'] as const) {
      const files = testFiles(layer);
      for (const f of matrix.NEWEST_ONLY[layer]) assert.ok(files.includes(f), `${layer}: ${f} is not a test file`);
      assert.deepEqual(matrix.filesForVersion(layer, versions.at(-1)!, files, { env: {} }), files);
    }
  });

  it('the oldest version skips the listed files only, and still runs every view and API path that differs', async () => {
    const { matrix, versions } = await load();
    for (const layer of ['host', 'ui'] as const) {
      const files = testFiles(layer);
      const oldest = matrix.filesForVersion(layer, versions[0], files, { env: {} });
      assert.deepEqual(
        files.filter((f) => !oldest.includes(f)),
        [...matrix.NEWEST_ONLY[layer]].sort(),
      );
    }
    const uiOldest = matrix.filesForVersion('ui', versions[0], testFiles('ui'), { env: {} });
    for (const f of ['smoke.test.ts', 'chat.test.ts', 'agent.test.ts', 'images.test.ts', 'completions.test.ts'])
      assert.ok(uiOldest.includes(f), f);
    const hostOldest = matrix.filesForVersion('host', versions[0], testFiles('host'), { env: {} });
    for (const f of ['lm.test.ts', 'gatewayAgent.test.ts', 'agentTools.test.ts', 'hunkReview.test.ts'])
      assert.ok(hostOldest.includes(f), f);
  });

  it('each newest-only UI test names a test that exists (suite + title), in a file the oldest version runs', async () => {
    const { matrix, versions } = await load();
    const oldest = matrix.filesForVersion('ui', versions[0], testFiles('ui'), { env: {} });
    const sources = oldest.map((f) => fs.readFileSync(path.join(root, 'test', 'ui', f), 'utf8'));
    const literal = (t: string) => [`'${t}'`, `"${t}"`, `\`${t}\``];
    for (const full of matrix.NEWEST_ONLY_TESTS.ui) {
      const found = sources.some((src) =>
        [...src.matchAll(/describe\((['"`])(.+?)\1/g)].some(
          (d) => full.startsWith(`${d[2]} `) && literal(full.slice(d[2].length + 1)).some((l) => src.includes(l)),
        ),
      );
      assert.ok(found, `no such UI test in a file the oldest version runs: ${full}`);
    }
    // The grep leaves out exactly those titles on the oldest version, and nothing on the newest.
    const grep = new RegExp(matrix.invertedGrepForVersion('ui', versions[0], { env: {} })!);
    for (const full of matrix.NEWEST_ONLY_TESTS.ui) assert.ok(grep.test(full), full);
    assert.ok(!grep.test(`${matrix.NEWEST_ONLY_TESTS.ui[0]} (another test)`));
    assert.ok(!grep.test('chat view (UI) sends a message and the answer streams in'));
    assert.equal(matrix.invertedGrepForVersion('ui', versions.at(-1)!, { env: {} }), undefined);
    assert.equal(matrix.invertedGrepForVersion('ui', versions[0], { grep: 'x', env: {} }), undefined);
  });

  it("the newest UI layer's queue holds every file once: the walkthrough, then longest first, the z… files last", async () => {
    const { matrix } = await load();
    const files = testFiles('ui');
    const order = matrix.queueOrder(files);
    assert.deepEqual([...order].sort(), files);
    assert.equal(order[0], 'walkthrough.test.ts', 'on the profile as the harness made it');
    assert.equal(order[1], 'agent.test.ts', 'then the longest file');
    assert.deepEqual(order.slice(-3), ['zy-dialects.test.ts', 'zy-responses.test.ts', 'zz-canary.test.ts']);
    assert.ok(order.indexOf('platform.test.ts') < order.indexOf('links.test.ts'), order.join(' '));
    // A file the table does not know counts as 15 s: after the 22 s one, before the 14 s one.
    const unknown = matrix.queueOrder(['usage.test.ts', 'new.test.ts', 'completions.test.ts']);
    assert.deepEqual(unknown, ['completions.test.ts', 'new.test.ts', 'usage.test.ts']);
    // A process without the queue (the oldest version, --grep): the walkthrough first, then alphabetical.
    const plain = matrix.uiFileOrder(['agent.test.ts', 'walkthrough.test.ts', 'chat.test.ts', 'zz-canary.test.ts']);
    assert.deepEqual(plain, ['walkthrough.test.ts', 'agent.test.ts', 'chat.test.ts', 'zz-canary.test.ts']);
  });

  it('--grep or MG_EVERY_TEST_ON_EVERY_VERSION=1 runs every file on the oldest version too', async () => {
    const { matrix, versions } = await load();
    const files = testFiles('ui');
    assert.deepEqual(matrix.filesForVersion('ui', versions[0], files, { grep: 'x', env: {} }), files);
    assert.deepEqual(
      matrix.filesForVersion('ui', versions[0], files, { env: { MG_EVERY_TEST_ON_EVERY_VERSION: '1' } }),
      files,
    );
  });

  it('a command that keeps printing outlives its idle limit; a silent one is stopped and named', async () => {
    const { proc } = await load();
    // 8 s in all, a line every 400 ms, idle limit 4 s (generous: a loaded machine starts node slowly): slow, not hung.
    const chatty = 'let n=0;const t=setInterval(()=>{console.log("tick "+n);if(++n===20){clearInterval(t)}},400)';
    const lines: string[] = [];
    await proc.run(process.execPath, ['-e', chatty], {
      quiet: true,
      idleMs: 4000,
      onLine: (l: string) => lines.push(l),
    });
    assert.equal(lines.length, 20);
    let idle = false;
    const t0 = Date.now();
    await assert.rejects(
      proc.run(process.execPath, ['-e', 'console.log("started");setTimeout(()=>{},60000)'], {
        quiet: true,
        idleMs: 4000,
        onIdle: () => (idle = true),
      }),
    );
    assert.ok(idle, 'onIdle was called');
    assert.ok(Date.now() - t0 < 30_000, 'stopped long before it would have ended');
  });

  it("a child's two output streams go into one log: a line after the other stream ended is kept, nothing throws", async () => {
    const { proc } = await load();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-log-both-'));
    try {
      const file = path.join(dir, 'both.log');
      // stdout ends first; stderr writes 300 ms later (the order that crashed the harness with pipe()'s default).
      const script = 'process.stdout.end("out\\n");setTimeout(()=>process.stderr.write("late err\\n"),300)';
      const { spawn } = await import('node:child_process');
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
      const log = proc.logBothStreams(child, file);
      await new Promise((resolve) => log.on('finish', resolve));
      assert.equal(fs.readFileSync(file, 'utf8'), 'out\nlate err\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('work that can wait runs at the lower priority asked for (niced: the static checks, the fresh-clone check)', async () => {
    const { proc } = await load();
    const own = os.getPriority();
    const out = await proc.run(...proc.niced(5, process.execPath, ['-e', 'console.log(require("os").getPriority())']), {
      quiet: true,
      capture: true,
    });
    // Without a nice binary the command runs as is (the harness still works, at the same priority).
    const expected = ['/usr/bin/nice', '/bin/nice'].some((f) => fs.existsSync(f)) ? Math.min(own + 5, 19) : own;
    assert.equal(Number(out.trim()), expected);
  });
});
