// What the host tests (test/host, run inside the extension host) share: the extension's id, the key the harness
// seeds, the extension's test-only hook command, and waiting for something the extension does asynchronously.
import * as vscode from 'vscode';
import { TEST_HOOKS_COMMAND } from '../../src/shared/commands';

export const EXTENSION_ID = 'model-gateway.model-gateway';

/** The key the harness seeds (MODEL_GATEWAY_API_KEY); the emulator's demo key where it is not set. */
export const DEMO_KEY = process.env.MODEL_GATEWAY_API_KEY || 'mg-demo-key-0001';
/** The name the extension gave the seeded key when it imported it (scripts/lib/layers.mjs sets it). */
export const DEMO_KEY_NAME = process.env.MODEL_GATEWAY_API_KEY_NAME || 'MODEL_GATEWAY_API_KEY';

/** The extension's test-only entry (registered only under the harness): flows with arguments, without the UI. */
export const testHook = <T>(name: string, ...args: unknown[]): Thenable<T> =>
  vscode.commands.executeCommand<T>(TEST_HOOKS_COMMAND, name, ...args);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waiting for something the extension does asynchronously: the shared poll (test/support/poll.ts). */
export { waitForValue } from './poll';

/**
 * Closes every editor without a save dialog: an unsaved buffer (of any scheme, a proposal's side too) is reverted
 * first. `closeAllEditors` on a dirty buffer opens a modal dialog that nothing in a host test can answer; it then
 * blocks every later suite's cleanup in this window (each waits out its hook timeout).
 */
export async function closeEditorsWithoutSaving(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.isDirty && !doc.isClosed) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
