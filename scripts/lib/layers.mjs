// The two layers that need a real VS Code: the in-host mocha suite and the Playwright UI suite.
// Each gets a fresh profile (user data, extensions, workspace), the freshly packaged VSIX and its own
// code-server; logs land in test-results/<version>/<layer>/.
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from './chromium.mjs';
import { run, killTree, secs } from './proc.mjs';
import { prepareProfile, installVsix, startCodeServer, collectLogs, testBuiltinExtensions } from './codeServer.mjs';
import { startEmulatorProcess } from './emulator.mjs';
import { bundleHostTests } from './hostBundle.mjs';
import { packageHostRunner } from './hostRunner.mjs';
import { filesForVersion, invertedGrepForVersion, queueOrder, uiFileOrder } from './versionMatrix.mjs';
import uiQueue from './uiQueue.cjs';

const DEMO_KEY = 'mg-demo-key-0001';

/**
 * How the in-host suite gets into the extension host. `payload`: the workbench URL names the installed
 * extension as extensionDevelopmentPath and the runner as extensionTestsPath (verified on 1.100.3).
 * `vsix`: a test-only runner extension carries the suite and runs it on startup (1.139.1, where the
 * payload route does not load the development extension).
 */
export function hostRoute(version) {
  if (process.env.MG_HOST_ROUTE) return process.env.MG_HOST_ROUTE;
  return version === '1.100.3' ? 'payload' : 'vsix';
}

function layerDirs(ctx, info, layer) {
  const logs = path.join(ctx.results, info.version, layer);
  fs.rmSync(logs, { recursive: true, force: true });
  fs.mkdirSync(logs, { recursive: true });
  return { logs, profileDir: path.join(ctx.runsDir, `${info.version}-${layer}`) };
}

/** Settings + env every VS Code layer shares. */
function vscodeEnvironment(ctx, info, profile) {
  const settings = ctx.emulator ? { 'modelGateway.baseUrl': ctx.emulator.url } : {};
  const env = {
    MODEL_GATEWAY_API_KEY: DEMO_KEY,
    MODEL_GATEWAY_API_KEY_NAME: 'demo (emulator)',
    MG_VSCODE_VERSION: info.version,
    MG_WORKSPACE: profile?.workspace ?? '',
    MG_RESULTS_DIR: ctx.results,
  };
  if (ctx.emulator)
    Object.assign(env, { MG_EMULATOR_URL: ctx.emulator.url, MG_EMULATOR_ADMIN_TOKEN: ctx.emulator.adminToken });
  return { settings, env };
}

/** ctx.log, or console.log with the layer's prefix (two layers may run at once). */
function logger(ctx) {
  return ctx.log ?? ((line) => console.log(ctx.prefix ? `${ctx.prefix} ${line}` : line));
}

/**
 * Fresh logs folder, emulator and profile with the VSIX(s) installed. Every layer gets its own emulator:
 * tests set faults and rate limits per key, and two layers may run at the same time.
 */
async function freshServer(ctx, info, layer, extraVsix = []) {
  const log = logger(ctx);
  const { logs, profileDir } = layerDirs(ctx, info, layer);
  if (ctx.emulator === undefined) {
    ctx.emulator = await startEmulatorProcess(ctx.root, { logFile: path.join(logs, 'emulator.log') });
    if (!ctx.emulator) log('!!! emulator not available (src/emulator/index.ts missing): suites that need it will skip');
    else ctx.ownEmulator = true;
  }
  const { settings } = vscodeEnvironment(ctx, info);
  const profile = prepareProfile(profileDir, { settings });
  const t0 = Date.now();
  for (const vsix of [ctx.vsix, ...extraVsix]) await installVsix(info, profile, vsix);
  log(
    `VSIX installed in ${secs(t0)}s; emulator ${ctx.emulator?.url ?? 'none'}; logs ${path.relative(ctx.root, logs)}/`,
  );
  return { logs, profile };
}

/** code-server for a test layer: its log in the layer's logs, without the built-ins no test is about. */
function startTestServer(info, profile, env, logs) {
  return startCodeServer(info, profile, {
    env,
    logFile: path.join(logs, 'code-server.log'),
    builtinExtensionsDir: testBuiltinExtensions(info, profile),
  });
}

async function stopServer(ctx, server, profile, logs, label) {
  if (ctx.keep) {
    ctx.kept.push(`${label}: ${server.workbenchUrl}`);
    if (ctx.emulator) ctx.kept.push(`${label} emulator: ${ctx.emulator.url} (admin token ${ctx.emulator.adminToken})`);
    return;
  }
  killTree(server.child);
  if (ctx.ownEmulator) killTree(ctx.emulator.child);
  await new Promise((r) => (server.child.exitCode !== null ? r() : server.child.once('exit', r)));
  collectLogs(profile, logs);
}

/** Chromium flags for a page that runs in the background as fast as in front (no timer or renderer throttling). */
const BACKGROUND_AT_FULL_SPEED = [
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/** Runs test/host/*.test.ts inside the extension host; returns the counts row. */
export async function runHostLayer(ctx, info) {
  const bundleDir = path.join(ctx.runsDir, 'host-bundle');
  const tests = await bundleHostTests(ctx.root, bundleDir, (files) =>
    filesForVersion('host', info.version, files, { grep: ctx.grep }),
  );
  if (!tests.length) return { note: 'no test/host/*.test.ts' };
  const route = hostRoute(info.version);
  const runnerVsix = route === 'vsix' ? [await packageHostRunner(ctx.root, bundleDir, ctx.runsDir)] : [];
  const { logs, profile } = await freshServer(ctx, info, 'host', runnerVsix);
  const resultsFile = path.join(profile.dir, 'host-results.json');
  const log = logger(ctx);
  const { env } = vscodeEnvironment(ctx, info, profile);
  Object.assign(env, { MG_HOST_RESULTS: resultsFile }, route === 'vsix' ? { MG_HOST_TESTS: '1' } : {});
  if (ctx.grep) env.MG_HOST_GREP = ctx.grep;
  const server = await startTestServer(info, profile, env, logs);
  log(`code-server ${info.codeServer} at ${server.url}, route ${route}, ${tests.length} test files`);
  let url = server.workbenchUrl;
  if (route === 'payload') {
    const installed = fs.readdirSync(profile.extDir).find((d) => d.startsWith('model-gateway.model-gateway-'));
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(path.join(profile.extDir, installed))],
      ['extensionTestsPath', remote(path.join(bundleDir, 'index.js'))],
    ];
    url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  }
  // The host tests drive VS Code through its API inside the extension host: the workbench page only has to run, not
  // to draw. Behind a blank page in front it draws nothing (measured alone, the whole layer's CPU: 1.139.1 208 → 166
  // core-s, Chromium's compositor thread 26.9 → 2.0; 1.100.3 97 → 85), and these flags keep its timers and renderer
  // at full speed in the background. MG_HOST_PAGE=front keeps it in front (to watch it in a debugger).
  const background = process.env.MG_HOST_PAGE !== 'front';
  const browser = await launchChromium(background ? { args: BACKGROUND_AT_FULL_SPEED } : {});
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    if (background) await (await context.newPage()).bringToFront();
    const results = await waitForHostResults(resultsFile, server.child, log);
    fs.copyFileSync(resultsFile, path.join(logs, 'host-results.json'));
    await page.bringToFront().catch(() => undefined);
    await page.screenshot({ path: path.join(logs, 'host-workbench.png') }).catch(() => undefined);
    return {
      passed: results.passes.length,
      failed: results.failures.length,
      pending: results.pending,
      failures: results.failures,
      note: `route ${route}, vscode.version ${results.vscodeVersion}${results.hookMs ? `, hooks ${(results.hookMs / 1000).toFixed(1)}s` : ''}`,
      tests: [
        ...results.passes.map((t) => ({ ...t, state: 'passed' })),
        ...results.failures.map((t) => ({ ...t, state: 'failed' })),
        // Kept for the timing table and times.json, not counted.
        ...(results.hooks ?? []).map((t) => ({ ...t, state: 'hook' })),
      ],
    };
  } finally {
    await browser.close();
    await stopServer(ctx, server, profile, logs, `host ${info.version}`);
  }
}

/** Waits for the runner's results file, echoing its progress lines; fails fast when code-server dies. */
async function waitForHostResults(resultsFile, child, log) {
  // No clock for the whole suite (a slow machine makes it slower, not red; MG_HOST_SUITE_TIMEOUT_MS sets one if
  // wanted). The runner's per-test timeout fails a stuck test; a suite silent for the idle limit is stuck elsewhere.
  const limit = Number(process.env.MG_HOST_SUITE_TIMEOUT_MS || 0) || Infinity;
  const idle = Number(process.env.MG_HOST_IDLE_TIMEOUT_MS || 10 * 60_000);
  const progressFile = `${resultsFile}.progress`;
  const t0 = Date.now();
  let lastChange = Date.now();
  let shown = 0;
  let done = 0;
  let total = 0;
  let lastLine = '';
  for (;;) {
    // Looked at before the progress file, so the last progress lines are shown before returning.
    const finished = fs.existsSync(resultsFile);
    if (fs.existsSync(progressFile)) {
      const text = fs.readFileSync(progressFile, 'utf8');
      // Whole lines only; each finished test gets a running count.
      const end = text.lastIndexOf('\n') + 1;
      if (end > shown) {
        for (const line of text.slice(shown, end - 1).split('\n')) {
          if (line.trim()) lastLine = line.trim();
          total = Number(/^\[host\] (\d+) tests$/.exec(line)?.[1] ?? total);
          log(/^\s*[✓✗]/.test(line) ? `${line} [${++done}${total ? `/${total}` : ''}]` : line);
        }
        shown = end;
        lastChange = Date.now();
      }
    }
    if (finished) return JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode} during the host suite`);
    if (Date.now() - t0 > limit) throw new Error(`host suite did not finish in ${limit / 1000}s`);
    if (Date.now() - lastChange > idle) {
      throw new Error(
        `host suite silent for ${idle / 1000}s (${shown ? `stuck after: ${lastLine}` : 'never started: see exthost log'})`,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Runs test/ui/*.test.ts with mocha in node against a fresh code-server; returns the counts row. With a `queue`
 * folder (one of the newest UI layer's two processes), every file in queue order, each suite run only if this process
 * claims its file first (scripts/lib/uiQueue.cjs); not started when every file is claimed already.
 */
export async function runUiLayer(ctx, info, { part = 1, queue } = {}) {
  const uiDir = path.join(ctx.root, 'test', 'ui');
  const all = filesForVersion(
    'ui',
    info.version,
    fs.existsSync(uiDir)
      ? fs
          .readdirSync(uiDir)
          .filter((f) => f.endsWith('.test.ts'))
          .sort()
      : [],
    { grep: ctx.grep },
  );
  const files = queue ? queueOrder(all) : uiFileOrder(all);
  if (!files.length) return { note: 'no test/ui/*.test.ts' };
  if (queue && !uiQueue.unclaimed(queue, files).length) return { note: 'every file was taken by the other process' };
  const { logs, profile } = await freshServer(ctx, info, part > 1 ? `ui-part${part}` : 'ui');
  const log = logger(ctx);
  const { env } = vscodeEnvironment(ctx, info, profile);
  const server = await startTestServer(info, profile, env, logs);
  log(`code-server ${info.codeServer} at ${server.url}, ${files.length} UI test files`);
  const report = path.join(logs, 'ui-report.json');
  // One retry (as in the host suite): a real workbench on 2 loaded cores sometimes misses a deadline; twice fails.
  // uiHooks: the root hook that closes the workbench window the suites share (openWorkbench({ shared: true })).
  const args = [
    path.join(ctx.root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--require',
    'tsx/cjs',
    '--require',
    path.join(ctx.root, 'test', 'support', 'uiHooks.ts'),
    '--timeout',
    '180000',
    '--retries',
    '1',
    // Ends when the last suite has ended: on 1.100.3 something a suite left open (a server, a socket) once kept the
    // process alive after mocha's summary, and the layer waited out its idle clock and was counted red.
    '--exit',
    '--reporter',
    path.join(ctx.root, 'scripts', 'lib', 'reporter.cjs'),
    ...files.map((f) => path.join('test', 'ui', f)),
  ];
  const newestOnly = invertedGrepForVersion('ui', info.version, { grep: ctx.grep });
  if (ctx.grep) args.push('--grep', ctx.grep);
  else if (newestOnly) args.push('--grep', newestOnly, '--invert');
  const t0 = Date.now();
  // No clock for the whole layer: a slow machine makes it slower, not red. A hang is what stops it: mocha's per-test
  // timeout (above) fails a stuck test and goes on; a layer silent for MG_UI_IDLE_TIMEOUT_MS (no test started or
  // ended, nothing printed) is stuck outside any test, and is stopped with the last test it started named.
  // MG_UI_LAYER_TIMEOUT_MS still sets an overall limit for whoever wants one (unset: none).
  const idleMs = Number(process.env.MG_UI_IDLE_TIMEOUT_MS || 15 * 60_000);
  const budgetMs = Number(process.env.MG_UI_LAYER_TIMEOUT_MS || 0) || undefined;
  let lastLine = '';
  let stopped;
  fs.rmSync(report, { force: true });
  try {
    await run(process.execPath, args, {
      cwd: ctx.root,
      timeoutMs: budgetMs,
      idleMs,
      onIdle: () => (stopped = `silent for ${idleMs / 1000}s (MG_UI_IDLE_TIMEOUT_MS) after: ${lastLine || 'nothing'}`),
      prefix: ctx.prefix,
      onLine: (line) => {
        if (line.trim()) lastLine = line.trim();
      },
      env: {
        ...process.env,
        ...env,
        MG_WORKBENCH_URL: server.workbenchUrl,
        MG_REPORT_FILE: report,
        MG_UI_QUEUE: queue ?? '',
      },
    }).catch(() => undefined); // failures are counted from the report
    log(`UI mocha: ${secs(t0)}s`);
    if (!fs.existsSync(report))
      return {
        failed: 1,
        failures: [{ title: 'mocha (UI)', message: stopped ?? 'crashed before writing its report' }],
      };
    const { tests, done } = JSON.parse(fs.readFileSync(report, 'utf8'));
    const failures = tests.filter((t) => t.state === 'failed');
    // Stopped (SIGTERM: test/support/uiHooks.ts ends mocha at once, instead of letting Playwright close the browser
    // under the running and every later test): this row names the cause.
    if (!done || stopped || (budgetMs && Date.now() - t0 >= budgetMs))
      failures.push({
        title: 'UI layer',
        message: `stopped ${stopped ?? `after ${secs(t0)}s (MG_UI_LAYER_TIMEOUT_MS ${budgetMs ?? 'unset'})`}; later tests did not run`,
      });
    return {
      passed: tests.filter((t) => t.state === 'passed').length,
      failed: failures.length,
      pending: tests.filter((t) => t.state === 'pending').length,
      failures,
      tests,
    };
  } finally {
    await stopServer(ctx, server, profile, logs, `ui ${info.version}`);
  }
}
