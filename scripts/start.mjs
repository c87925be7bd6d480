#!/usr/bin/env node
// `npm start`: build + package, start the gateway emulator (demo keys and models) and a real VS Code
// (code-server) with the extension installed, the base URL pointing at the emulator and the demo key
// in MODEL_GATEWAY_API_KEY (the extension imports it into SecretStorage once, named "demo (emulator)"). Prints the
// URL to open. Ctrl+C stops everything this script started. Nothing remote once provisioned: code-server runs with
// its extension gallery, telemetry and update checks off (scripts/lib/startOptions.mjs OFFLINE_ENV).
// The first start provisions the VS Code build (npm registry; progress every 10 s), later starts take seconds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, killAll, killChildrenOnExit, isStopping, portIsFree, secs } from './lib/proc.mjs';
import { provision, CACHE, DEFAULT_VERSIONS } from './provision.mjs';
import { packageVsix } from './package.mjs';
import { startEmulatorProcess } from './lib/emulator.mjs';
import { BASE_SETTINGS, installVsix, startCodeServer } from './lib/codeServer.mjs';
import {
  DEMO_KEY_NAME,
  HELP,
  OFFLINE_ENV,
  assertNodeVersion,
  dialectBanner,
  parseStartArgs,
  withAgentModels,
} from './lib/startOptions.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEMO_KEY = 'mg-demo-key-0001';

/** The wanted port if free, else the next free one of the following 50; 0 stays 0 (random). */
async function pickPort(wanted) {
  if (wanted === 0) return 0;
  for (let p = wanted; p < wanted + 50; p++) if (await portIsFree(p)) return p;
  return 0;
}

/** A profile that survives restarts (stored key, conversations), with settings refreshed every start. */
function startProfile(fresh, emulatorUrl, lang) {
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
  // Ask starts on a chat model (the first of the list); Agent on the scripted agent model, which answers plain
  // requests ("add a test for titleCase") with real tool calls. Earlier starts set it as the chat default: undone.
  if (settings['modelGateway.chat.defaultModel'] === 'claude-demo-agent')
    delete settings['modelGateway.chat.defaultModel'];
  if (agentModelAdded) settings['modelGateway.agent.defaultModel'] ??= 'claude-demo-agent';
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  writeLanguagePack(profile.userDataDir, lang);
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
 * The display language without the internet: code-server resolves a --locale through the language packs listed in
 * <user-data>/languagepacks.json and falls back to English when there is none (the Marketplace's Chinese pack would
 * have to be downloaded). An entry whose VS Code translation file is empty makes the window's language zh-cn: VS
 * Code's own menus stay English (every missing message falls back to it), while the extension host runs in zh-cn,
 * so this extension's strings (package.nls.zh-cn.json, l10n/bundle.l10n.zh-cn.json) show in Chinese.
 */
function writeLanguagePack(userDataDir, lang) {
  const list = path.join(userDataDir, 'languagepacks.json');
  if (lang === 'en') {
    fs.rmSync(list, { force: true });
    return;
  }
  const translations = path.join(userDataDir, 'start-language', lang, 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const entry = {
    hash: `model-gateway-start-${lang}-1`,
    extensions: [{ extensionIdentifier: { id: `model-gateway-start.language-${lang}` }, version: '1.0.0' }],
    translations: { vscode: translations },
    label: lang,
  };
  fs.writeFileSync(list, JSON.stringify({ [lang]: entry }, null, 2));
}

/**
 * emulator.json, with the scripted agent model (claude-demo-agent) added to every group that serves messages, so
 * that with the demo key Agent mode answers plain requests ("add a test for X") with real tool calls, and Ask mode
 * (no tools offered) answers like the other chat models. Written next to the profile; emulator.json is not changed.
 * A file that is not plain JSON (hand-edited) is used as it is.
 */
let agentModelAdded = false;

function startEmulatorConfig(dialect) {
  const source = path.join(ROOT, 'emulator.json');
  if (!fs.existsSync(source)) return undefined;
  let config;
  try {
    config = JSON.parse(fs.readFileSync(source, 'utf8'));
  } catch {
    return source;
  }
  agentModelAdded = withAgentModels(config);
  // --dialect: the gateway the emulator behaves like from the start ('default': its own shapes).
  if (dialect !== undefined) config.dialect = dialect === 'default' ? undefined : dialect;
  const file = path.join(CACHE, 'start-emulator.json');
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * A proxy that records where code-server's server side would connect outside the machine and refuses it: --check
 * starts code-server with HTTP(S)_PROXY pointing here (NO_PROXY for 127.0.0.1), so every outside contact is counted.
 */
async function startRecordingProxy() {
  const http = await import('node:http');
  const contacts = [];
  const server = http.createServer((req, res) => {
    contacts.push(`server: ${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  server.on('connect', (req, socket) => {
    contacts.push(`server: CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    env: {
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
    },
    contacts,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function check(url, lang, proxy) {
  const { launchChromium } = await import('./lib/chromium.mjs');
  const browser = await launchChromium();
  const outside = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Every request the workbench makes to a host that is not this machine. Webview resources use the made-up host
    // *.vscode-resource.vscode-cdn.net and are answered by the webview's service worker from this server: counted
    // only if one ever reaches the network.
    const isOutside = (address) => {
      const target = new URL(address);
      return /^(https?|wss?):$/.test(target.protocol) && !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)
        ? `${target.origin}${target.pathname}`
        : undefined;
    };
    page.context().on('response', (res) => {
      const where = isOutside(res.url());
      if (where && !res.fromServiceWorker()) outside.push(`browser: ${res.request().method()} ${where}`);
    });
    page.context().on('requestfailed', (req) => {
      const where = isOutside(req.url());
      if (where) outside.push(`browser (failed): ${req.method()} ${where}`);
    });
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    const entry = page.locator('.activitybar .action-label[aria-label="Model Gateway"]').first();
    await entry.click({ timeout: 120_000 });
    await page
      .locator('iframe.webview[src*="extensionId=model-gateway.model-gateway"]')
      .first()
      .waitFor({ state: 'attached', timeout: 60_000 });
    if (lang === 'zh-cn') {
      // The view's name from package.nls.zh-cn.json: the extension runs in Chinese.
      await page.locator('.part.sidebar', { hasText: '聊天' }).first().waitFor({ timeout: 60_000 });
    }
    // Give the workbench time for what it does after startup (extension recommendations, update checks).
    await page.waitForTimeout(10_000);
    fs.mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'test-results', 'start-check.png') });
    const contacts = [...new Set([...outside, ...proxy.contacts])];
    console.log(
      `[start] outside contacts: ${contacts.length === 0 ? 'none' : `${contacts.length}\n  ${contacts.join('\n  ')}`}`,
    );
    if (contacts.length > 0) throw new Error('code-server contacted hosts outside the machine (listed above)');
    console.log(
      `[start] check passed: the Model Gateway view opened${lang === 'en' ? '' : ` in ${lang}`} (test-results/start-check.png)`,
    );
  } finally {
    await browser.close();
  }
}

async function main() {
  const opts = parseStartArgs(process.argv.slice(2), { versions: DEFAULT_VERSIONS, env: process.env });
  if (opts.help) {
    console.log(HELP);
    return;
  }
  assertNodeVersion(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')));
  killChildrenOnExit();
  const t0 = Date.now();
  console.log('[start] building and packaging …');
  await run(process.execPath, ['esbuild.js', '--only=emulator'], { cwd: ROOT });
  const { file: vsix } = await packageVsix({ quiet: true });
  const version = opts.vscode;
  console.log(
    `[start] VS Code ${version}${version === DEFAULT_VERSIONS.at(-1) ? '' : ' (chosen with --vscode or MG_VSCODE)'}` +
      `${opts.lang === 'en' ? '' : `, language ${opts.lang}`} (${secs(t0)}s)`,
  );
  const info = (await provision([version]))[version];
  const emulator = await startEmulatorProcess(ROOT, {
    port: await pickPort(opts.emulatorPort),
    config: startEmulatorConfig(opts.dialect),
    logFile: path.join(CACHE, 'start-emulator.log'),
  });
  if (!emulator) throw new Error('the emulator (src/emulator/index.ts) is missing');
  const profile = startProfile(opts.fresh, emulator.url, opts.lang);
  await installVsix(info, profile, vsix);
  const port = await pickPort(opts.port);
  // The user's own key keeps the name they give it (MODEL_GATEWAY_API_KEY_NAME) or its variable's name.
  const env = process.env.MODEL_GATEWAY_API_KEY
    ? { MODEL_GATEWAY_API_KEY: process.env.MODEL_GATEWAY_API_KEY }
    : { MODEL_GATEWAY_API_KEY: DEMO_KEY, MODEL_GATEWAY_API_KEY_NAME: DEMO_KEY_NAME };
  const proxy = opts.check ? await startRecordingProxy() : undefined;
  const server = await startCodeServer(info, profile, {
    env: { ...OFFLINE_ENV, ...proxy?.env, ...env },
    locale: opts.lang === 'en' ? undefined : opts.lang,
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
  for (const line of dialectBanner(emulator.url, emulator.adminToken, opts.dialect)) console.log(line);
  console.log(
    `  VS Code ${info.version}  (code-server ${info.codeServer}, log ${path.relative(ROOT, path.join(CACHE, 'start-code-server.log'))})`,
  );
  console.log(`\n  Open: ${server.workbenchUrl}\n`);
  if (opts.lang !== 'en')
    console.log(`  Language: ${opts.lang} (the extension; VS Code's own menus stay English without a language pack)\n`);
  if (opts.check) {
    try {
      await check(server.workbenchUrl, opts.lang, proxy);
    } finally {
      await proxy.close();
    }
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
