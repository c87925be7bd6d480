// The extension host's CPU while typing, completions on vs off, in a real VS Code (code-server + headless Chromium):
// the same typing replay as bench/completions.ts (ms/index.js from node_modules, 10–15 characters per second with
// pauses after lines and punctuation, a seeded generator) typed with real keystrokes into a JavaScript file, against
// the emulator's coder model answering in a fixed 150 ms. The CPU is the extension host process's own (utime + stime
// of /proc/<pid>/stat: every extension in it, VS Code's document sync included, not the TypeScript server it starts),
// read before and after each replay. Phases run off, on, on, off in one window (one extension host), so the machine's
// load falls on both alike; a short replay with completions on first loads the completions bundle. The editor adds
// nothing to what is typed (no closing brackets, quotes or comments, no indentation): a "*/" it added after a typed
// "/**" would stay after the cursor, and the provider rightly asks nothing before code on the line.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const lib = (root, p) => import(pathToFileURL(path.join(root, 'scripts', p)).href);
const CODER_KEY = 'mg-coder-key-0011';
const MODEL = 'qwen2.5-coder-demo';
const LATENCY_MS = 150;

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The pids under `root` (children, grandchildren, …), from /proc. */
function descendants(rootPid) {
  const children = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const queue = [rootPid];
  while (queue.length) {
    for (const c of children.get(queue.shift()) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** The extension host of a code-server: its descendant started as `--type=extensionHost`. */
async function extensionHostPid(serverPid) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const pid of descendants(serverPid)) {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (/type=extensionHost/.test(cmd)) return pid;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('no extension host process under code-server');
}

/** CPU time (ms) the process used so far: utime + stime (clock ticks of 10 ms). */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Types `text` as a person does (the replay's rhythm, seeded), with real keystrokes. */
async function typeReplay(page, text, seed) {
  const random = rng(seed);
  for (const ch of text) {
    const started = Date.now();
    if (ch === '\n') await page.keyboard.press('Enter');
    else await page.keyboard.type(ch);
    let gap = 1000 / (10 + random() * 5);
    if (ch === '\n') gap += 500 + random() * 1000;
    else if (',;({'.includes(ch) && random() < 1 / 3) gap += 200 + random() * 400;
    const left = gap - (Date.now() - started);
    if (left > 0) await page.waitForTimeout(left);
  }
}

export async function runCompletionHostBench(root, { chars = Number(process.env.MG_BENCH_TYPED_CHARS) || 300 } = {}) {
  const { provisionVersion, newestProvisioned, DEFAULT_VERSIONS } = await lib(root, 'provision.mjs');
  const { packageVsix } = await lib(root, 'package.mjs');
  const { prepareProfile, installVsix, startCodeServer } = await lib(root, 'lib/codeServer.mjs');
  const { killAll } = await lib(root, 'lib/proc.mjs');
  const { launchChromium } = await lib(root, 'lib/chromium.mjs');
  const { defaultConfig, startEmulator } = await import(
    pathToFileURL(path.join(root, 'src', 'emulator', 'index.ts')).href
  );
  const version = newestProvisioned() ?? DEFAULT_VERSIONS[0];
  const info = await provisionVersion(version, { log: () => undefined });
  const work = path.join(root, 'out', 'bench-completions-host');
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const vsix = (await packageVsix({ out: path.join(work, 'model-gateway.vsix'), quiet: true })).file;

  const config = defaultConfig();
  config.completions = { latencyMs: LATENCY_MS };
  let completionRequests = 0;
  const emu = await startEmulator({
    config,
    onTiming: (t) => {
      if (t.phase === 'received' && t.path.startsWith('/v1/completions')) completionRequests++;
    },
  });
  const profile = prepareProfile(path.join(work, 'profile'), {
    settings: {
      'modelGateway.baseUrl': emu.url,
      'modelGateway.completions.model': MODEL,
      // The replay's text as it is: no closing brackets or indentation added by the editor, Enter types a new line.
      'editor.autoClosingBrackets': 'never',
      'editor.autoClosingQuotes': 'never',
      'editor.autoClosingComments': 'never',
      'editor.autoIndent': 'none',
      'editor.acceptSuggestionOnEnter': 'off',
    },
  });
  const text = fs.readFileSync(path.join(root, 'node_modules', 'ms', 'index.js'), 'utf8').slice(0, chars);
  for (const name of ['warm', 'p1', 'p2', 'p3', 'p4']) fs.writeFileSync(path.join(profile.workspace, `${name}.js`), '');
  await installVsix(info, profile, vsix);
  const server = await startCodeServer(info, profile, {
    env: { MODEL_GATEWAY_API_KEY: CODER_KEY, MODEL_GATEWAY_API_KEY_NAME: 'coder (bench)' },
    logFile: path.join(work, 'code-server.log'),
  });
  const browser = await launchChromium();
  const phases = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(60_000);
    await page.goto(server.workbenchUrl);
    await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
    const entry = page.locator('.statusbar-item[id$="modelGateway.completions"]').first();
    await entry.waitFor({ timeout: 90_000 });
    const host = await extensionHostPid(server.child.pid);
    const setCompletions = async (on) => {
      const shows = on ? MODEL : 'Completions off';
      if (!(await entry.innerText()).includes(shows)) await entry.click();
      await entry.filter({ hasText: shows }).waitFor();
    };
    const openFile = async (name) => {
      const input = page.locator('div.quick-input-widget .quick-input-box input');
      await page.evaluate('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible' });
      await input.fill(name);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
      await page.locator('div.quick-input-widget').waitFor({ state: 'hidden' });
      await page.locator(`.tabs-container .tab.active[aria-label*="${name}"]`).waitFor();
      await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    };
    // Warm-up (not counted): the completions bundle loads, the JavaScript language features start.
    await setCompletions(true);
    await openFile('warm.js');
    await typeReplay(page, text.slice(0, 40), 99);
    await page.waitForTimeout(1_000);
    // off, on, on, off: a drift of the machine's load over the run falls on both alike.
    for (const [i, on] of [false, true, true, false].entries()) {
      await setCompletions(on);
      await openFile(`p${i + 1}.js`);
      const requests = completionRequests;
      const cpu0 = cpuMs(host);
      const t0 = Date.now();
      // The same keystrokes in every phase; the second after the last key lets the last request finish.
      await typeReplay(page, text, 7);
      await page.waitForTimeout(1_000);
      phases.push({ on, cpuMs: cpuMs(host) - cpu0, wallMs: Date.now() - t0, requests: completionRequests - requests });
    }
    await page.close();
  } finally {
    await browser.close();
    await killAll();
    await emu.close();
  }
  const sum = (on, key) => phases.filter((p) => p.on === on).reduce((a, p) => a + p[key], 0);
  const off = sum(false, 'cpuMs');
  const on = sum(true, 'cpuMs');
  const ratio = off > 0 ? on / off : NaN;
  const perPhase = phases.map((p) => `${p.on ? 'on' : 'off'} ${p.cpuMs} ms (${p.requests} req)`).join(', ');
  const perHundred = (100 * phases.filter((p) => p.on).reduce((a, p) => a + p.requests, 0)) / (2 * text.length);
  return [
    {
      figure: `completions: extension host CPU while typing, on vs off (real VS Code ${version})`,
      baseline: `completions off: ${off} ms CPU (2 replays)`,
      value: `on: ${on} ms CPU (2 replays), ratio ${ratio.toFixed(2)}×`,
      target: '≤ 1.3×',
      met: ratio <= 1.3,
      note:
        `${chars} characters of ms/index.js typed with real keystrokes per replay, ~${Math.round(sum(true, 'wallMs') / 2000)} s each; ` +
        `utime + stime of the extension host process (10 ms ticks); phases: ${perPhase}; ` +
        `${perHundred.toFixed(1)} requests per 100 keystrokes with completions on`,
    },
  ];
}
