// The one reader of `modelGateway.*` settings in the host. Each read applies the trust its row in
// src/shared/settingsTable.ts declares: a user-only setting is the user's value or the default, whatever a workspace's
// .vscode/settings.json says. Modelled on rust-analyzer's editors/code/src/config.ts: one class, a getter per setting
// that is read outside parseConfig (src/shared/config.ts reads the rest from `rawConfig()`).
import * as vscode from 'vscode';
import { CONFIG_KEYS } from '../shared/config';
import { valueUnderTrust, type InspectedSetting } from '../shared/settingsTable';

export const SETTINGS_SECTION = 'modelGateway';

/** A setting's values per scope (key relative to `modelGateway.`). */
export function inspectSetting<T = unknown>(
  key: string,
  scope?: vscode.Uri,
): { defaultValue?: T; globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION, scope).inspect<T>(key);
}

/** A setting's value under its trust (key relative to `modelGateway.`). */
export function settingValue(key: string, scope?: vscode.Uri): unknown {
  return valueUnderTrust(key, inspectSetting(key, scope));
}

class GatewaySettings {
  /** The keys parseConfig reads, each under its trust. */
  rawConfig(): Record<string, unknown> {
    const raw: Record<string, unknown> = {};
    for (const key of CONFIG_KEYS) raw[key] = settingValue(key);
    return raw;
  }
  get prices(): unknown {
    return settingValue('prices');
  }
  get budgetDaily(): unknown {
    return settingValue('budget.daily');
  }
  get modelReasoning(): unknown {
    return settingValue('models.reasoning');
  }
  get condenseThreshold(): unknown {
    return settingValue('agent.condenseThreshold');
  }
  /** A completions setting (`completions.<key>`): user-only, the user's value (undefined when not set). */
  completionsUserValue(key: string): unknown {
    return inspectSetting(`completions.${key}`)?.globalValue;
  }
  get useInstructionFiles(): InspectedSetting | undefined {
    return inspectSetting('agent.useInstructionFiles');
  }
  get agentInstructions(): InspectedSetting | undefined {
    return inspectSetting('agent.instructions');
  }
}

export const gatewaySettings = new GatewaySettings();
