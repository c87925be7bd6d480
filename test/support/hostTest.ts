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
 * Closes every editor without a save dialog. `closeAllEditors` on a dirty buffer opens a modal that nothing in a host
 * test can answer; it then blocks every later suite's cleanup in this window (each waits out its hook timeout, and
 * commands fail with "service accessor is only valid during the invocation"). So each unsaved buffer, of any scheme
 * (a proposal's side too, whose file may already be gone), is shown and closed by `revertAndCloseActiveEditor`, which
 * falls back to a revert that does not read the file when the read fails. Should one stay dirty, the hook fails
 * naming it instead of leaving a modal.
 */
export async function closeEditorsWithoutSaving(): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const dirty = vscode.workspace.textDocuments.filter((doc) => doc.isDirty && !doc.isClosed);
    if (dirty.length === 0) break;
    for (const doc of dirty) {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }
  const left = [
    ...vscode.workspace.textDocuments.filter((doc) => doc.isDirty && !doc.isClosed).map((doc) => doc.uri.toString()),
    ...vscode.window.tabGroups.all.flatMap((g) => g.tabs.filter((t) => t.isDirty).map((t) => t.label)),
  ];
  if (left.length > 0)
    throw new Error(`unsaved editors left open (closing them would ask to save): ${left.join(', ')}`);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
