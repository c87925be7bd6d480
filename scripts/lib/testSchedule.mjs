// What `npm test` runs and when (scripts/test.mjs): the build, the VSIX, provisioning in the background, the
// static checks, the mocha layers in node, and the VS Code layers in up to two harness slots. Every finding goes
// into the run's report (scripts/lib/testReport.mjs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, killTree, secs, withDirLock, acquireSlot, niced } from './proc.mjs';
import {
  provisionVersion,
  ensureDebianPackages,
  packageUses,
  SystemPackagesMissing,
  DEFAULT_VERSIONS,
} from '../provision.mjs';
import { packageVsix } from '../package.mjs';
import { runHostLayer, runUiLayer } from './layers.mjs';
import { countRow } from './testReport.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS = path.join(ROOT, 'test-results');
/**
 * How many processes take the newest UI layer's files from its queue when two slots are free (MG_UI_PARTS sets
 * another number). Two: with three parts, each paid its own code-server and workbench and the fresh run took 18:37
 * against 16:23 with two.
 */
const UI_PARTS = Number(process.env.MG_UI_PARTS) || undefined;

export async function step(report, name, fn) {
  const t0 = Date.now();
  console.log(`\n=== ${name}`);
  try {
    const value = await report.timed(name, fn);
    console.log(`=== ${name}: done in ${secs(t0)}s`);
    return value;
  } catch (err) {
    console.log(`=== ${name}: FAILED after ${secs(t0)}s: ${err.message}`);
    report.record({ layer: name, failed: 1, failures: [{ title: name, message: err.message }] });
    return undefined;
  }
}

/** dist/ is shared by every run in this checkout: builds and packaging take turns. */
function withBuildLock(fn) {
  return withDirLock(path.join(ROOT, '.vscode-test', '.lock-build'), fn);
}

export async function build() {
  await withBuildLock(() => run(process.execPath, ['esbuild.js'], { cwd: ROOT }));
}

/** Runs mocha in node over globs with the harness reporter; returns the report's tests, or undefined on a crash. */
async function nodeMocha(report, name, globs, opts, timeoutMs) {
  // pid in the name: helpers may run their unit tests through the harness at the same time.
  const reportFile = path.join(RESULTS, `${name.replace(/\W+/g, '-')}-report.${process.pid}.json`);
  fs.rmSync(reportFile, { force: true });
  const args = [
    path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--require',
    'tsx/cjs',
    '--timeout',
    String(timeoutMs),
    // Ends the run when the last test ends: a server or timer a test forgot to close must not hold the whole
    // harness (seen: two local test servers kept mocha alive after 1,797 passing tests).
    '--exit',
    '--reporter',
    path.join(ROOT, 'scripts', 'lib', 'reporter.cjs'),
    ...globs,
  ];
  if (opts.grep) args.push('--grep', opts.grep);
  const t0 = Date.now();
  console.log(`\n=== ${name} tests`);
  // Prefixed lines: VS Code layers may be printing at the same time.
  await report.timed(`${name} tests`, () =>
    run(process.execPath, args, {
      cwd: ROOT,
      prefix: `[${name}]`,
      env: { ...process.env, MG_REPORT_FILE: reportFile, MG_RESULTS_DIR: RESULTS },
    }).catch(() => undefined),
  ); // failures are counted from the report
  console.log(`=== ${name} tests: ${secs(t0)}s`);
  if (!fs.existsSync(reportFile)) {
    report.record({
      layer: name,
      failed: 1,
      failures: [{ title: `mocha (${name})`, message: 'crashed before writing its report' }],
    });
    return undefined;
  }
  const { tests } = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  fs.rmSync(reportFile, { force: true });
  report.keepTests(undefined, tests);
  return tests;
}

/** Long-running tests, only with --soak. */
export async function soakLayer(report, opts) {
  const files = fs.existsSync(path.join(ROOT, 'test', 'soak')) ? fs.readdirSync(path.join(ROOT, 'test', 'soak')) : [];
  if (!files.some((f) => f.endsWith('.test.ts'))) {
    report.record({ layer: 'soak', note: 'no test/soak/**/*.test.ts' });
    return;
  }
  const tests = await nodeMocha(report, 'soak', ['test/soak/**/*.test.ts'], opts, 0);
  if (tests) report.record(countRow('soak', tests));
}

/** Static checks, one test each: strict typecheck of the node and webview tsconfigs, ESLint, and Prettier. */
export async function checksLayer(report) {
  const bin = (...p) => path.join(ROOT, 'node_modules', ...p);
  // A second run in the same clone re-checks only what changed: tsc's build info and prettier's cache (both keyed by
  // file contents and dependencies) live in node_modules/.cache, which a fresh clone does not have. ESLint gets no
  // cache: its type-aware rules can change verdict when another file's types change, which its cache does not see.
  const cache = (name) => path.join(ROOT, 'node_modules', '.cache', 'mg-checks', name);
  const tsc = (project, info) => [
    bin('typescript', 'bin', 'tsc'),
    '--noEmit',
    '-p',
    project,
    '--incremental',
    '--tsBuildInfoFile',
    cache(info),
  ];
  const checks = [
    ['typecheck (node: src, test, bench)', tsc('tsconfig.json', 'node.tsbuildinfo')],
    ['typecheck (webviews)', tsc(path.join('src', 'webview', 'tsconfig.json'), 'webview.tsbuildinfo')],
    [
      'eslint (no-floating-promises, no vscode in pure layers)',
      [bin('eslint', 'bin', 'eslint.js'), 'src', 'test', 'bench'],
    ],
    // `npm run format` fixes what this finds (.prettierrc.json, .prettierignore say what and how).
    [
      'prettier (formatting)',
      [
        bin('prettier', 'bin', 'prettier.cjs'),
        '--check',
        '--log-level',
        'warn',
        '--cache',
        '--cache-location',
        cache('prettier'),
        '.',
      ],
    ],
  ];
  const row = { layer: 'checks', passed: 0, failed: 0, failures: [] };
  for (const [title, args] of checks) {
    // ESLint has no cache of its own that is right for type-aware rules; a run whose every input is the same as in
    // the last passing one gives the same verdict, so it is not repeated (alone on 2 cores: 27-33 core-s).
    const unchanged = title.startsWith('eslint') ? eslintInputs() : undefined;
    if (unchanged?.same) {
      console.log(`${title}: every input as in its last passing run (${unchanged.files} files), not run again`);
      row.passed++;
      continue;
    }
    try {
      // Lower CPU priority: the checks have no time limits, the VS Code layers running meanwhile do.
      await run(...niced(10, process.execPath, args), { cwd: ROOT, quiet: true });
      unchanged?.save();
      row.passed++;
    } catch (err) {
      row.failed++;
      row.failures.push({ title, message: err.message });
    }
  }
  report.record(row);
}

/**
 * ESLint's inputs as one hash: the content of every file of the checkout that git tracks or would track (sources,
 * configs, tsconfigs, package-lock.json for the installed plugins and types), with Node's version. `same` when the
 * last passing ESLint run had the same hash; `save()` records a pass. Any change anywhere runs ESLint in full.
 */
function eslintInputs() {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    })
      .toString()
      .split('\0')
      .filter(Boolean)
      .sort();
    const hash = createHash('sha256').update(process.version);
    for (const f of listed) {
      hash.update(`\0${f}\0`);
      try {
        hash.update(fs.readFileSync(path.join(ROOT, f)));
      } catch {
        hash.update('(unreadable)'); // listed but deleted in the working tree
      }
    }
    const key = hash.digest('hex');
    const file = path.join(ROOT, 'node_modules', '.cache', 'mg-checks', 'eslint-passed.json');
    let last;
    try {
      last = JSON.parse(fs.readFileSync(file, 'utf8')).key;
    } catch {
      last = undefined;
    }
    return {
      same: last === key,
      files: listed.length,
      save: () => {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify({ key, at: new Date().toISOString() }));
      },
    };
  } catch {
    return undefined; // no git: ESLint runs
  }
}

/** Unit and browser tests in one mocha run; the report splits them by folder. */
export async function unitLayer(report, opts) {
  const tests = await nodeMocha(
    report,
    'unit + browser',
    ['test/unit/**/*.test.ts', 'test/peer/**/*.test.ts', 'test/browser/**/*.test.ts', 'test/realgw/**/*.test.ts'],
    opts,
    30_000,
  );
  if (!tests) return;
  // test/realgw: our client through a real third-party gateway from npm (its own summary row).
  // test/peer: the official Anthropic SDK's own test cases replayed against our client (its own row).
  const layerOf = (t) =>
    /[\\/]test[\\/]browser[\\/]/.test(t.file ?? '')
      ? 'browser'
      : /[\\/]test[\\/]realgw[\\/]/.test(t.file ?? '')
        ? 'real gateway'
        : /[\\/]test[\\/]peer[\\/]/.test(t.file ?? '')
          ? 'peer'
          : 'unit';
  for (const layer of ['unit', 'peer', 'browser', 'real gateway']) {
    const mine = tests.filter((t) => layerOf(t) === layer);
    report.record({
      layer,
      passed: mine.filter((t) => t.state === 'passed').length,
      failed: mine.filter((t) => t.state === 'failed').length,
      pending: mine.filter((t) => t.state === 'pending').length,
      failures: mine.filter((t) => t.state === 'failed'),
    });
  }
}

/** Remove run folders (--keep profiles, packaged VSIX, UI queue) of harness runs that have ended. */
export function removeStaleRunDirs() {
  const base = path.join(ROOT, '.vscode-test');
  for (const d of fs.existsSync(base) ? fs.readdirSync(base) : []) {
    const m = /^(?:runs-keep|vsix|ui-queue)-(\d+)(?:-\d+)?$/.exec(d);
    if (!m) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch {
      fs.rmSync(path.join(base, d), { recursive: true, force: true });
    }
  }
}

/** Packages the VSIX once per run into a folder of this run; the VS Code layers copy it into their slot. */
export async function packageStep(report, opts) {
  if (opts.vsix) {
    if (!fs.existsSync(opts.vsix))
      report.record({
        layer: 'package VSIX',
        failed: 1,
        failures: [{ title: 'package VSIX', message: `--vsix ${opts.vsix}: no such file` }],
      });
    return fs.existsSync(opts.vsix) ? opts.vsix : undefined;
  }
  if (!opts.build) {
    // --no-build: the newest VSIX a run left behind.
    const found = [0, 1]
      .map((i) => path.join(ROOT, '.vscode-test', `runs-${i}`, 'model-gateway.vsix'))
      .concat(
        fs
          .readdirSync(ROOT)
          .filter((f) => f.endsWith('.vsix'))
          .map((f) => path.join(ROOT, f)),
      )
      .filter((f) => fs.existsSync(f))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
    if (!found)
      report.record({
        layer: 'package VSIX',
        failed: 1,
        failures: [{ title: 'package VSIX', message: '--no-build but no VSIX from an earlier run' }],
      });
    return found;
  }
  return step(report, 'package VSIX', async () => {
    const out = path.join(ROOT, '.vscode-test', `vsix-${process.pid}`, 'model-gateway.vsix');
    const { file, bytes } = await packageVsix({ out, quiet: true });
    console.log(`VSIX ${path.relative(ROOT, file)}: ${(bytes / 1024).toFixed(1)} KiB`);
    return file;
  });
}

/**
 * Provisions the versions one after another in the background (cold: minutes of npm installs and native builds);
 * returns per version {promise, settled, info | error} so each version's layers can start as soon as it is ready.
 */
export function provisionInBackground(report, versions) {
  const ready = {};
  let chain = Promise.resolve();
  for (const version of versions) {
    const entry = { settled: false };
    entry.promise = chain = chain.then(async () => {
      const t0 = Date.now();
      try {
        entry.info = await report.timed(`provision VS Code ${version}`, () =>
          provisionVersion(version, { log: (l) => console.log(l) }),
        );
        console.log(`[provision] VS Code ${version}: ${entry.info.cached ? 'cached' : 'installed'} (${secs(t0)}s)`);
      } catch (err) {
        entry.error = err;
        console.log(`[provision] VS Code ${version}: FAILED after ${secs(t0)}s: ${err.message}`);
      } finally {
        entry.settled = true;
      }
    });
    ready[version] = entry;
  }
  return ready;
}

/** Takes the next job whose VS Code version is provisioned, waiting for provisioning if none is; undefined when none is left. */
async function nextJob(jobs, ready) {
  for (;;) {
    if (!jobs.length) return undefined;
    const i = jobs.findIndex((j) => ready[j.version].settled);
    if (i >= 0) return jobs.splice(i, 1)[0];
    await Promise.race(jobs.map((j) => ready[j.version].promise));
  }
}

/** One VS Code layer (host or UI of one version) in a slot; records its row and test times. */
async function runJob(report, job, base, ready) {
  const label = `${job.layer} ${job.version}`;
  const partNote = job.parts > 1 ? `part ${job.part} of ${job.parts}` : '';
  const { info, error } = ready[job.version];
  if (error) {
    report.record({
      layer: job.layer,
      version: job.version,
      failed: 1,
      failures: [{ title: `provision VS Code ${job.version}`, message: error.message }],
    });
    return;
  }
  const shown = partNote ? `${label} (${partNote})` : label;
  const ctx = { ...base, prefix: `[${shown}]` };
  const t0 = Date.now();
  console.log(`\n=== ${shown}: starting (slot ${base.slot})`);
  try {
    const { tests, ...row } = await report.timed(
      `${job.layer === 'ui' ? 'UI' : 'host'} tests, VS Code ${job.version}${partNote ? ` (${job.part}/${job.parts})` : ''}`,
      () => (job.layer === 'host' ? runHostLayer(ctx, info) : runUiLayer(ctx, info, job)),
    );
    report.keepTests(label, tests);
    const note = [partNote, row.note].filter(Boolean).join(', ') || undefined;
    report.record({ layer: job.layer, version: job.version, ...row, note });
    console.log(`=== ${shown}: ${row.passed ?? 0} passed, ${row.failed ?? 0} failed in ${secs(t0)}s`);
  } catch (err) {
    console.log(`=== ${shown}: FAILED after ${secs(t0)}s: ${err.message}`);
    report.record({
      layer: job.layer,
      version: job.version,
      failed: 1,
      failures: [{ title: label, message: err.message }],
    });
  } finally {
    if (ctx.ownEmulator && !ctx.keep) killTree(ctx.emulator.child);
  }
}

/**
 * VS Code layers at once unless --slots says: three when the run provisions nothing (a warm machine: host layers wait
 * on timers and the emulator, and with two slots 2 cores were 1.35-1.45 busy for the first three minutes of a run,
 * kernel included; a third slot took `npm test` from 8:07 to 7:54), else two (thirdSlotWorthIt).
 */
const AUTO_SLOTS = 3;

/** How many other `npm test` runs (node …/scripts/test.mjs, in any checkout) this machine has; 0 without /proc. */
export function otherTestRuns() {
  let others = 0;
  let pids = [];
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid);
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      // node …/scripts/test.mjs itself, not the `sh -c` npm starts it with (ours is one).
      const [exe, ...args] = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (/node[^\\/]*$/.test(exe) && args.some((a) => /(^|[\\/])scripts[\\/]test\.mjs$/.test(a))) others++;
    } catch {
      // gone meanwhile
    }
  }
  return others;
}

/**
 * Runs every requested (layer, version) in up to `slots` harness slots at once. A slot is a lock plus its own
 * folders (profiles, bundles, VSIX copy; logs in test-results/ for slot 0, test-results/slot<N>/ otherwise); a slot
 * held by another run in the same checkout is simply not used until it frees.
 */
export async function vscodeLayers(report, opts, vsix, ready, { secondSlotOpen } = {}) {
  const jobs = [];
  // The newest UI layer is the longest job by far (about 8 of a run's 13 minutes on a fresh 2-core machine): two
  // processes, one per slot, take its files from one queue (uiQueue.cjs), so both slots end within about a file of
  // each other and the run does not end with one slot idle. The other layers go first (the newest host layer, then the
  // oldest version's), so the queue is what ends the run in both slots; while the newest version is being provisioned
  // the oldest one's layers run (nextJob passes over a job whose version is not ready). Not for --grep (a few
  // tests) or one slot: one process, every file.
  const newest = DEFAULT_VERSIONS.at(-1);
  const runs = (layer, version) => opts.layers.has(layer) && opts.versions.includes(version);
  const slots = opts.slots ?? AUTO_SLOTS;
  const parts = runs('ui', newest) && slots >= 2 && !opts.grep ? (UI_PARTS ?? slots) : 1;
  const queue = parts > 1 ? path.join(ROOT, '.vscode-test', `ui-queue-${process.pid}`) : undefined;
  if (queue) {
    fs.rmSync(queue, { recursive: true, force: true });
    fs.mkdirSync(queue, { recursive: true });
  }
  if (runs('host', newest)) jobs.push({ layer: 'host', version: newest, part: 1, parts: 1 });
  for (const version of [...opts.versions].reverse().filter((v) => v !== newest))
    for (const layer of ['ui', 'host']) if (runs(layer, version)) jobs.push({ layer, version, part: 1, parts: 1 });
  if (runs('ui', newest))
    for (let part = 1; part <= parts; part++) jobs.push({ layer: 'ui', version: newest, part, parts, queue });
  // A third slot (by default) only when this run installed no VS Code (provisioning's compiles take the share of the
  // CPU it would use) and no other test run shares the machine. Decided once every version is ready;
  // without it, the UI queue has one part fewer.
  const thirdSlotWorthIt = async () => {
    if (opts.slots !== undefined) return true;
    await Promise.all(opts.versions.map((v) => ready[v]?.promise));
    // Not beside a second copy of the suite (each would be slower). The load average cannot tell: a run's own first
    // seconds (build, VSIX, checks, two layers starting) took it from 2.8 to 3.9 on an otherwise idle machine.
    const others = otherTestRuns();
    if (!others && opts.versions.every((v) => ready[v]?.info?.cached)) return true;
    if (others) console.log(`\n[harness] no third VS Code slot: ${others} other test run(s) on this machine`);
    const extra = jobs.findIndex((j) => j.queue && j.part > 2);
    if (extra >= 0) jobs.splice(extra, 1);
    for (const j of jobs) if (j.queue) j.parts = Math.min(j.parts, 2);
    return false;
  };
  const kept = [];
  const locks = Array.from({ length: Math.max(2, slots) }, (_, i) =>
    path.join(ROOT, '.vscode-test', `.lock-harness-${i}`),
  );
  const worker = async (n) => {
    // The second slot waits until the caller opens it (scripts/test.mjs: when its static checks end; 2 cores: three
    // heavy things at once made each 3-5x slower).
    if (n > 0 && secondSlotOpen) await secondSlotOpen;
    if (n >= 2 && !(await thirdSlotWorthIt())) return;
    if (n > 0 && !jobs.length) return;
    const lock = await acquireSlot(locks, {
      // A second slot is only worth taking while jobs are still waiting.
      giveUp: () => n > 0 && !jobs.length,
      onWait:
        n === 0
          ? (pids) => console.log(`\n... waiting for a free VS Code slot (held by test runs ${pids.join(', ')})`)
          : undefined,
    });
    if (!lock) return;
    try {
      const { slot } = lock;
      const runsDir = path.join(ROOT, '.vscode-test', opts.keep ? `runs-keep-${process.pid}-${slot}` : `runs-${slot}`);
      fs.mkdirSync(runsDir, { recursive: true });
      const mine = path.join(runsDir, 'model-gateway.vsix');
      if (path.resolve(vsix) !== path.resolve(mine)) fs.copyFileSync(vsix, mine);
      const results = slot === 0 ? RESULTS : path.join(RESULTS, `slot${slot}`);
      const base = { root: ROOT, results, runsDir, vsix: mine, slot, grep: opts.grep, keep: opts.keep, kept };
      for (let job = await nextJob(jobs, ready); job; job = await nextJob(jobs, ready))
        await runJob(report, job, base, ready);
    } finally {
      lock.release();
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots, jobs.length) }, (_, n) => worker(n)));
  if (queue) fs.rmSync(queue, { recursive: true, force: true });
  return { kept };
}

/** Debian packages before anything that needs them; false (after saying what to run) when this user cannot install. */
export async function systemPackages(opts, vscode) {
  try {
    await ensureDebianPackages((l) => console.log(l), packageUses({ vscode, versions: opts.versions }));
    return true;
  } catch (err) {
    if (!(err instanceof SystemPackagesMissing)) throw err;
    console.log(`\n[harness] ${err.message}`);
    return false;
  }
}
