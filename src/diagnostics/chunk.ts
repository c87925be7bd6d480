// The commands bundle (dist/features/commands.js): the key and diagnostics commands' code, loaded by the first
// of them (src/extension.ts registers their ids at activation).
import type * as vscode from 'vscode';
import type { CommandTable, TestHooks } from '../platform/commands';
import type { Services } from '../platform/services';
import { keyCommands, keyTestHooks } from '../keys/register';
import { createDiagnosticsCommands } from './commands';
import type { StatusBar } from './statusBar';

export interface CommandFeatures extends vscode.Disposable {
  readonly keys: CommandTable<'keys'>;
  readonly diagnostics: CommandTable<'diagnostics'>;
  readonly testHooks: TestHooks;
}

export function registerCommandFeatures(services: Services, status: StatusBar): CommandFeatures {
  const diagnostics = createDiagnosticsCommands(services, status);
  return {
    keys: keyCommands(services),
    diagnostics: diagnostics.commands,
    testHooks: { ...keyTestHooks(services), ...diagnostics.testHooks },
    dispose: () => diagnostics.dispose(),
  };
}
