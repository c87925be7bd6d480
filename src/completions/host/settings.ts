// The completion settings, read from user settings only (inspect().globalValue): a workspace's .vscode/settings.json
// must not turn completions on, pick the model that receives the user's code, or allow them in an untrusted folder.
import * as vscode from 'vscode';
import { modeFromSetting, type CompletionMode } from '../../gateway/completion/completionMode';
import { gatewaySettings } from '../../platform/settings';
import { DEFAULT_MAX_FILE_KB } from '../gates';

export const SECTION = 'modelGateway.completions';

export interface CompletionSettings {
  enabled: boolean;
  languages: Record<string, boolean>;
  model: string;
  allowUntrusted: boolean;
  maxFileKb: number;
  /** The raw mode setting (one mode, or a table per model). */
  modeSetting: unknown;
}

function user<T>(key: string): T | undefined {
  return gatewaySettings.completionsUserValue(key) as T | undefined;
}

export function readCompletionSettings(): CompletionSettings {
  const languages = user<Record<string, unknown>>('languages');
  const table: Record<string, boolean> = {};
  if (languages && typeof languages === 'object')
    for (const [k, v] of Object.entries(languages)) if (typeof v === 'boolean') table[k] = v;
  const size = user<number>('maxFileSizeKB');
  return {
    enabled: user<boolean>('enabled') === true,
    languages: table,
    model: (user<string>('model') ?? '').trim(),
    allowUntrusted: user<boolean>('allowInUntrustedWorkspaces') === true,
    maxFileKb: typeof size === 'number' && size > 0 ? Math.min(size, 100_000) : DEFAULT_MAX_FILE_KB,
    modeSetting: user<unknown>('mode'),
  };
}

export function modeOverride(settings: CompletionSettings, model: string): CompletionMode | undefined {
  return modeFromSetting(settings.modeSetting, model);
}

/** Turns completions on or off (and sets the model), in user settings. */
export async function setEnabled(enabled: boolean, model?: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  if (model) await config.update('model', model, vscode.ConfigurationTarget.Global);
  await config.update('enabled', enabled, vscode.ConfigurationTarget.Global);
}

export function affectsCompletions(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(SECTION);
}
