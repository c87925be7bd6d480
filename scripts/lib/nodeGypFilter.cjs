// node-gyp for code-server's install, minus the native modules a headless test never loads. scripts/provision.mjs
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

function packageName(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name;
  } catch {
    return undefined;
  }
}

const name = packageName(process.cwd());
const command = process.argv[2];
if (name && NOT_BUILT[name] && ['rebuild', 'build', 'configure', 'install'].includes(command)) {
  console.log(`[provision] not compiling ${name}: ${NOT_BUILT[name]}`);
  process.exit(0);
}
const real = process.env.MG_REAL_NODE_GYP;
if (!real) {
  console.error('nodeGypFilter: MG_REAL_NODE_GYP is not set');
  process.exit(1);
}
const result = spawnSync(process.execPath, [real, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
