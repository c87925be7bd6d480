// Smoke test inside the real extension host: the VSIX-installed extension activates and registers
// every command its manifest declares.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { Commands } from '../../src/shared/commands';
import { EXTENSION_ID } from '../support/hostTest';

describe('extension host smoke', () => {
  it('runs inside a real VS Code', () => {
    console.log(`[host] VS Code ${vscode.version}, app ${vscode.env.appName}`);
    assert.match(vscode.version, /^1\.\d+\.\d+/);
  });

  it('activates the installed extension', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('registers every declared command', async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = Object.values(Commands).filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, []);
  });

  it('sees the base URL the harness configured', () => {
    const baseUrl = vscode.workspace.getConfiguration('modelGateway').get<string>('baseUrl');
    if (process.env.MG_EMULATOR_URL) assert.strictEqual(baseUrl, process.env.MG_EMULATOR_URL);
    else assert.ok(baseUrl);
  });
});
