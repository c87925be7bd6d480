#!/usr/bin/env node
// `npm test`: system packages, build, VSIX, provisioned code-server (real VS Code) per version, static checks,
// unit + browser tests, a fresh-clone check, and per VS Code version the in-host mocha suite and the UI suite.
// Ends with a timing table, the slowest ten tests and one line `N passed, M failed` over all layers.
//
// What overlaps (2 cores): provisioning runs in the background from the start; the VS Code layers start as
// soon as the VSIX is packaged and their version is provisioned, two at a time (one per harness slot), while
// the checks, unit tests and fresh-clone check run in this process.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, killAll, killTree, killChildrenOnExit, secs, withDirLock, acquireSlot } from './lib/proc.mjs';
import {
  provisionVersion,
  ensureDebianPackages,
  packageUses,
  SystemPackagesMissing,
  DEFAULT_VERSIONS,
} from './provision.mjs';
import { packageVsix } from './package.mjs';
import { runHostLayer, runUiLayer } from './lib/layers.mjs';
import { freshCloneCheck } from './lib/freshClone.mjs';
import { assertNodeVersion } from './lib/startOptions.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NICE = ['/usr/bin/nice', '/bin/nice'].find((f) => fs.existsSync(f));
const RESULTS = path.join(ROOT, 'test-results');

const HELP = `node scripts/test.mjs [options]   (npm test = all layers, all VS Code versions)
  --unit            unit tests (test/unit) and webview bundle tests in Chromium (test/browser)
  --host            in-host mocha suite (test/host/*.test.ts) inside real VS Code (code-server)
  --ui              UI suite (test/ui/*.test.ts): Playwright driving the real workbench
                    (no layer flag = all three)
  --soak            long-running tests (test/soak/**/*.test.ts, mocha in node, no timeout); not part of npm test
  --grep PATTERN    only tests whose full title matches (all layers)
  --vscode V[,V]    VS Code versions for host/UI (default: ${DEFAULT_VERSIONS.join(', ')})
  --keep            leave code-server + emulator running after the run, print the URLs, Ctrl+C to stop
  --no-build        skip the esbuild build and VSIX packaging (reuse dist/ and the last VSIX)
  --vsix FILE       test this VSIX in the VS Code layers (implies --no-build; e.g. one packaged from a clean
                    checkout while the working tree is mid-change)
  --clone           the fresh-clone check (README commands in a git clone of this tree; part of the full run)
  --slots N         VS Code layers at once (1 or 2, default 2: one per free harness slot)
  --help            this text
Env: MG_VSCODE_SLOTS (as --slots), MG_HOST_ROUTE=payload|vsix (force the in-host route), MG_HOST_SUITE_TIMEOUT_MS (20 min), MG_HOST_IDLE_TIMEOUT_MS (5 min),
     MG_UI_LAYER_TIMEOUT_MS (14 min per version), MG_UI_TIMEOUT_MS (30 s per UI action).
Artefacts: test-results/ (logs of code-server, extension host and emulator; screenshots; results JSON).`;

function parseArgs(argv) {
  const opts = {
    layers: new Set(),
    grep: undefined,
    versions: DEFAULT_VERSIONS,
    keep: false,
    build: true,
    help: false,
    clone: false,
    slots: Number(process.env.MG_VSCODE_SLOTS || 2),
    vsix: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--unit' || a === '--host' || a === '--ui' || a === '--soak') opts.layers.add(a.slice(2));
    else if (a === '--grep') opts.grep = argv[++i];
    else if (a === '--vscode') opts.versions = argv[++i].split(',');
    else if (a === '--keep') opts.keep = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--vsix') {
      opts.vsix = path.resolve(argv[++i]);
      opts.build = false;
    } else if (a === '--clone') opts.clone = true;
    else if (a === '--slots') opts.slots = Number(argv[++i]);
    else if (a === '--help' || a === '-h') opts.help = true;
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  if (!opts.layers.size) {
    opts.layers = new Set(['unit', 'host', 'ui']);
    // The full run also clones the tree and runs the README's commands there (not with --grep / --no-build).
    if (!opts.grep && opts.build) opts.clone = true;
  }
  if (!(opts.slots >= 1)) throw new Error('--slots needs a number ≥ 1');
  return opts;
}

/** One row per layer (and VS Code version): counts plus failure details. */
const summary = [];

function record(row) {
  summary.push({ passed: 0, failed: 0, pending: 0, failures: [], ...row });
}

/** Start and end of every step and layer (they may overlap), for the timing table. */
const timings = [];
/** Every test that ran, with its layer and duration, for the slowest ten. */
const testTimes = [];

/** Runs fn and keeps its wall-clock span for the timing table. */
async function timed(name, fn) {
  const entry = { name, start: Date.now(), end: undefined };
  timings.push(entry);
  try {
    return await fn();
  } finally {
    entry.end = Date.now();
  }
}

/** Keeps the durations of a layer's tests (mocha report rows: title, durationMs, file). */
function keepTestTimes(layer, tests) {
  for (const t of tests ?? []) {
    if (typeof t.durationMs !== 'number') continue;
    // Tests of one mocha run may come from several folders (test/unit, test/browser, …): label them by folder.
    const folder = /[\\/]test[\\/]([^\\/]+)[\\/]/.exec(t.file ?? '')?.[1];
    testTimes.push({
      layer: layer ?? folder,
      folder,
      title: t.title,
      suite: t.suite,
      hook: t.state === 'hook',
      ms: t.durationMs,
    });
  }
}

async function step(name, fn) {
  const t0 = Date.now();
  console.log(`\n=== ${name}`);
  try {
    const value = await timed(name, fn);
    console.log(`=== ${name}: done in ${secs(t0)}s`);
    return value;
  } catch (err) {
    console.log(`=== ${name}: FAILED after ${secs(t0)}s: ${err.message}`);
    record({ layer: name, failed: 1, failures: [{ title: name, message: err.message }] });
    return undefined;
  }
}

/** dist/ is shared by every run in this checkout: builds and packaging take turns. */
function withBuildLock(fn) {
  return withDirLock(path.join(ROOT, '.vscode-test', '.lock-build'), fn);
}

async function build() {
  await withBuildLock(() => run(process.execPath, ['esbuild.js'], { cwd: ROOT }));
}

/** Runs mocha in node over globs with the harness reporter; returns the report's tests, or undefined on a crash. */
async function nodeMocha(name, globs, opts, timeoutMs) {
  // pid in the name: helpers may run their unit tests through the harness at the same time.
  const report = path.join(RESULTS, `${name.replace(/\W+/g, '-')}-report.${process.pid}.json`);
  fs.rmSync(report, { force: true });
  const args = [
    path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--require',
    'tsx/cjs',
    '--timeout',
    String(timeoutMs),
    '--reporter',
    path.join(ROOT, 'scripts', 'lib', 'reporter.cjs'),
    ...globs,
  ];
  if (opts.grep) args.push('--grep', opts.grep);
  const t0 = Date.now();
  console.log(`\n=== ${name} tests`);
  // Prefixed lines: VS Code layers may be printing at the same time.
  await timed(`${name} tests`, () =>
    run(process.execPath, args, {
      cwd: ROOT,
      prefix: `[${name}]`,
      env: { ...process.env, MG_REPORT_FILE: report, MG_RESULTS_DIR: RESULTS },
    }).catch(() => undefined),
  ); // failures are counted from the report
  console.log(`=== ${name} tests: ${secs(t0)}s`);
  if (!fs.existsSync(report)) {
    record({
      layer: name,
      failed: 1,
      failures: [{ title: `mocha (${name})`, message: 'crashed before writing its report' }],
    });
    return undefined;
  }
  const { tests } = JSON.parse(fs.readFileSync(report, 'utf8'));
  fs.rmSync(report, { force: true });
  keepTestTimes(undefined, tests);
  return tests;
}

function countRow(layer, tests) {
  return {
    layer,
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    failures: tests.filter((t) => t.state === 'failed'),
  };
}

/** Long-running tests, only with --soak. */
async function soakLayer(opts) {
  const files = fs.existsSync(path.join(ROOT, 'test', 'soak')) ? fs.readdirSync(path.join(ROOT, 'test', 'soak')) : [];
  if (!files.some((f) => f.endsWith('.test.ts'))) {
    record({ layer: 'soak', note: 'no test/soak/**/*.test.ts' });
    return;
  }
  const tests = await nodeMocha('soak', ['test/soak/**/*.test.ts'], opts, 0);
  if (tests) record(countRow('soak', tests));
}

/** Static checks, one test each: strict typecheck of the node and webview tsconfigs, ESLint, and Prettier. */
async function checksLayer() {
  const bin = (...p) => path.join(ROOT, 'node_modules', ...p);
  const checks = [
    ['typecheck (node: src, test, bench)', [bin('typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json']],
    [
      'typecheck (webviews)',
      [bin('typescript', 'bin', 'tsc'), '--noEmit', '-p', path.join('src', 'webview', 'tsconfig.json')],
    ],
    [
      'eslint (no-floating-promises, no vscode in pure layers)',
      [bin('eslint', 'bin', 'eslint.js'), 'src', 'test', 'bench'],
    ],
    // `npm run format` fixes what this finds (.prettierrc.json, .prettierignore say what and how).
    ['prettier (formatting)', [bin('prettier', 'bin', 'prettier.cjs'), '--check', '--log-level', 'warn', '.']],
  ];
  const row = { layer: 'checks', passed: 0, failed: 0, failures: [] };
  for (const [title, args] of checks) {
    try {
      // Lower CPU priority: the checks have no time limits, the VS Code layers running meanwhile do.
      if (NICE) await run(NICE, ['-n', '10', process.execPath, ...args], { cwd: ROOT, quiet: true });
      else await run(process.execPath, args, { cwd: ROOT, quiet: true });
      row.passed++;
    } catch (err) {
      row.failed++;
      row.failures.push({ title, message: err.message });
    }
  }
  record(row);
}

/** Unit and browser tests in one mocha run; the report splits them by folder. */
async function unitLayer(opts) {
  const tests = await nodeMocha(
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
    record({
      layer,
      passed: mine.filter((t) => t.state === 'passed').length,
      failed: mine.filter((t) => t.state === 'failed').length,
      pending: mine.filter((t) => t.state === 'pending').length,
      failures: mine.filter((t) => t.state === 'failed'),
    });
  }
}

/** VS Code rows after the others, by version then layer: layers that ran at once finish in any order. */
function sortedSummary() {
  const rank = (r) => (r.version ? 1 + DEFAULT_VERSIONS.indexOf(r.version) : 0);
  return summary
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || (a.r.version ? a.r.layer.localeCompare(b.r.layer) : a.i - b.i))
    .map(({ r }) => r);
}

/** Wall-clock start (since the run began) and duration of every step and layer; overlapping ones show it. */
function printTimings(t0) {
  console.log('\n=== timing (wall clock; steps that overlap ran at the same time)');
  const at = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}`;
  for (const e of [...timings].sort((a, b) => a.start - b.start)) {
    const end = e.end ?? Date.now();
    console.log(
      `${e.name.padEnd(34)} ${at(e.start - t0).padStart(6)} → ${at(end - t0).padStart(5)}  ${((end - e.start) / 1000).toFixed(1).padStart(6)}s`,
    );
  }
  console.log(`${'total'.padEnd(34)} ${''.padStart(6)}   ${at(Date.now() - t0).padStart(5)}  ${secs(t0).padStart(6)}s`);
}

function printSlowest(n = 10) {
  if (!testTimes.length) return;
  console.log(`\n=== slowest ${Math.min(n, testTimes.length)} tests`);
  for (const t of [...testTimes].sort((a, b) => b.ms - a.ms).slice(0, n)) {
    console.log(`${(t.ms / 1000).toFixed(1).padStart(6)}s  [${t.layer}] ${t.title}`);
  }
}

/** Time per suite of the VS Code layers (its tests plus hooks of 1 s or more: a workbench opened in before()). */
function printSuiteTimes(n = 12) {
  const sums = new Map();
  for (const t of testTimes) {
    if (!t.suite || !/^(ui|host) /.test(t.layer)) continue;
    const key = `[${t.layer}] ${t.suite}`;
    const row = sums.get(key) ?? { key, ms: 0, tests: 0 };
    row.ms += t.ms;
    row.tests += t.hook ? 0 : 1;
    sums.set(key, row);
  }
  if (!sums.size) return;
  console.log(`\n=== slowest ${Math.min(n, sums.size)} suites (VS Code layers; tests + hooks ≥ 1 s)`);
  for (const r of [...sums.values()].sort((a, b) => b.ms - a.ms).slice(0, n)) {
    console.log(`${(r.ms / 1000).toFixed(1).padStart(6)}s  ${r.key} (${r.tests} tests)`);
  }
}

function printSummary(t0) {
  printTimings(t0);
  printSlowest();
  printSuiteTimes();
  console.log('\n=== summary');
  let passed = 0;
  let failed = 0;
  for (const row of sortedSummary()) {
    passed += row.passed;
    failed += row.failed;
    const name = row.version ? `${row.layer} (VS Code ${row.version})` : row.layer;
    const extra = [row.pending ? `${row.pending} pending` : '', row.note ?? ''].filter(Boolean).join(', ');
    console.log(`${name.padEnd(26)} ${row.passed} passed, ${row.failed} failed${extra ? ` (${extra})` : ''}`);
    for (const f of row.failures)
      console.log(`    ✗ ${f.title}\n      ${String(f.message).split('\n').slice(0, 6).join('\n      ')}`);
  }
  console.log(`total time ${secs(t0)}s; artefacts in ${path.relative(process.cwd(), RESULTS) || RESULTS}/`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

/** Remove run folders (--keep profiles, packaged VSIX) of harness runs that have ended. */
function removeStaleRunDirs() {
  const base = path.join(ROOT, '.vscode-test');
  for (const d of fs.existsSync(base) ? fs.readdirSync(base) : []) {
    const m = /^(?:runs-keep|vsix)-(\d+)(?:-\d+)?$/.exec(d);
    if (!m) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch {
      fs.rmSync(path.join(base, d), { recursive: true, force: true });
    }
  }
}

/** Packages the VSIX once per run into a folder of this run; the VS Code layers copy it into their slot. */
async function packageStep(opts) {
  if (opts.vsix) {
    if (!fs.existsSync(opts.vsix))
      record({
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
      record({
        layer: 'package VSIX',
        failed: 1,
        failures: [{ title: 'package VSIX', message: '--no-build but no VSIX from an earlier run' }],
      });
    return found;
  }
  return step('package VSIX', async () => {
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
function provisionInBackground(versions) {
  const ready = {};
  let chain = Promise.resolve();
  for (const version of versions) {
    const entry = { settled: false };
    entry.promise = chain = chain.then(async () => {
      const t0 = Date.now();
      try {
        entry.info = await timed(`provision VS Code ${version}`, () =>
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
async function runJob(job, base, ready) {
  const label = `${job.layer} ${job.version}`;
  const { info, error } = ready[job.version];
  if (error) {
    record({
      layer: job.layer,
      version: job.version,
      failed: 1,
      failures: [{ title: `provision VS Code ${job.version}`, message: error.message }],
    });
    return;
  }
  const ctx = { ...base, prefix: `[${label}]` };
  const t0 = Date.now();
  console.log(`\n=== ${label}: starting (slot ${base.slot})`);
  try {
    const { tests, ...row } = await timed(`${job.layer === 'ui' ? 'UI' : 'host'} tests, VS Code ${job.version}`, () =>
      (job.layer === 'host' ? runHostLayer : runUiLayer)(ctx, info),
    );
    keepTestTimes(label, tests);
    record({ layer: job.layer, version: job.version, ...row });
    console.log(`=== ${label}: ${row.passed ?? 0} passed, ${row.failed ?? 0} failed in ${secs(t0)}s`);
  } catch (err) {
    console.log(`=== ${label}: FAILED after ${secs(t0)}s: ${err.message}`);
    record({ layer: job.layer, version: job.version, failed: 1, failures: [{ title: label, message: err.message }] });
  } finally {
    if (ctx.ownEmulator && !ctx.keep) killTree(ctx.emulator.child);
  }
}

/**
 * Runs every requested (layer, version) in up to opts.slots harness slots at once. A slot is a lock plus its own
 * folders (profiles, bundles, VSIX copy; logs in test-results/ for slot 0, test-results/slot<N>/ otherwise); at
 * most two VS Code runs share a checkout, so a second slot held by another run is simply not used until it frees.
 */
async function vscodeLayers(opts, vsix, ready) {
  const jobs = [];
  // Longest first, so two slots end at about the same time: UI layers before host layers, and the newest VS Code
  // first (it runs more tests: the chat-provider suites need 1.104+). A job whose version is still being
  // provisioned is passed over for one that is ready (nextJob).
  for (const layer of ['ui', 'host']) {
    for (const version of [...opts.versions].reverse()) if (opts.layers.has(layer)) jobs.push({ layer, version });
  }
  const kept = [];
  const locks = [0, 1].map((i) => path.join(ROOT, '.vscode-test', `.lock-harness-${i}`));
  const worker = async (n) => {
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
      for (let job = await nextJob(jobs, ready); job; job = await nextJob(jobs, ready)) await runJob(job, base, ready);
    } finally {
      lock.release();
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.slots, 2, jobs.length) }, (_, n) => worker(n)));
  return { kept };
}

/** Debian packages before anything that needs them; false (after saying what to run) when this user cannot install. */
async function systemPackages(opts, vscode) {
  try {
    await ensureDebianPackages((l) => console.log(l), packageUses({ vscode, versions: opts.versions }));
    return true;
  } catch (err) {
    if (!(err instanceof SystemPackagesMissing)) throw err;
    console.log(`\n[harness] ${err.message}`);
    return false;
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    console.log(HELP);
    return 0;
  }
  // package.json's engines.node, as the README says: stop before anything runs on an older Node.
  assertNodeVersion(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')));
  killChildrenOnExit();
  const t0 = Date.now();
  const vscode = opts.layers.has('host') || opts.layers.has('ui');
  // 1. The machine: Chromium (browser tests) and code-server's packages, before the first layer that needs them.
  if ((opts.layers.has('unit') || vscode) && !(await timed('system packages', () => systemPackages(opts, vscode))))
    return 1;
  fs.mkdirSync(RESULTS, { recursive: true });
  removeStaleRunDirs();
  // 2. Provisioning in the background (cached: instant; cold: minutes) while the rest gets going.
  const ready = vscode ? provisionInBackground(opts.versions) : undefined;
  if (opts.build) await step('build', build);
  // 3. The VSIX, then the VS Code layers start in their slots (packaging builds in a staging copy, not in dist/).
  const vsix = vscode ? await packageStep(opts) : undefined;
  const vscodeRun = vscode && vsix ? vscodeLayers(opts, vsix, ready) : Promise.resolve({ kept: [] });
  // 4. Meanwhile in this process: static checks, unit + browser tests, the fresh-clone check.
  if (opts.layers.has('unit') && !opts.grep) await step('static checks', checksLayer);
  if (opts.layers.has('unit')) await unitLayer(opts);
  if (opts.layers.has('soak')) await soakLayer(opts);
  if (opts.clone) {
    // `npm start` in the clone runs the newest VS Code: wait for its provisioning here (in the background) to end, so
    // the clone links the finished build instead of installing it again, into the same folder, within its time limit.
    const newest = DEFAULT_VERSIONS.at(-1);
    if (ready?.[newest]) await ready[newest].promise;
    const row = await step('fresh clone', () =>
      freshCloneCheck(ROOT, { log: (l) => console.log(`[fresh clone] ${l}`) }),
    );
    if (row) record({ layer: 'fresh clone', ...row });
  }
  const ctx = await vscodeRun;
  if (vsix && opts.build) fs.rmSync(path.dirname(vsix), { recursive: true, force: true });
  const keeping = opts.keep && ctx.kept.length;
  if (keeping) {
    console.log('\n=== kept running (Ctrl+C stops everything)');
    for (const k of ctx.kept) console.log(`${k}`);
  }
  const failed = printSummary(t0);
  if (keeping) await new Promise(() => undefined);
  return failed ? 1 : 0;
}

main().then(
  async (code) => {
    await killAll();
    process.exit(code);
  },
  async (err) => {
    console.error(err);
    await killAll();
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
