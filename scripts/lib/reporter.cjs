// Mocha reporter for the harness: one line per suite and per test (with its time and a running count, so a
// long layer never looks hung), mocha's usual failure details at the end, and a JSON summary written to
// MG_REPORT_FILE ({tests: [{title, suite, file, state, durationMs, message?}], done}) so scripts/test.mjs can count
// per layer and list the slowest tests and suites (suite: the top-level describe()).
const fs = require('fs');
const Mocha = require('mocha');
const { claimSuite } = require('./uiQueue.cjs');

const { Base } = Mocha.reporters;

class HarnessReporter extends Base {
  constructor(runner, options) {
    super(runner, options);
    const tests = [];
    const file = process.env.MG_REPORT_FILE;
    // Read at start: mocha applies --grep after constructing the reporter.
    let total = runner.total;
    runner.once('start', () => {
      total = runner.total;
    });
    let n = 0;
    // Written after every test too, so a run the harness has to kill still leaves its counts.
    const save = (done) => {
      if (file) fs.writeFileSync(file, JSON.stringify({ tests, done }, null, 2));
    };
    const time = (t) => (t.duration >= 100 ? ` (${(t.duration / 1000).toFixed(1)}s)` : '');
    const count = () => `[${++n}/${total}]`;
    // Title below the file's top-level suite (printed once as its header), nested describe()s included.
    const name = (t) => t.titlePath().slice(1).join(' › ') || t.title;
    // A top-level suite the other process of a UI queue runs (uiQueue.cjs): pending here before its hooks run, and
    // left out of this process's counts and output.
    const elsewhere = new WeakSet();
    const topSuite = (t) => {
      let s = t.parent;
      while (s?.parent && !s.parent.root) s = s.parent;
      return s;
    };
    runner.on('suite', (s) => {
      if (!s.parent?.root) return; // nested describe()s would double the output
      if (!claimSuite(s)) {
        s.pending = true;
        elsewhere.add(s);
        total -= s.total();
        return;
      }
      Base.consoleLog(`  › ${s.title} (${s.total()} tests)`);
    });
    runner.on('pass', (t) => {
      tests.push({
        title: t.fullTitle(),
        suite: t.titlePath()[0],
        file: t.file,
        state: 'passed',
        durationMs: t.duration,
      });
      Base.consoleLog(`    ✓ ${name(t)}${time(t)} ${count()}`);
      save(false);
    });
    runner.on('pending', (t) => {
      if (elsewhere.has(topSuite(t))) {
        this.stats.pending--;
        return;
      }
      tests.push({ title: t.fullTitle(), file: t.file, state: 'pending' });
      Base.consoleLog(`    - ${name(t)} (pending) ${count()}`);
      save(false);
    });
    runner.on('fail', (t, err) => {
      tests.push({
        title: t.fullTitle(),
        suite: t.titlePath()[0],
        file: t.file ?? t.parent?.file,
        state: 'failed',
        durationMs: t.duration,
        message: String(err?.message ?? err),
      });
      // A failing hook is not one of the counted tests.
      Base.consoleLog(`    ✗ ${name(t)}${time(t)} ${t.type === 'hook' ? '' : count()}`);
      save(false);
    });
    // A test that failed and is run again (--retries in the VS Code layers): its first failure is shown, so a test
    // that passes on its second try does not hide a flaky first one.
    runner.on('retry', (t, err) => {
      const lines = String(err?.message ?? err).split('\n');
      Base.consoleLog(`    ↻ ${name(t)}${time(t)} failed, tried again: ${lines[0].slice(0, 200)}`);
      // The rest of the message (an assertion's diff, a locator's call log): what a flaky test saw is its diagnosis.
      for (const line of lines.slice(1, 16)) if (line.trim()) Base.consoleLog(`        ${line.slice(0, 200)}`);
    });
    // Slow hooks (a workbench opened in before(), say) are where a suite's time can hide: shown and kept too,
    // with state 'hook' (not counted as a test).
    runner.on('hook end', (h) => {
      if (!(h.duration >= 1000)) return;
      tests.push({
        title: h.fullTitle(),
        suite: h.titlePath()[0],
        file: h.file ?? h.parent?.file,
        state: 'hook',
        durationMs: h.duration,
      });
      Base.consoleLog(`    ⋯ ${h.title}${time(h)}`);
    });
    runner.once('end', () => {
      save(true);
      this.epilogue();
    });
  }
}

module.exports = HarnessReporter;
