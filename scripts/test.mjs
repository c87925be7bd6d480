#!/usr/bin/env node
// `npm test`: system packages, build, VSIX, provisioned code-server (real VS Code) per version, static checks,
// unit + browser tests, a fresh-clone check, and per VS Code version the in-host mocha suite and the UI suite.
// Ends with a timing table, the slowest ten tests and one line `N passed, M failed` over all layers; with
// --repeat N, runs the layers N times and names every flaky test at the end.
//
// What overlaps (2 cores): provisioning runs in the background from the start; the VS Code layers start as
// soon as the VSIX is packaged and their version is provisioned, one at a time while the static checks run in this
// process, then two at a time (three on a warm machine: scripts/lib/testSchedule.mjs) beside the unit + browser tests
// and the fresh-clone check (MG_SECOND_SLOT=early opens the slots at once, after-unit only after the unit tests).
//
// The command line is scripts/lib/testCli.mjs, what runs when scripts/lib/testSchedule.mjs, and what a run
// found scripts/lib/testReport.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { killAll, killChildrenOnExit } from './lib/proc.mjs';
import { DEFAULT_VERSIONS } from './provision.mjs';
import { freshCloneCheck } from './lib/freshClone.mjs';
import { assertNodeVersion } from './lib/startOptions.mjs';
import { HELP, parseOptions } from './lib/testCli.mjs';
import { createReport, printRepeatSummary } from './lib/testReport.mjs';
import {
  ROOT,
  RESULTS,
  build,
  checksLayer,
  packageStep,
  provisionInBackground,
  removeStaleRunDirs,
  soakLayer,
  step,
  systemPackages,
  unitLayer,
  vscodeLayers,
} from './lib/testSchedule.mjs';

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) {
    console.log(HELP);
    return 0;
  }
  // package.json's engines.node, as the README says: stop before anything runs on an older Node.
  assertNodeVersion(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')));
  killChildrenOnExit();
  const vscode = opts.layers.has('host') || opts.layers.has('ui');
  // 1. The machine: Chromium (browser tests) and code-server's packages, before the first layer that needs them.
  const first = createReport(RESULTS);
  const t0 = Date.now();
  if (
    (opts.layers.has('unit') || vscode) &&
    !(await first.timed('system packages', () => systemPackages(opts, vscode)))
  )
    return 1;
  fs.mkdirSync(RESULTS, { recursive: true });
  removeStaleRunDirs();
  // 2. Provisioning in the background (cached: instant; cold: minutes) while the rest gets going.
  const ready = vscode ? provisionInBackground(first, opts.versions) : undefined;
  if (opts.build) await step(first, 'build', build);
  // 3. The VSIX, then the VS Code layers start in their slots (packaging builds in a staging copy, not in dist/).
  const vsix = vscode ? await packageStep(first, opts) : undefined;
  const runs = [];
  for (let n = 1; n <= opts.repeat; n++) {
    if (opts.repeat > 1) console.log(`\n=== run ${n} of ${opts.repeat}`);
    const report = n === 1 ? first : createReport(RESULTS);
    const started = n === 1 ? t0 : Date.now();
    const totals = await oneRun(opts, { report, vsix, ready, once: n === 1 }, started);
    runs.push({ report, totals });
    if (totals.keeping) await new Promise(() => undefined);
  }
  if (vsix && opts.build) fs.rmSync(path.dirname(vsix), { recursive: true, force: true });
  if (opts.repeat > 1) return printRepeatSummary(runs) ? 1 : 0;
  return runs[0].totals.failed ? 1 : 0;
}

/** The layers once; `once` adds what a repeat does not run again (static checks, the fresh-clone check). */
async function oneRun(opts, { report, vsix, ready, once }, t0) {
  const vscode = opts.layers.has('host') || opts.layers.has('ui');
  // On 2 cores, one VS Code layer runs beside the static checks; the second slot opens when they end, so that the
  // unit + browser tests and two VS Code layers share the machine (docs/testing.md#time has the schedules measured).
  const secondSlot = process.env.MG_SECOND_SLOT ?? 'after-checks';
  let openSecondSlot;
  const secondSlotOpen = new Promise((resolve) => (openSecondSlot = resolve));
  if (secondSlot === 'early') openSecondSlot();
  const vscodeRun =
    vscode && vsix ? vscodeLayers(report, opts, vsix, ready, { secondSlotOpen }) : Promise.resolve({ kept: [] });
  // 4. Meanwhile in this process: static checks, then the unit + browser tests and, beside them (at a lower priority),
  // the fresh-clone check.
  let cloneCheck = Promise.resolve();
  try {
    if (once && opts.layers.has('unit') && !opts.grep) await step(report, 'static checks', () => checksLayer(report));
    if (secondSlot !== 'after-unit') openSecondSlot();
    // Not after the unit tests: with three VS Code slots (a warm machine) its minute was the run's last (7:21, the
    // slots done at 7:15), and it fits where the first layers leave a core idle.
    if (once && opts.clone)
      cloneCheck = freshClone(report, ready).catch((err) =>
        report.record({ layer: 'fresh clone', failed: 1, failures: [{ title: 'fresh clone', message: err.message }] }),
      );
    if (opts.layers.has('unit')) await unitLayer(report, opts);
  } finally {
    openSecondSlot();
  }
  if (opts.layers.has('soak')) await soakLayer(report, opts);
  await cloneCheck;
  const ctx = await vscodeRun;
  const keeping = opts.keep && ctx.kept.length;
  if (keeping) {
    console.log('\n=== kept running (Ctrl+C stops everything)');
    for (const k of ctx.kept) console.log(`${k}`);
  }
  return { ...report.printSummary(t0), keeping };
}

/** The fresh-clone check (the README's commands in a clone of this tree); records its row. */
async function freshClone(report, ready) {
  // `npm start` in the clone runs the newest VS Code: wait for its provisioning here (in the background) to end, so
  // the clone links the finished build instead of installing it again, into the same folder, within its time limit.
  const newest = DEFAULT_VERSIONS.at(-1);
  if (ready?.[newest]) await ready[newest].promise;
  const row = await step(report, 'fresh clone', () =>
    freshCloneCheck(ROOT, { log: (l) => console.log(`[fresh clone] ${l}`) }),
  );
  if (row) report.record({ layer: 'fresh clone', ...row });
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
