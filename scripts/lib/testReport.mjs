// What one run of `npm test` found (scripts/test.mjs): a row per layer, the span of every step, every test's
// time and outcome; printed as a timing table, the slowest tests and suites, and one line `N passed, M failed`.
// With --repeat, `printRepeatSummary` compares the runs and names every test that failed in some of them.
import fs from 'node:fs';
import path from 'node:path';
import { secs } from './proc.mjs';
import { DEFAULT_VERSIONS } from '../provision.mjs';

/** A layer row from a mocha report's tests. */
export function countRow(layer, tests) {
  return {
    layer,
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    failures: tests.filter((t) => t.state === 'failed'),
  };
}

/** The findings of one run. */
export function createReport(resultsDir) {
  /** One row per layer (and VS Code version): counts plus failure details. */
  const summary = [];
  /** Start and end of every step and layer (they may overlap), for the timing table. */
  const timings = [];
  /** Every test that ran, with its layer and duration, for the slowest ten. */
  const testTimes = [];
  /** `[layer] full title` → 'passed' | 'failed', for --repeat. */
  const outcomes = new Map();

  const outcome = (key, state) => {
    if (state !== 'passed' && state !== 'failed') return;
    if (outcomes.get(key) !== 'failed') outcomes.set(key, state);
  };

  function record(row) {
    const full = { passed: 0, failed: 0, pending: 0, failures: [], ...row };
    summary.push(full);
    // Failures that are not mocha tests (a step, a static check, a crashed layer) count as tests of their own.
    const layer = full.version ? `${full.layer} ${full.version}` : full.layer;
    for (const f of full.failures) if (f.state === undefined) outcome(`[${layer}] ${f.title}`, 'failed');
  }

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

  /** Keeps the durations and outcomes of a layer's tests (mocha report rows: title, durationMs, file, state). */
  function keepTests(layer, tests) {
    for (const t of tests ?? []) {
      // Tests of one mocha run may come from several folders (test/unit, test/browser, …): label them by folder.
      const folder = /[\\/]test[\\/]([^\\/]+)[\\/]/.exec(t.file ?? '')?.[1];
      outcome(`[${layer ?? folder}] ${t.title}`, t.state);
      if (typeof t.durationMs !== 'number') continue;
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
    console.log(
      `${'total'.padEnd(34)} ${''.padStart(6)}   ${at(Date.now() - t0).padStart(5)}  ${secs(t0).padStart(6)}s`,
    );
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

  /** Every test's and step's time, for finding where a run's minutes went (docs/testing.md#time). */
  function writeTimes(t0) {
    try {
      fs.mkdirSync(resultsDir, { recursive: true });
      const steps = timings.map((e) => ({
        name: e.name,
        startS: (e.start - t0) / 1000,
        endS: ((e.end ?? Date.now()) - t0) / 1000,
      }));
      fs.writeFileSync(path.join(resultsDir, 'times.json'), JSON.stringify({ steps, tests: testTimes }, null, 1));
    } catch {
      // The tables above say the same; a read-only folder must not fail the run.
    }
  }

  /** Prints the run's tables and summary; returns how many tests failed. */
  function printSummary(t0) {
    writeTimes(t0);
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
    console.log(`total time ${secs(t0)}s; artefacts in ${path.relative(process.cwd(), resultsDir) || resultsDir}/`);
    console.log(`${passed} passed, ${failed} failed`);
    return { passed, failed, seconds: Number(secs(t0)) };
  }

  return { record, timed, keepTests, printSummary, outcomes };
}

/**
 * After --repeat N: each run's line, then every test that failed in some run: flaky when it passed in another,
 * failing when it failed every time. Returns the number of tests that failed at least once.
 */
export function printRepeatSummary(runs) {
  console.log(`\n=== repeat: ${runs.length} runs`);
  runs.forEach((r, i) =>
    console.log(`run ${i + 1}: ${r.totals.passed} passed, ${r.totals.failed} failed in ${r.totals.seconds}s`),
  );
  const keys = new Set(runs.flatMap((r) => [...r.report.outcomes.keys()]));
  const flaky = [];
  const failing = [];
  for (const key of [...keys].sort()) {
    const states = runs.map((r) => r.report.outcomes.get(key));
    const failedIn = states.filter((s) => s === 'failed').length;
    if (!failedIn) continue;
    const passedIn = states.filter((s) => s === 'passed').length;
    // A failure without a passing row (a step, a check, a crashed layer) that did not fail every run is flaky too.
    const line = `${key}  (failed in ${failedIn} of ${runs.length} runs)`;
    if (passedIn > 0 || failedIn < runs.length) flaky.push(line);
    else failing.push(line);
  }
  console.log(`\n=== flaky: ${flaky.length} (passed in some runs, failed in others)`);
  for (const line of flaky) console.log(`  ~ ${line}`);
  console.log(`\n=== failing every run: ${failing.length}`);
  for (const line of failing) console.log(`  ✗ ${line}`);
  const passed = runs.reduce((n, r) => n + r.totals.passed, 0);
  const failed = runs.reduce((n, r) => n + r.totals.failed, 0);
  console.log(`${passed} passed, ${failed} failed (over ${runs.length} runs; ${flaky.length} flaky)`);
  return flaky.length + failing.length;
}
