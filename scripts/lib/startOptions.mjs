// `npm start`'s options (scripts/start.mjs), apart so that a unit test can check them: which VS Code runs, in which
// language, and what the emulator-backed code-server is told so that it contacts nothing outside the machine.

/** The emulator's gateway dialects (src/emulator/dialects/types.ts DIALECT_NAMES; a unit test keeps them equal). */
export const EMULATOR_DIALECTS = [
  'new-api',
  'one-api',
  'sub2api',
  'litellm',
  'router',
  'html-proxy',
  'openrouter',
  'portkey',
];

export const HELP = `node scripts/start.mjs [options]   (npm start -- [options])
  --vscode V         VS Code version (default: the newest the harness knows, now VS Code 1.139.1: its Chat
                     view, model picker and @gateway; provisioned on first use). --vscode 1.100.3, or
                     MG_VSCODE=1.100.3, for the oldest supported one (no Chat view or @gateway there)
  --lang L           the UI language: en (default) or zh-cn (the extension in Simplified Chinese; VS Code's
                     own menus stay English without a language pack, which would need the internet)
  --dialect D        the gateway the emulator behaves like: default, ${EMULATOR_DIALECTS.join(', ')}
                     (switch later without a restart: the admin route the banner prints)
  --emulator-port N  emulator port (default 8787, or the next free one; 0 = random)
  --port N           VS Code port (default 8080, or the next free one; 0 = random)
  --fresh            wipe the VS Code profile (settings, stored key, conversations) first
  --check            start, open the workbench in headless Chromium, open the Model Gateway view, stop
  --help             this text`;

export const LANGUAGES = ['en', 'zh-cn'];

/**
 * Parses the arguments; `versions` are the known VS Code versions, oldest first (scripts/vscode-versions.json).
 * Without --vscode (or MG_VSCODE) the newest one: the one with the chat APIs.
 */
export function parseStartArgs(argv, { versions, env = {} }) {
  const opts = {
    vscode: env.MG_VSCODE || undefined,
    lang: env.MG_LANG || 'en',
    emulatorPort: 8787,
    port: 8080,
    fresh: false,
    check: false,
    dialect: undefined,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--vscode') opts.vscode = argv[++i];
    else if (a === '--lang') opts.lang = argv[++i];
    else if (a === '--emulator-port') opts.emulatorPort = Number(argv[++i]);
    else if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--fresh') opts.fresh = true;
    else if (a === '--dialect') opts.dialect = argv[++i];
    else if (a === '--check') opts.check = true;
    else if (a === '--help' || a === '-h') opts.help = true;
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  opts.vscode ??= versions.at(-1);
  if (!versions.includes(opts.vscode))
    throw new Error(`unknown VS Code version ${opts.vscode}; known: ${versions.join(', ')}`);
  if (opts.dialect !== undefined && opts.dialect !== 'default' && !EMULATOR_DIALECTS.includes(opts.dialect))
    throw new Error(`unknown dialect ${opts.dialect}; known: default, ${EMULATOR_DIALECTS.join(', ')}`);
  opts.lang = String(opts.lang).toLowerCase();
  if (!LANGUAGES.includes(opts.lang)) throw new Error(`unknown language ${opts.lang}; known: ${LANGUAGES.join(', ')}`);
  return opts;
}

/**
 * The environment code-server gets so that it contacts nothing outside the machine: an extension gallery without a
 * service URL turns the gallery off (code-server reads EXTENSIONS_GALLERY instead of its Open VSX default), so no
 * extension lookups, update checks or recommendations go out. Telemetry and code-server's own update check are off
 * by flags (scripts/lib/codeServer.mjs) and the rest by user settings (BASE_SETTINGS there).
 */
export const OFFLINE_ENV = { EXTENSIONS_GALLERY: '{}' };

/** The banner's lines on switching the emulator's dialect while it runs (POST /admin/dialect, docs/emulator.md). */
export function dialectBanner(url, adminToken, dialect) {
  return [
    `  dialect           ${dialect ?? 'default'} (--dialect ${EMULATOR_DIALECTS.join('|')})`,
    // curl's -d sends application/x-www-form-urlencoded unless told: the admin API reads JSON only.
    `  switch it         curl -X POST ${url}/admin/dialect -H 'Authorization: Bearer ${adminToken}' -H 'Content-Type: application/json' -d '{"dialect":"one-api"}'`,
    '                    ({"dialect":null}: back to the start one; then run "Model Gateway: Forget Learned Dialects")',
  ];
}

/** The demo key's name in the key list and status bar (the extension reads MODEL_GATEWAY_API_KEY_NAME). */
export const DEMO_KEY_NAME = 'demo (emulator)';

/** Node versions `npm start`/`npm test` run on: package.json engines.node, checked before anything starts. */
export function nodeSupported(version, minimum) {
  const parse = (v) =>
    String(v)
      .replace(/^[^\d]*/, '')
      .split('.')
      .map(Number);
  const [a, b] = [parse(version), parse(minimum)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** Throws when this Node is older than package.json's engines.node (`npm start` and `npm test` call it first). */
export function assertNodeVersion(pkg, version = process.versions.node) {
  const minimum = String(pkg.engines?.node ?? '').replace(/^>=\s*/, '');
  if (minimum && !nodeSupported(version, minimum))
    throw new Error(`Node ${version} is too old: this project needs Node ${minimum} or newer (README, Requirements).`);
}

/**
 * Adds the scripted agent models (an upstream with `agent: true`: claude-demo-agent, gpt-demo-codex,
 * deepseek-demo-reasoner) to every group of an emulator config that serves messages, in place, so the demo key lists
 * them. True when claude-demo-agent was among them (Agent mode's default model).
 */
export function withAgentModels(config) {
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
  return agentIds.has('claude-demo-agent');
}
