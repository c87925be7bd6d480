// Mocha reporter for the harness: the usual spec output, plus a JSON summary written to
// MG_REPORT_FILE ({tests: [{title, file, state, message?}]}) so scripts/test.mjs can count per layer.
const fs = require('fs');
const Mocha = require('mocha');

class HarnessReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const tests = [];
    const file = process.env.MG_REPORT_FILE;
    // Written after every test too, so a run the harness has to kill still leaves its counts.
    const save = (done) => { if (file) fs.writeFileSync(file, JSON.stringify({ tests, done }, null, 2)); };
    runner.on('pass', (t) => { tests.push({ title: t.fullTitle(), file: t.file, state: 'passed' }); save(false); });
    runner.on('pending', (t) => { tests.push({ title: t.fullTitle(), file: t.file, state: 'pending' }); save(false); });
    runner.on('fail', (t, err) => {
      tests.push({ title: t.fullTitle(), file: t.file ?? t.parent?.file, state: 'failed', message: String(err?.message ?? err) });
      save(false);
    });
    runner.once('end', () => save(true));
  }
}

module.exports = HarnessReporter;
