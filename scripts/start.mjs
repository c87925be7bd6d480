#!/usr/bin/env node
// `npm start`: build + package, start the gateway emulator (demo keys and models) and a real VS Code
// (code-server) with the extension installed, the base URL pointing at the emulator and the demo key
// in MODEL_GATEWAY_API_KEY (the extension imports it into SecretStorage once). Prints the URL to open.
// Ctrl+C stops everything this script started. Nothing remote.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, killAll, killChildrenOnExit, isStopping, portIsFree, secs } from './lib/proc.mjs';
import { provision, newestProvisioned, CACHE } from './provision.mjs';
import { packageVsix } from './package.mjs';
import { startEmulatorProcess } from './lib/emulator.mjs';
import { BASE_SETTINGS, installVsix, startCodeServer } from './lib/codeServer.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO_KEY = 'mg-demo-key-0001';

const HELP = `node scripts/start.mjs [options]   (npm start)
  --vscode V         VS Code version (default: the newest already provisioned, else 1.100.3)
  --emulator-port N  emulator port (default 8787, or the next free one; 0 = random)
  --port N           VS Code port (default 8080, or the next free one; 0 = random)
  --fresh            wipe the VS Code profile (settings, stored key, conversations) first
  --check            start, open the workbench in headless Chromium, open the Model Gateway view, stop
  --help             this text`;

function parseArgs(argv) {
  const opts = { vscode: undefined, emulatorPort: 8787, port: 8080, fresh: false, check: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--vscode') opts.vscode = argv[++i];
    else if (a === '--emulator-port') opts.emulatorPort = Number(argv[++i]);
    else if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--fresh') opts.fresh = true;
    else if (a === '--check') opts.check = true;
    else if (a === '--help' || a === '-h') opts.help = true;
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  return opts;
}

/** The wanted port if free, else the next free one of the following 50; 0 stays 0 (random). */
async function pickPort(wanted) {
  if (wanted === 0) return 0;
  for (let p = wanted; p < wanted + 50; p++) if (await portIsFree(p)) return p;
  return 0;
}

/** A profile that survives restarts (stored key, conversations), with settings refreshed every start. */
function startProfile(fresh, emulatorUrl) {
  const dir = path.join(CACHE, 'start');
  if (fresh) fs.rmSync(dir, { recursive: true, force: true });
  const profile = {
    dir,
    userDataDir: path.join(dir, 'user'),
    extDir: path.join(dir, 'extensions'),
    workspace: path.join(CACHE, 'start-workspace'),
  };
  fs.mkdirSync(path.join(profile.userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(profile.extDir, { recursive: true });
  fs.mkdirSync(profile.workspace, { recursive: true });
  if (!fs.existsSync(path.join(profile.extDir, 'extensions.json')))
    fs.writeFileSync(path.join(profile.extDir, 'extensions.json'), '[]');
  const file = path.join(profile.userDataDir, 'User', 'settings.json');
  let settings = {};
  try {
    settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    /* new or hand-edited with comments: rewrite */
  }
  Object.assign(settings, BASE_SETTINGS, { 'modelGateway.baseUrl': emulatorUrl });
  // New chats start on the scripted agent model (Agent mode answers plain requests; Ask answers like the others).
  if (agentModelAdded) settings['modelGateway.chat.defaultModel'] ??= 'claude-demo-agent';
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  // A tiny project for Agent mode ("add a test for titleCase"): one tested and one untested function, npm test.
  const files = {
    'README.md':
      '# Model Gateway playground\n\nOpen the **Model Gateway** view in the activity bar and ask something.\n' +
      'The gateway is the local emulator started by `npm start`; the demo key is already stored.\n\n' +
      "In **Agent** mode (the composer's mode switch), ask for example: *add a test for titleCase*.\n",
    'package.json': `${JSON.stringify({ name: 'playground', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
    'src/text.js':
      '// Small text helpers.\n\n/** "Hello World" -> "hello-world" */\nexport function slugify(title) {\n' +
      "  return title.trim().toLowerCase().split(/\\s+/).join('-');\n}\n\n" +
      '/** "hello world" -> "Hello World" */\nexport function titleCase(text) {\n' +
      '  return text.replace(/\\b\\w/g, (c) => c.toUpperCase());\n}\n',
    'test/slugify.test.js':
      "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slugify } from '../src/text.js';\n\n" +
      "test('slugify joins words with dashes', () => {\n  assert.equal(slugify(' Hello World '), 'hello-world');\n});\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(profile.workspace, rel);
    if (fs.existsSync(file)) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return profile;
}

/**
 * emulator.json, with the scripted agent model (claude-demo-agent) added to every group that serves messages, so
 * that with the demo key Agent mode answers plain requests ("add a test for X") with real tool calls, and Ask mode
 * (no tools offered) answers like the other chat models. Written next to the profile; emulator.json is not changed.
 * A file that is not plain JSON (hand-edited) is used as it is.
 */
let agentModelAdded = false;

function startEmulatorConfig() {
  const source = path.join(ROOT, 'emulator.json');
  if (!fs.existsSync(source)) return undefined;
  let config;
  try {
    config = JSON.parse(fs.readFileSync(source, 'utf8'));
  } catch {
    return source;
  }
  const agentUpstreams = new Set(
    Object.entries(config.models ?? {})
      .filter(([, m]) => m?.agent === true)
      .map(([id]) => id),
  );
  const agentIds = new Map();
  for (const g of Object.values(config.groups ?? {})) {
    for (const [id, upstream] of Object.entries(g.models ?? {}))
      if (agentUpstreams.has(upstream)) agentIds.set(id, upstream);
  }
  for (const g of Object.values(config.groups ?? {})) {
    if (!Array.isArray(g.routes) || !g.routes.includes('messages') || !g.models) continue;
    for (const [id, upstream] of agentIds) g.models[id] ??= upstream;
  }
  agentModelAdded = agentIds.has('claude-demo-agent');
  const file = path.join(CACHE, 'start-emulator.json');
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

async function check(url) {
  const { launchChromium } = await import('./lib/chromium.mjs');
  const browser = await launchChromium();

  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    const entry = page.locator('.activitybar .action-label[aria-label="Model Gateway"]').first();
    await entry.click({ timeout: 120_000 });
    await page
      .locator('iframe.webview[src*="extensionId=model-gateway.model-gateway"]')
      .first()
      .waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForTimeout(2000);
    fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'test-results', 'start-check.png') });
    console.log('[start] check passed: the Model Gateway view opened (test-results/start-check.png)');
  } finally {
    await browser.close();
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    console.log(HELP);
    return;
  }
  killChildrenOnExit();
  const t0 = Date.now();
  console.log('[start] building and packaging …');
  await run(process.execPath, ['esbuild.js', '--only=emulator'], { cwd: ROOT });
  const { file: vsix } = await packageVsix({ quiet: true });
  const version = opts.vscode ?? newestProvisioned() ?? '1.100.3';
  const info = (await provision([version]))[version];
  const emulator = await startEmulatorProcess(ROOT, {
    port: await pickPort(opts.emulatorPort),
    config: startEmulatorConfig(),
    logFile: path.join(CACHE, 'start-emulator.log'),
  });
  if (!emulator) throw new Error('the emulator (src/emulator/index.ts) is missing');
  const profile = startProfile(opts.fresh, emulator.url);
  await installVsix(info, profile, vsix);
  const port = await pickPort(opts.port);
  const env = { MODEL_GATEWAY_API_KEY: process.env.MODEL_GATEWAY_API_KEY || DEMO_KEY };
  const server = await startCodeServer(info, profile, {
    env,
    logFile: path.join(CACHE, 'start-code-server.log'),
    port,
  });
  for (const child of [emulator.child, server.child]) {
    child.on('exit', (code) => {
      if (isStopping()) return;
      console.error(`[start] a server exited (${code}); stopping`);
      void killAll().then(() => process.exit(1));
    });
  }
  console.log(`[start] ready in ${secs(t0)}s`);
  console.log(
    `  gateway emulator  ${emulator.url}   (demo key ${DEMO_KEY}, log ${path.relative(ROOT, path.join(CACHE, 'start-emulator.log'))})`,
  );
  console.log(
    `  VS Code ${info.version}  (code-server ${info.codeServer}, log ${path.relative(ROOT, path.join(CACHE, 'start-code-server.log'))})`,
  );
  console.log(`\n  Open: ${server.workbenchUrl}\n`);
  if (opts.check) {
    await check(server.workbenchUrl);
    return;
  }
  console.log('Ctrl+C stops everything.');
  await new Promise(() => undefined);
}

main().then(
  async () => {
    await killAll();
    process.exit(0);
  },
  async (err) => {
    console.error(`[start] FAILED: ${err.message}`);
    await killAll();
    process.exit(1);
  },
);
