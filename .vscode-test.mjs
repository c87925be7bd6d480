// @vscode/test-cli config for machines WITH internet (`npx vscode-test`): downloads VS Code with
// @vscode/test-electron and runs the same in-host suite (test/host/*.test.ts) in the desktop build.
// Offline machines and CI use `npm test` (scripts/test.mjs), which runs the suite in code-server instead.
// Loading this file builds the extension, bundles the host tests and starts the gateway emulator.
import { defineConfig } from '@vscode/test-cli';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleHostTests } from './scripts/lib/hostBundle.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
const bundleDir = path.join(root, 'out', 'test', 'host');

execFileSync(process.execPath, ['esbuild.js'], { cwd: root, stdio: 'inherit' });
await bundleHostTests(root, bundleDir);

/** The emulator in a child process that dies with this one; resolves {url, adminToken}. */
function startEmulator() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts', 'lib', 'runEmulator.mjs'), '--port', '0'],
    { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  process.on('exit', () => child.kill());
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

const emulator = await startEmulator();
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-host-ws-'));
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-host-user-'));
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
fs.writeFileSync(
  path.join(userDataDir, 'User', 'settings.json'),
  JSON.stringify(
    {
      'security.workspace.trust.enabled': false,
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'modelGateway.baseUrl': emulator.url,
    },
    null,
    2,
  ),
);

const common = {
  files: 'out/test/host/*.test.js',
  workspaceFolder: workspace,
  extensionDevelopmentPath: root,
  launchArgs: ['--user-data-dir', userDataDir, '--disable-workspace-trust'],
  mocha: { ui: 'bdd', timeout: 60_000 },
  env: {
    MODEL_GATEWAY_API_KEY: 'mg-demo-key-0001',
    MG_EMULATOR_URL: emulator.url,
    MG_EMULATOR_ADMIN_TOKEN: emulator.adminToken,
    MG_WORKSPACE: workspace,
  },
};

export default defineConfig([
  { ...common, label: 'minimum', version: '1.100.3', env: { ...common.env, MG_VSCODE_VERSION: '1.100.3' } },
  { ...common, label: 'stable', version: 'stable', env: { ...common.env, MG_VSCODE_VERSION: 'stable' } },
]);
