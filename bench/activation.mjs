// Figures: activate() of Model Gateway in a real VS Code (code-server + headless Chromium), next to an
// empty extension activated the same way (onStartupFinished) in the same window, and the first use of a
// lazily loaded feature (src/extension.ts) in a fresh window. The activation times are VS Code's own, read from
// "Developer: Show Running Extensions". Each window load is one sample.
// MG_BENCH_BEFORE=<git ref> also measures that commit's VSIX in the same run, window loads alternating (the
// baseline of the first-use figures); the ref is read from this checkout, or from MG_BENCH_BEFORE_REPO.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';

const lib = (root, p) => import(pathToFileURL(path.join(root, 'scripts', p)).href);
const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), '..');
const OURS = 'Model Gateway';
const EMPTY = 'Empty baseline (benchmark)';
const WEBVIEW_VIEW = 'iframe.webview[src*="extensionId=model-gateway.model-gateway"][src*="purpose=webviewView"]';

/** Types a command into the palette (as the UI tests do) and returns its row, so that a click runs it at a known moment. */
async function commandRow(page, title) {
  const { typeInPalette } = await import(pathToFileURL(path.join(ROOT, 'test', 'support', 'workbench.ts')).href);
  await typeInPalette(page, title);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 30_000 });
  return row;
}

async function runCommand(page, title) {
  await (await commandRow(page, title)).click();
}

/** Runs a command from the palette and returns the ms from the click on its row until `done` resolves. */
async function timeCommand(page, title, done) {
  const row = await commandRow(page, title);
  const started = Date.now();
  await row.click();
  await done().catch((error) => {
    throw new Error(`${title}: ${String(error.message ?? error).split('\n')[0]}`);
  });
  return Date.now() - started;
}

/** Reads "NNms" activation times of both extensions from the Running Extensions editor. */
async function readActivationTimes(page) {
  await runCommand(page, 'Developer: Show Running Extensions');
  const times = {};
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && Object.keys(times).length < 2) {
    for (const name of [OURS, EMPTY]) {
      const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: name }).first();
      const text = await row
        .locator('.activation-time')
        .innerText({ timeout: 1000 })
        .catch(() => '');
      const m = /([\d.]+)\s*ms/.exec(text);
      if (m) times[name] = Number(m[1]);
    }
    await page.waitForTimeout(300);
  }
  return times;
}

/**
 * The extension's own account of each window load, from its log ("Activated in X ms (…); code loading Y ms before"):
 * activate()'s time and, where VS Code keeps its marks readable, the code loading of dist/extension.js. The first
 * window load (not counted, see below) is left out.
 */
function ownTimes(profileDir) {
  const logs = path.join(profileDir, 'user', 'logs');
  const files = [];
  const walk = (dir) => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name === 'Model Gateway.log') files.push(full);
    }
  };
  walk(logs);
  const lines = files
    .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'))
    .filter((l) => l.includes('] Activated in '))
    .sort();
  const activate = [];
  const loading = [];
  for (const line of lines.slice(1)) {
    const a = /Activated in ([\d.]+) ms/.exec(line);
    const c = /code loading ([\d.]+) ms before/.exec(line);
    if (a) activate.push(Number(a[1]));
    if (c) loading.push(Number(c[1]));
  }
  return { activate, loading };
}

/**
 * First use of two lazily loaded features in a fresh window: the chat view (Open Chat → the page's input shown)
 * and an image command (Show Image Tasks → its notification), the command also a second time (its code loaded).
 */
async function measureFirstUse(page, name) {
  const chatInput = () =>
    page
      .frameLocator(`${WEBVIEW_VIEW}:visible`)
      .first()
      .frameLocator('#active-frame')
      .locator('.composer .input')
      .first()
      .waitFor({ timeout: 60_000 });
  const toast = () =>
    page
      .locator('.notifications-toasts .notification-toast', { hasText: /no image tasks/i })
      .first()
      .waitFor({ timeout: 30_000 });
  const out = {};
  const step = async (key, fn) => {
    try {
      out[key] = await fn();
    } catch (error) {
      console.error(`[bench] ${name}: ${key} not measured: ${String(error.message ?? error).split('\n')[0]}`);
    }
  };
  await step('chatFirst', () => timeCommand(page, 'Model Gateway: Open Chat', chatInput));
  await step('commandFirst', () => timeCommand(page, 'Model Gateway: Show Image Tasks', toast));
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
  await page
    .locator('.notifications-toasts .notification-toast')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
  await step('commandAgain', () => timeCommand(page, 'Model Gateway: Show Image Tasks', toast));
  return out;
}

/** A VSIX of the project as it was at `ref` (git archive into a temp folder, dependencies linked). */
async function vsixAt(root, ref, out) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-bench-ref-'));
  const repo = process.env.MG_BENCH_BEFORE_REPO || root;
  execFileSync('sh', ['-c', `git -C "${repo}" archive "${ref}" | tar -x -C "${dir}"`]);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const { packageVsix } = await import(pathToFileURL(path.join(dir, 'scripts', 'package.mjs')).href);
  try {
    return (await packageVsix({ out, quiet: true })).file;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One VSIX (with the empty extension) in its own profile and code-server; `load()` measures one window load. */
async function startVariant(root, info, vsix, emptyVsix, work, browser) {
  const { prepareProfile, installVsix, startCodeServer } = await lib(root, 'lib/codeServer.mjs');
  const name = path.basename(vsix, '.vsix');
  const profile = prepareProfile(path.join(work, `profile-${name}`), {
    settings: { 'modelGateway.baseUrl': 'http://127.0.0.1:9' },
  });
  await installVsix(info, profile, vsix);
  await installVsix(info, profile, emptyVsix);
  const server = await startCodeServer(info, profile, { logFile: path.join(work, `code-server-${name}.log`) });
  const result = { profileDir: profile.dir, ours: [], empty: [], chatFirst: [], commandFirst: [], commandAgain: [] };
  const load = async (keep) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page.goto(server.workbenchUrl);
      await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
      await page.waitForTimeout(4000); // past onStartupFinished
      const t = await readActivationTimes(page);
      const first = await measureFirstUse(page, name);
      // The next window starts without the chat view showing, so that its first open is a first use again.
      await runCommand(page, 'View: Close Primary Side Bar').catch(() => undefined);
      await page.waitForTimeout(500);
      if (!keep) return;
      if (t[OURS] !== undefined && t[EMPTY] !== undefined) {
        result.ours.push(t[OURS]);
        result.empty.push(t[EMPTY]);
      }
      if (first) for (const k of Object.keys(first)) result[k].push(first[k]);
    } finally {
      await page.close();
    }
  };
  return { result, load };
}

export async function runActivationBench(root, { samples = Number(process.env.MG_BENCH_SAMPLES) || 5, version } = {}) {
  const { provisionVersion, newestProvisioned, DEFAULT_VERSIONS } = await lib(root, 'provision.mjs');
  const { packageVsix } = await lib(root, 'package.mjs');
  const { run } = await lib(root, 'lib/proc.mjs');
  const { stats, fmtStats } = await import(pathToFileURL(path.join(root, 'bench', 'table.ts')).href);
  const v = version ?? newestProvisioned() ?? DEFAULT_VERSIONS[0];
  const info = await provisionVersion(v, { log: () => undefined });
  const work = path.join(root, 'out', 'bench-activation');
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const emptyVsix = path.join(work, 'empty.vsix');
  await run(
    process.execPath,
    [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', emptyVsix],
    { cwd: path.join(root, 'bench', 'fixtures', 'empty-extension'), quiet: true },
  );
  const ours = (await packageVsix({ out: path.join(work, 'model-gateway.vsix'), quiet: true })).file;
  const beforeRef = process.env.MG_BENCH_BEFORE;
  const beforeVsix = beforeRef ? await vsixAt(root, beforeRef, path.join(work, 'before.vsix')) : undefined;
  const { killAll } = await lib(root, 'lib/proc.mjs');
  const { launchChromium } = await lib(root, 'lib/chromium.mjs');
  const browser = await launchChromium();

  let before;
  let after;
  try {
    const variants = [await startVariant(root, info, ours, emptyVsix, work, browser)];
    if (beforeVsix) variants.push(await startVariant(root, info, beforeVsix, emptyVsix, work, browser));
    // Window loads alternate between the variants, so that the machine's load falls on both alike; the first
    // load of each warms its server's caches and is not counted.
    for (let i = 0; i < samples + 1; i++) for (const variant of variants) await variant.load(i > 0);
    [after, before] = variants.map((v) => v.result);
  } finally {
    await browser.close();
    await killAll();
  }
  if (!after.ours.length) throw new Error('activation times not found in Running Extensions');

  const ms = (xs) => (xs.length ? fmtStats(stats(xs), 'ms', 0) : 'not measured');
  const median = (xs) => (xs.length ? stats(xs).median : NaN);
  const over = (r) => r.ours.map((o, i) => o - r.empty[i]);
  const ratio = (a, b) => (Number.isFinite(a) && b > 0 ? (a / b).toFixed(2) : 'n/a');
  const d = stats(over(after));
  // What the extension measures itself: activate() alone, and the code loading VS Code marks (not in every version).
  const own = (r) => {
    const { activate, loading } = ownTimes(r.profileDir);
    const parts = [activate.length ? `activate() ${fmtStats(stats(activate), 'ms', 1)}` : ''];
    if (loading.length) parts.push(`code loading ${fmtStats(stats(loading), 'ms', 0)}`);
    return parts.filter(Boolean).join(', ');
  };
  const rows = [
    {
      figure: `activate() in real VS Code ${v} (${after.ours.length} window loads)`,
      baseline: `empty extension: ${ms(after.empty)}`,
      value: `${ms(after.ours)}; over baseline ${fmtStats(d, 'ms', 0)}`,
      target: '≤ 20 ms over the empty extension',
      met: d.median <= 20,
      note:
        `VS Code's own activation time (code loading + activate call); the extension's log: ${own(after) || 'n/a'}` +
        (before ? `; before (${beforeRef}): over baseline ${ms(over(before))}, its log: ${own(before) || 'n/a'}` : ''),
    },
  ];
  // First use: compared with the same step of the earlier commit (MG_BENCH_BEFORE) in the same run.
  const firstUse = (figure, key, extra = '') => {
    const f = median(after[key]);
    const b = before ? median(before[key]) : NaN;
    return {
      figure,
      baseline: before ? `before (${beforeRef}), same run: ${ms(before[key])}` : 'set MG_BENCH_BEFORE=<git ref>',
      value: `${ms(after[key])}${before ? `; ratio to before ${ratio(f, b)}` : ''}${extra}`,
      target: 'not slower than before (ratio ≤ 1.1)',
      met: before && Number.isFinite(b) && Number.isFinite(f) ? f <= b * 1.1 : undefined,
      note: 'from the click on the palette row to the UI, in the browser',
    };
  };
  rows.push(firstUse('first chat view open in a fresh window (Open Chat → the chat input shown)', 'chatFirst'));
  rows.push(
    firstUse(
      'first command in a fresh window (Show Image Tasks → its notification)',
      'commandFirst',
      `; the second run: ${ms(after.commandAgain)}${before ? ` (before: ${ms(before.commandAgain)})` : ''}`,
    ),
  );
  return rows;
}
