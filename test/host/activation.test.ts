// Lazy features (src/extension.ts): activation loads neither the chat, the images nor the native-chat bundle
// (dist/features/*.js); each is loaded by its feature's first use. Runs first of the host suites (file order),
// before any other test could use a feature.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Commands } from '../../src/shared/commands';
import { ToolNames } from '../../src/lm/toolText';
import { EXTENSION_ID } from '../support/hostTest';

/** Which feature bundles the extension host has loaded (Node's module cache, shared by every extension). */
function loadedBundles(extensionPath: string): string[] {
  // Node caches modules by real path; the profile's extensions folder may sit behind a symlink.
  const dir = path.join(fs.realpathSync(extensionPath), 'dist', 'features') + path.sep;
  return Object.keys(require.cache)
    .filter((file) => file.startsWith(dir))
    .map((file) => path.basename(file, '.js'))
    .sort();
}

describe('lazy features', () => {
  let extensionPath = '';

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    extensionPath = ext.extensionPath;
  });

  it('activation loads no feature bundle, yet every command and the chat view are registered', async () => {
    assert.deepStrictEqual(loadedBundles(extensionPath), []);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepStrictEqual(
      Object.values(Commands).filter((id) => !registered.has(id)),
      [],
    );
    assert.deepStrictEqual(loadedBundles(extensionPath), [], 'listing commands loads nothing');
  });

  it('the chat view loads the chat bundle when it opens, and only that one', async () => {
    await vscode.commands.executeCommand(Commands.openChat);
    assert.deepStrictEqual(loadedBundles(extensionPath), ['chat']);
  });

  it('an image command loads the images bundle', async () => {
    // Show Image Tasks with no stored task says so and returns: no dialog to answer.
    await vscode.commands.executeCommand(Commands.showImageTasks);
    assert.deepStrictEqual(loadedBundles(extensionPath), ['chat', 'images']);
  });

  it('a gateway tool call loads the native-chat bundle', async function () {
    const lm = vscode.lm as { invokeTool?: unknown };
    if (typeof lm.invokeTool !== 'function') return this.skip();
    await vscode.lm
      .invokeTool(ToolNames.listModels, { input: {}, toolInvocationToken: undefined })
      .then(undefined, () => undefined);
    assert.deepStrictEqual(loadedBundles(extensionPath), ['chat', 'images', 'lm']);
  });
});
