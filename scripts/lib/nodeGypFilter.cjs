// node-gyp for code-server's install, minus the native modules a headless test never loads, and minus a second
// compile of a Node-API module another code-server version already built (the same package version). scripts/provision.mjs
// sets npm_config_node_gyp to this file while npm installs code-server; npm's node-gyp shim runs it as
// `node <this file> rebuild` in each package that builds. A package listed here is not compiled (exit 0, one line
// saying why); every other call goes to the real node-gyp (MG_REAL_NODE_GYP) unchanged.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

/** Not loaded by code-server --auth none with our tests: what each is for, checked in lib/vscode/out. */
const NOT_BUILT = {
  // 1.139.1: required only by out/vs/platform/agentHost/node/agentHostMain.js (Copilot's agent host). Its build was
  // most of that version's provisioning (one C file of 9 MB at -O3).
  '@vscode/sqlite3': 'used only by the Copilot agent host',
  // Kerberos / Negotiate proxy authentication: no proxy here.
  kerberos: 'Kerberos proxy authentication only',
  // An optional speed-up of ssh2 (`try { require('cpu-features') } catch {}`); nothing in lib/vscode/out loads ssh2.
  'cpu-features': 'optional CPU detection for ssh2, which no test loads',
};

function packageJson(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Where a Node-API module's build is kept for the next code-server version (MG_NATIVE_BUILDS, set by provisioning), or
 * undefined for a module that is not one. Node-API is ABI-stable across Node versions: the two code-servers (on Node 20
 * and Node 24) each compiled the same @vscode/spdlog 0.15.8 from source, about 25 core-s each on a 2-core machine.
 * A NAN module (compiled against one Node's V8) is never reused.
 */
function reuseFolder(pkg) {
  const root = process.env.MG_NATIVE_BUILDS;
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
  if (!root || !pkg?.name || !pkg.version || !deps['node-addon-api'] || deps.nan) return undefined;
  return path.join(root, `${pkg.name.replace(/[/@]/g, '_')}@${pkg.version}-${process.platform}-${process.arch}`);
}

/** The .node files under build/Release, relative to the package (what node-gyp rebuild produces and loaders load). */
function builtModules(dir) {
  const release = path.join(dir, 'build', 'Release');
  if (!fs.existsSync(release)) return [];
  return fs
    .readdirSync(release, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.node') && fs.statSync(path.join(release, f)).isFile())
    .map((f) => path.join('build', 'Release', f));
}

const pkg = packageJson(process.cwd());
const name = pkg?.name;
const command = process.argv[2];
if (name && NOT_BUILT[name] && ['rebuild', 'build', 'configure', 'install'].includes(command)) {
  console.log(`[provision] not compiling ${name}: ${NOT_BUILT[name]}`);
  process.exit(0);
}
const kept = command === 'rebuild' ? reuseFolder(pkg) : undefined;
const keptModules = kept ? builtModules(kept) : [];
if (kept && keptModules.length) {
  for (const f of keptModules) {
    fs.mkdirSync(path.dirname(path.join(process.cwd(), f)), { recursive: true });
    fs.copyFileSync(path.join(kept, f), path.join(process.cwd(), f));
  }
  console.log(`[provision] not compiling ${name}@${pkg.version} again: its Node-API build is reused (${kept})`);
  process.exit(0);
}
const real = process.env.MG_REAL_NODE_GYP;
if (!real) {
  console.error('nodeGypFilter: MG_REAL_NODE_GYP is not set');
  process.exit(1);
}
const result = spawnSync(process.execPath, [real, ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.status === 0 && kept) {
  // Kept whole or not at all: a folder without its .node files is not reused.
  const modules = builtModules(process.cwd());
  const staging = `${kept}.partial-${process.pid}`;
  try {
    for (const f of modules) {
      fs.mkdirSync(path.dirname(path.join(staging, f)), { recursive: true });
      fs.copyFileSync(path.join(process.cwd(), f), path.join(staging, f));
    }
    if (modules.length) {
      fs.rmSync(kept, { recursive: true, force: true });
      fs.renameSync(staging, kept);
    }
  } catch (err) {
    console.log(`[provision] ${name}'s build not kept for reuse: ${err.message}`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
process.exit(result.status ?? 1);
