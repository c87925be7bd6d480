// Figure: activate() of Model Gateway in a real VS Code (code-server + headless Chromium), next to an
// empty extension activated the same way (onStartupFinished) in the same window. The times are VS Code's
// own, read from "Developer: Show Running Extensions". Each window load is one sample.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const lib = (root, p) => import(pathToFileURL(path.join(root, 'scripts', p)).href);

/** Reads "NNms" activation times of both extensions from the Running Extensions editor. */
async function readActivationTimes(page, names) {
  await page.keyboard.press('F1');
  await page.keyboard.type('Developer: Show Running Extensions');
  await page.waitForTimeout(400);
  await page.keyboard.press('Enter');
  const times = {};
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && Object.keys(times).length < names.length) {
    for (const name of names) {
      const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: name }).first();
      const text = await row.locator('.activation-time').innerText({ timeout: 1000 }).catch(() => '');
      const m = /([\d.]+)\s*ms/.exec(text);
      if (m) times[name] = Number(m[1]);
    }
    await page.waitForTimeout(300);
  }
  return times;
}

export async function runActivationBench(root, { samples = 5, version } = {}) {
  const { provisionVersion, newestProvisioned, DEFAULT_VERSIONS } = await lib(root, 'provision.mjs');
  const { prepareProfile, installVsix, startCodeServer } = await lib(root, 'lib/codeServer.mjs');
  const { packageVsix } = await lib(root, 'package.mjs');
  const { run, killAll } = await lib(root, 'lib/proc.mjs');
  const { chromium } = await import('playwright-core');
  const v = version ?? newestProvisioned() ?? DEFAULT_VERSIONS[0];
  const info = await provisionVersion(v, { log: () => undefined });
  const work = path.join(root, 'out', 'bench-activation');
  fs.mkdirSync(work, { recursive: true });
  const ours = await packageVsix({ out: path.join(work, 'model-gateway.vsix'), quiet: true });
  const emptyVsix = path.join(work, 'empty.vsix');
  await run(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', emptyVsix],
    { cwd: path.join(root, 'bench', 'fixtures', 'empty-extension'), quiet: true });
  const profile = prepareProfile(path.join(work, 'profile'), { settings: { 'modelGateway.baseUrl': 'http://127.0.0.1:9' } });
  await installVsix(info, profile, ours.file);
  await installVsix(info, profile, emptyVsix);
  const server = await startCodeServer(info, profile, { logFile: path.join(work, 'code-server.log') });
  const browser = await chromium.launch({ executablePath: process.env.MG_CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'] });
  const names = ['Model Gateway', 'Empty baseline (benchmark)'];
  const ourSamples = [];
  const baseSamples = [];
  try {
    for (let i = 0; i < samples + 1; i++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(server.workbenchUrl);
      await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
      await page.waitForTimeout(4000); // past onStartupFinished
      const t = await readActivationTimes(page, names);
      await page.close();
      if (i === 0) continue; // first load warms caches of the server
      if (t[names[0]] !== undefined && t[names[1]] !== undefined) {
        ourSamples.push(t[names[0]]);
        baseSamples.push(t[names[1]]);
      }
    }
  } finally {
    await browser.close();
    await killAll();
  }
  const { stats, fmtStats } = await import(pathToFileURL(path.join(root, 'bench', 'table.ts')).href);
  if (!ourSamples.length) throw new Error('activation times not found in Running Extensions');
  const diffs = ourSamples.map((o, i) => o - baseSamples[i]);
  const d = stats(diffs);
  return [{
    figure: `activate() in real VS Code ${v} (${ourSamples.length} window loads)`,
    baseline: `empty extension: ${fmtStats(stats(baseSamples), 'ms', 0)}`,
    value: `${fmtStats(stats(ourSamples), 'ms', 0)}; over baseline ${fmtStats(d, 'ms', 0)}`,
    target: '≤ 20 ms over the empty extension',
    met: d.median <= 20,
    note: 'VS Code\'s own activation time (code loading + activate call)',
  }];
}
