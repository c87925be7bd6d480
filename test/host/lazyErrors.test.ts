// Lazy features (src/extension.ts), the error presenter: its code (the gateway core's advice) is the errors bundle
// (dist/features/errors.js), loaded by the first error shown. A failing Refresh Models must still show the
// advice: the presenter writes it to the log as it shows the notification.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Commands } from '../../src/shared/commands';
import { EmulatorAdmin } from '../support/emulatorAdmin';

const EXTENSION_ID = 'model-gateway.model-gateway';
const DEMO = process.env.MODEL_GATEWAY_API_KEY || 'mg-demo-key-0001';

function loadedBundles(extensionPath: string): string[] {
  const dir = path.join(fs.realpathSync(extensionPath), 'dist', 'features') + path.sep;
  return Object.keys(require.cache)
    .filter((file) => file.startsWith(dir))
    .map((file) => path.basename(file, '.js'));
}

/** The extension's log files (the harness puts the user data dir next to the workspace). */
function logFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return logFiles(full);
    return entry.name === 'Model Gateway.log' ? [full] : [];
  });
}

function errorLines(logs: string): string[] {
  return logFiles(logs).flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.includes('[error]')),
  );
}

describe('lazy features: the error presenter', function () {
  this.timeout(60_000);
  let extensionPath = '';
  let logs = '';
  let admin: EmulatorAdmin | undefined;

  before(async function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    extensionPath = ext.extensionPath;
    const workspace = process.env.MG_WORKSPACE;
    logs = workspace ? path.join(path.dirname(workspace), 'user', 'logs') : '';
    if (!process.env.MG_EMULATOR_URL || !logs) return this.skip();
    admin = EmulatorAdmin.fromEnv();
  });

  after(async () => {
    await admin?.setFaults(DEMO, null).catch(() => undefined);
    await vscode.commands.executeCommand('notifications.clearAll').then(undefined, () => undefined);
  });

  it('a failed Refresh Models loads the errors bundle and shows the advice', async () => {
    const before = errorLines(logs).length;
    // A 400 is not retried and leaves the client as it was (a 429 would hold later requests for its Retry-After).
    await admin!.setFaults(DEMO, { status: 400, count: 5 });
    await vscode.commands.executeCommand(Commands.refreshModels);
    await admin!.setFaults(DEMO, null);
    const deadline = Date.now() + 20_000;
    while (errorLines(logs).length === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    const added = errorLines(logs).slice(before);
    assert.ok(added.length > 0, 'no error line in the Model Gateway log after the failed refresh');
    assert.match(added.join('\n'), /rejected the request \(400\)/);
    assert.ok(loadedBundles(extensionPath).includes('errors'), `loaded: ${loadedBundles(extensionPath).join(', ')}`);
  });
});
