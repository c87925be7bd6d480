#!/usr/bin/env node
// `npm test`: build, unit + browser tests, VSIX, provisioned code-server (real VS Code) per version,
// the in-host mocha suite and the UI suite. Ends with one line `N passed, M failed` over all layers.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, killAll, killChildrenOnExit, secs, withDirLock, withSlotLock } from './lib/proc.mjs';
import { provision, DEFAULT_VERSIONS } from './provision.mjs';
import { packageVsix } from './package.mjs';
import { startEmulatorProcess } from './lib/emulator.mjs';
import { runHostLayer, runUiLayer } from './lib/layers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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
  --help            this text
Env: MG_HOST_ROUTE=payload|vsix (force the in-host route), MG_HOST_SUITE_TIMEOUT_MS (20 min), MG_HOST_IDLE_TIMEOUT_MS (5 min),
     MG_UI_LAYER_TIMEOUT_MS (8 min per version), MG_UI_TIMEOUT_MS (30 s per UI action).
Artefacts: test-results/ (logs of code-server, extension host and emulator; screenshots; results JSON).`;

function parseArgs(argv) {
  const opts = { layers: new Set(), grep: undefined, versions: DEFAULT_VERSIONS, keep: false, build: true, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--unit' || a === '--host' || a === '--ui' || a === '--soak') opts.layers.add(a.slice(2));
    else if (a === '--grep') opts.grep = argv[++i];
    else if (a === '--vscode') opts.versions = argv[++i].split(',');
    else if (a === '--keep') opts.keep = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--help' || a === '-h') opts.help = true;
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  if (!opts.layers.size) opts.layers = new Set(['unit', 'host', 'ui']);
  return opts;
}

/** One row per layer (and VS Code version): counts plus failure details. */
const summary = [];

function record(row) {
  summary.push({ passed: 0, failed: 0, pending: 0, failures: [], ...row });
}

async function step(name, fn) {
  const t0 = Date.now();
  console.log(`\n=== ${name}`);
  try {
    const value = await fn();
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
  const args = [path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--require', 'tsx/cjs', '--timeout', String(timeoutMs),
    '--reporter', path.join(ROOT, 'scripts', 'lib', 'reporter.cjs'), ...globs];
  if (opts.grep) args.push('--grep', opts.grep);
  const t0 = Date.now();
  console.log(`\n=== ${name} tests`);
  await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, MG_REPORT_FILE: report, MG_RESULTS_DIR: RESULTS } })
    .catch(() => undefined); // failures are counted from the report
  console.log(`=== ${name} tests: ${secs(t0)}s`);
  if (!fs.existsSync(report)) {
    record({ layer: name, failed: 1, failures: [{ title: `mocha (${name})`, message: 'crashed before writing its report' }] });
    return undefined;
  }
  const { tests } = JSON.parse(fs.readFileSync(report, 'utf8'));
  fs.rmSync(report, { force: true });
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

/** Static checks, one test each: strict typecheck of the node and webview tsconfigs, and ESLint. */
async function checksLayer() {
  const bin = (...p) => path.join(ROOT, 'node_modules', ...p);
  const checks = [
    ['typecheck (node: src, test, bench)', [bin('typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json']],
    ['typecheck (webviews)', [bin('typescript', 'bin', 'tsc'), '--noEmit', '-p', path.join('src', 'webview', 'tsconfig.json')]],
    ['eslint (no-floating-promises, no vscode in pure layers)', [bin('eslint', 'bin', 'eslint.js'), 'src', 'test', 'bench']],
  ];
  const row = { layer: 'checks', passed: 0, failed: 0, failures: [] };
  for (const [title, args] of checks) {
    try {
      await run(process.execPath, args, { cwd: ROOT, quiet: true });
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
  const tests = await nodeMocha('unit + browser', ['test/unit/**/*.test.ts', 'test/peer/**/*.test.ts', 'test/browser/**/*.test.ts', 'test/realgw/**/*.test.ts'], opts, 30_000);
  if (!tests) return;
  // test/realgw: our client through a real third-party gateway from npm (its own summary row).
  // test/peer: the official Anthropic SDK's own test cases replayed against our client (its own row).
  const layerOf = (t) => (/[\\/]test[\\/]browser[\\/]/.test(t.file ?? '') ? 'browser' : /[\\/]test[\\/]realgw[\\/]/.test(t.file ?? '') ? 'real gateway'
    : /[\\/]test[\\/]peer[\\/]/.test(t.file ?? '') ? 'peer' : 'unit');
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

function printSummary(t0) {
  console.log('\n=== summary');
  let passed = 0;
  let failed = 0;
  for (const row of summary) {
    passed += row.passed;
    failed += row.failed;
    const name = row.version ? `${row.layer} (VS Code ${row.version})` : row.layer;
    const extra = [row.pending ? `${row.pending} pending` : '', row.note ?? ''].filter(Boolean).join(', ');
    console.log(`${name.padEnd(26)} ${row.passed} passed, ${row.failed} failed${extra ? ` (${extra})` : ''}`);
    for (const f of row.failures) console.log(`    ✗ ${f.title}\n      ${String(f.message).split('\n').slice(0, 6).join('\n      ')}`);
  }
  console.log(`total time ${secs(t0)}s; artefacts in ${path.relative(process.cwd(), RESULTS) || RESULTS}/`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed;
}

/** --keep runs use their own profile folders; remove those whose run has ended. */
function removeStaleKeepDirs() {
  const base = path.join(ROOT, '.vscode-test');
  for (const d of fs.existsSync(base) ? fs.readdirSync(base) : []) {
    const m = /^runs-keep-(\d+)$/.exec(d);
    if (!m) continue;
    try { process.kill(Number(m[1]), 0); } catch { fs.rmSync(path.join(base, d), { recursive: true, force: true }); }
  }
}

async function vscodeLayers(opts, slot) {
  removeStaleKeepDirs();
  const runsDir = path.join(ROOT, '.vscode-test', opts.keep ? `runs-keep-${process.pid}` : `runs-${slot}`);
  fs.mkdirSync(runsDir, { recursive: true });
  const vsix = opts.build
    ? await step('package VSIX', async () => {
      const out = path.join(runsDir, 'model-gateway.vsix');
      const { file, bytes } = await withBuildLock(() => packageVsix({ out, noBuild: false, quiet: true }));
      console.log(`VSIX ${path.relative(ROOT, file)}: ${(bytes / 1024).toFixed(1)} KiB`);
      return file;
    })
    : [path.join(runsDir, 'model-gateway.vsix'), ...fs.readdirSync(ROOT).filter((f) => f.endsWith('.vsix')).map((f) => path.join(ROOT, f))]
      .find((f) => fs.existsSync(f));
  if (!vsix) return;
  const provisioned = await step(`provision VS Code ${opts.versions.join(', ')}`, () => provision(opts.versions));
  if (!provisioned) return;
  const emulator = await step('start emulator', async () => {
    const em = await startEmulatorProcess(ROOT, { logFile: path.join(RESULTS, 'emulator.log') });
    if (!em) console.log('!!! emulator not available (src/emulator/index.ts missing): suites that need it will skip');
    else console.log(`emulator ${em.url}`);
    return em ?? null;
  });
  // Slot 0 logs to test-results/<version>/<layer>/, other slots to test-results/slot<N>/<version>/<layer>/.
  const results = slot === 0 ? RESULTS : path.join(RESULTS, `slot${slot}`);
  const ctx = { root: ROOT, results, runsDir, vsix, emulator: emulator ?? null, grep: opts.grep, keep: opts.keep, kept: [] };
  for (const version of opts.versions) {
    const info = provisioned[version];
    if (opts.layers.has('host')) {
      const row = await step(`host tests, VS Code ${version}`, () => runHostLayer(ctx, info));
      if (row) record({ layer: 'host', version, ...row });
    }
    if (opts.layers.has('ui')) {
      const row = await step(`UI tests, VS Code ${version}`, () => runUiLayer(ctx, info));
      if (row) record({ layer: 'ui', version, ...row });
    }
  }
  return ctx;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) { console.log(HELP); return 0; }
  killChildrenOnExit();
  const t0 = Date.now();
  fs.mkdirSync(RESULTS, { recursive: true });
  if (opts.build) await step('build', build);
  if (opts.layers.has('unit') && !opts.grep) await step('static checks', checksLayer);
  if (opts.layers.has('unit')) await unitLayer(opts);
  if (opts.layers.has('soak')) await soakLayer(opts);
  let ctx;
  if (opts.layers.has('host') || opts.layers.has('ui')) {
    // At most two VS Code runs at a time per checkout, each in its own slot (profiles, bundles, VSIX):
    // more code-servers at once on a 2-core machine only make every run slow.
    const locks = [0, 1].map((i) => path.join(ROOT, '.vscode-test', `.lock-harness-${i}`));
    ctx = await withSlotLock(locks, (slot) => vscodeLayers(opts, slot),
      (pids) => console.log(`\n... waiting for a free VS Code slot (held by test runs ${pids.join(', ')})`));
  }
  const keeping = opts.keep && ctx?.kept.length;
  if (keeping) {
    console.log('\n=== kept running (Ctrl+C stops everything)');
    for (const k of ctx.kept) console.log(`${k}`);
    if (ctx.emulator) console.log(`emulator: ${ctx.emulator.url} (admin token ${ctx.emulator.adminToken})`);
  }
  const failed = printSummary(t0);
  if (keeping) await new Promise(() => undefined);
  return failed ? 1 : 0;
}

main().then(
  async (code) => { await killAll(); process.exit(code); },
  async (err) => { console.error(err); await killAll(); console.log('0 passed, 1 failed'); process.exit(1); },
);
