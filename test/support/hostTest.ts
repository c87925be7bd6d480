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
