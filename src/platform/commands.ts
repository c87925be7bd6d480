// Command tables: each feature exports one table of named handlers for its ids (src/shared/commands.ts,
// FeatureCommands); activate() registers every id up front. A table may be given as a loader, so a feature's
// code is loaded on the first call of any of its commands (as vscode-eslint's placeholder commands do).
import * as vscode from 'vscode';
import { FeatureCommands, type Feature, type FeatureCommandId } from '../shared/commands';

// Command arguments come from VS Code (menus, keybindings, other extensions): untyped by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandler = (...args: any[]) => unknown;

/** One handler per command id of the feature, no more, no less. */
export type CommandTable<F extends Feature> = { readonly [Id in FeatureCommandId<F>]: CommandHandler };

/**
 * What tests drive without the UI (key setup without input boxes, quiet checks, task lists): reached through the
 * hidden TEST_HOOKS_COMMAND, registered only under the test harness, so no user command carries test-only options.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestHooks = Record<string, (...args: any[]) => unknown>;

/** Registers the feature's commands; `table` is the table itself or a (synchronous) loader of it, called on first use. */
export function registerCommandTable<F extends Feature>(
  feature: F,
  table: CommandTable<F> | (() => CommandTable<F>),
): vscode.Disposable {
  const resolve = typeof table === 'function' ? table : () => table;
  const ids: readonly FeatureCommandId<F>[] = FeatureCommands[feature];
  return vscode.Disposable.from(
    ...ids.map((id) => vscode.commands.registerCommand(id, (...args: unknown[]) => resolve()[id](...args))),
  );
}
