// Runs the in-host mocha suite inside the VS Code extension host. Two entry routes, same runner:
// - `run()`: the extensionTestsPath contract (the harness opens the workbench with a `payload` naming this file);
// - `activate()`: when this bundle is the main of the test-only runner extension (scripts/lib/hostRunner.mjs
//   packages it as a VSIX), it runs the suite on startup if MG_HOST_TESTS is set.
// Test files are bundled next to this one as `*.test.js`. Results go to MG_HOST_RESULTS as JSON.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

/** What the harness reads back: counts plus enough detail to print failures. */
export interface HostResults {
  vscodeVersion: string;
  /** suite: the top-level describe() (the harness sums test times per suite). */
  passes: { title: string; suite?: string; durationMs?: number }[];
  failures: { title: string; suite?: string; message: string; stack?: string; durationMs?: number }[];
  /** Hooks of 1 s or more (a suite's time between its tests; not counted as tests). */
  hooks?: { title: string; suite?: string; durationMs: number }[];
  /** Tests that failed once and passed when tried again (mocha retries: 1), with the first failure. */
  retried?: { title: string; message: string; durationMs?: number }[];
  /** All hooks' time together (the many short ones add up). */
  hookMs?: number;
  pending: number;
  error?: string;
}

/** The bundled test files sit next to this bundle (out/test/host/ or the runner extension's folder). */
function testDir(): string {
  return __dirname;
}

function resultsFile(): string {
  return process.env.MG_HOST_RESULTS || path.join(testDir(), 'results.json');
}

/** Appends one line to the progress log the harness tails while the suite runs. */
function progress(line: string): void {
  try {
    fs.appendFileSync(resultsFile() + '.progress', line + '\n');
  } catch {
    // Progress is a convenience; the results file is what counts.
  }
}

function writeResults(results: HostResults): void {
  const file = resultsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Write then rename, so the harness never reads a half-written file.
  fs.writeFileSync(file + '.tmp', JSON.stringify(results, null, 2));
  fs.renameSync(file + '.tmp', file);
}

function vscodeVersion(): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('vscode') as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function createMocha(): Mocha {
  // One retry: a real workbench on 2 loaded cores sometimes misses a UI-level deadline; a test that fails twice fails.
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: Number(process.env.MG_HOST_TIMEOUT_MS || 60_000),
    retries: 1,
  });
  if (process.env.MG_HOST_GREP) mocha.grep(process.env.MG_HOST_GREP);
  const dir = testDir();
  // The images suite goes last: its final test leaves the client's image queue paused for a 61 s Retry-After (it
  // must exceed the client's 60 s limit to test the failure), which any later image request would sit out.
  const last = (f: string) => (f === 'images.test.js' ? 1 : 0);
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.js'))
    .sort((a, b) => last(a) - last(b) || a.localeCompare(b));
  for (const f of files) mocha.addFile(path.join(dir, f));
  progress(`[host] ${files.length} test files in ${dir}`);
  return mocha;
}

/** Runs every bundled test file and writes the results file; never rejects (failures are data). */
export async function runSuite(): Promise<HostResults> {
  const retried: NonNullable<HostResults['retried']> = [];
  const hooks: NonNullable<HostResults['hooks']> = [];
  const results: HostResults = {
    vscodeVersion: vscodeVersion(),
    passes: [],
    failures: [],
    retried,
    hooks,
    hookMs: 0,
    pending: 0,
  };
  try {
    const mocha = createMocha();
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      // The harness echoes these lines live (with a running count), so a long suite never looks hung.
      progress(`[host] ${runner.total} tests`);
      const time = (ms?: number) => (ms !== undefined && ms >= 100 ? ` (${(ms / 1000).toFixed(1)}s)` : '');
      runner.on('suite', (s) => {
        if (s.parent?.root) progress(`  › ${s.title} (${s.total()} tests)`);
      });
      runner.on('pass', (t) => {
        results.passes.push({ title: t.fullTitle(), suite: t.titlePath()[0], durationMs: t.duration });
        progress(`    ✓ ${t.titlePath().slice(1).join(' › ')}${time(t.duration)}`);
      });
      runner.on('fail', (t, err: Error) => {
        results.failures.push({
          title: t.fullTitle(),
          suite: t.titlePath()[0],
          message: String(err?.message ?? err),
          stack: err?.stack,
          durationMs: t.duration,
        });
        progress(
          `    ✗ ${t.titlePath().slice(1).join(' › ')}${time(t.duration)}: ${String(err?.message ?? err).split('\n')[0]}`,
        );
      });
      // A test that failed and passed when tried again shows only its second run's time: say so, with why.
      runner.on('retry', (t, err: Error) => {
        const message = String(err?.message ?? err);
        const reason = message.split('\n')[0].slice(0, 200);
        // The results file keeps the whole message (an assertion's diff): what a flaky test saw is its diagnosis.
        retried.push({ title: t.fullTitle(), message: message.slice(0, 4000), durationMs: t.duration });
        progress(`    ↻ ${t.titlePath().slice(1).join(' › ')}${time(t.duration)} failed, tried again: ${reason}`);
        for (const line of message.split('\n').slice(1, 16)) if (line.trim()) progress(`        ${line.slice(0, 200)}`);
      });
      // As the UI layer's reporter does: where a suite's time hides between its tests.
      runner.on('hook end', (h) => {
        const ms = h.duration ?? 0;
        results.hookMs = (results.hookMs ?? 0) + ms;
        if (ms < 1000) return;
        hooks.push({ title: h.fullTitle(), suite: h.titlePath()[0], durationMs: ms });
        progress(`    ⋯ ${h.title}${time(ms)}`);
      });
      runner.on('pending', () => {
        results.pending++;
      });
    });
  } catch (err) {
    results.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    results.failures.push({ title: 'host suite failed to load', message: results.error });
  }
  writeResults(results);
  return results;
}

/** extensionTestsPath contract: VS Code awaits this; a rejection marks the run failed. */
export async function run(): Promise<void> {
  const results = await runSuite();
  if (results.failures.length) throw new Error(`${results.failures.length} host test(s) failed`);
}

/** Runner-extension route: run the suite once per extension host when the harness asked for it. */
export function activate(): void {
  if (!process.env.MG_HOST_TESTS) return;
  void runSuite();
}

export function deactivate(): void {
  // Nothing to dispose.
}
