// Prepares fresh VS Code profile folders, installs VSIXs and starts code-server (a real VS Code server +
// workbench) on a random free port. Recipes: docs/testing.md#provisioning.
import fs from 'node:fs';
import path from 'node:path';
import { run, start, killTree, logBothStreams } from './proc.mjs';

/**
 * User settings of every harness profile: trust off (Restricted Mode would keep the extension off), quiet, offline.
 * Only values every supported version takes as they are: a value VS Code migrates on start (1.139 rewrote
 * `extensions.autoUpdate: false` to "off") changes settings.json under the UI suites, which then took it for a change
 * of their own that the Settings editor cannot put back, and reloaded the shared window after each suite (no
 * `extensions.autoUpdate` is needed: with `extensions.autoCheckUpdates` off nothing looks for updates).
 */
export const BASE_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  // Workspaces live under .vscode-test/ inside this repository: no "open the parent repository?" toast.
  'git.openRepositoryInParentFolders': 'never',
  // The tests' local servers are not ports to forward: VS Code's toast "Over 20 ports have been automatically
  // forwarded…" lay over the Chat input and took a test's click (two-copies run, 2026-12-08).
  'remote.autoForwardPorts': false,
};

/**
 * Built-in extensions that test windows go without: none of our tests is about them, and every window started them
 * (12 windows in one UI part): git and GitHub scan the workspace at each start, the JSON, TypeScript and npm
 * extensions start language servers and tsserver when a test opens package.json or a .js file, the debuggers,
 * authentication and tunnel extensions activate at startup or on the chat setup's account probe. What stays:
 * themes, grammars, Markdown (our Check Connection report opens its preview), Copilot and the chat, and the
 * terminal and the diff editor (core). Measured alone on 2 cores: the agent UI suite 138 → 105 core-s, the host
 * layer 204 → 170. `MG_ALL_BUILTINS=1` keeps every one (to tell whether one of them matters to a failure).
 */
export const IDLE_BUILTINS = [
  'git',
  'git-base',
  'github',
  'github-authentication',
  'microsoft-authentication',
  'merge-conflict',
  'emmet',
  'debug-auto-launch',
  'debug-server-ready',
  'ms-vscode.js-debug',
  'ms-vscode.js-debug-companion',
  'ms-vscode.vscode-js-profile-table',
  'tunnel-forwarding',
  'terminal-suggest',
  'npm',
  'grunt',
  'gulp',
  'jake',
  'json-language-features',
  'configuration-editing',
  'extension-editing',
  'typescript-language-features',
  'css-language-features',
  'html-language-features',
  'php-language-features',
  'ipynb',
  'references-view',
  'simple-browser',
  'media-preview',
  'search-result',
];

/**
 * A built-in extensions folder for a test profile: links to code-server's own built-ins but IDLE_BUILTINS (VS Code
 * reads built-ins from --builtin-extensions-dir instead of its own folder); undefined with MG_ALL_BUILTINS=1.
 */
export function testBuiltinExtensions(info, profile, env = process.env) {
  if (env.MG_ALL_BUILTINS === '1') return undefined;
  const source = path.join(path.dirname(info.entry), '..', '..', 'lib', 'vscode', 'extensions');
  const dir = path.join(profile.dir, 'builtin-extensions');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(source)) {
    if (IDLE_BUILTINS.includes(name)) continue;
    const link = path.join(dir, name);
    if (!fs.existsSync(link)) fs.symlinkSync(path.join(source, name), link);
  }
  return dir;
}

/** Creates dir/{user,extensions,workspace} with the settings every run needs; returns the paths. */
export function prepareProfile(dir, { settings = {}, extensionsDir } = {}) {
  fs.rmSync(dir, { recursive: true, force: true });
  const userDataDir = path.join(dir, 'user');
  const workspace = path.join(dir, 'workspace');
  const extDir = extensionsDir ?? path.join(dir, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
  if (!fs.existsSync(path.join(extDir, 'extensions.json'))) {
    fs.mkdirSync(extDir, { recursive: true });
    fs.writeFileSync(path.join(extDir, 'extensions.json'), '[]');
  }
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 2),
  );
  return { dir, userDataDir, extDir, workspace };
}

/** Installs a VSIX into an extensions dir with code-server's CLI. */
export async function installVsix(info, profile, vsix) {
  await run(
    info.node,
    [
      info.entry,
      '--user-data-dir',
      profile.userDataDir,
      '--extensions-dir',
      profile.extDir,
      '--install-extension',
      vsix,
      '--force',
    ],
    { quiet: true, timeoutMs: 180_000 },
  );
}

/**
 * Starts code-server for a profile; resolves {url, port, child, logFile, workbenchUrl} once it listens and answers.
 * Rejects early when the process exits (a crashed server fails fast instead of waiting for a timeout).
 */
export async function startCodeServer(
  info,
  profile,
  { env = {}, logFile, timeoutMs = 120_000, port = 0, locale, builtinExtensionsDir } = {},
) {
  const args = [
    info.entry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--config',
    path.join(profile.dir, 'code-server.yaml'),
    '--user-data-dir',
    profile.userDataDir,
    '--extensions-dir',
    profile.extDir,
    '--disable-telemetry',
    '--disable-update-check',
    ...(locale ? ['--locale', locale] : []),
    ...(builtinExtensionsDir ? ['--builtin-extensions-dir', builtinExtensionsDir] : []),
    profile.workspace,
  ];
  const child = start(info.node, args, { env: { ...process.env, ...env }, cwd: profile.dir });
  fs.mkdirSync(path.dirname(logFile ?? profile.dir), { recursive: true });
  logBothStreams(child, logFile ?? path.join(profile.dir, 'code-server.log'));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      killTree(child);
      reject(new Error(`code-server did not start in ${timeoutMs / 1000}s`));
    }, timeoutMs);
    const onData = (d) => {
      out += d;
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `code-server exited with ${code ?? signal} before listening:\n${out.split('\n').slice(-20).join('\n')}`,
        ),
      );
    });
  });
  await waitForHttp(url, child);
  return {
    url,
    port: Number(new URL(url).port),
    child,
    workbenchUrl: `${url}/?folder=${encodeURIComponent(profile.workspace)}`,
  };
}

async function waitForHttp(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { redirect: 'manual' });
      if (res.status < 500) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server at ${url} did not answer`);
}

/** Copies code-server and extension host logs of a profile into dest (for debugging failed runs). */
export function collectLogs(profile, dest) {
  const logs = path.join(profile.userDataDir, 'logs');
  if (!fs.existsSync(logs)) return;
  fs.mkdirSync(dest, { recursive: true });
  fs.cpSync(logs, path.join(dest, 'vscode-logs'), { recursive: true });
}
