// The agent's settings (modelGateway.agent.*), read where a repository cannot widen them: settings that grant
// permission (auto-approve writes, the command allow-list) count only from the user's own settings, never
// from a workspace's .vscode/settings.json (a cloned repository, or a file the model wrote, must not turn
// approvals off; see docs/security.md). Settings that only restrict (secret patterns, a lower step budget)
// are taken from every level.
import * as vscode from 'vscode';
import { inspectSetting } from '../platform/settings';
import { sayClampedSettings } from '../platform/settingsNotice';
import { agentSettingsFrom, type AgentSettings } from './settingsParse';
import { subagentSettingsFrom } from './subagentSettings';
import type { SubagentSettings } from '../agent';

export {
  agentSettingsFrom,
  approvalSummary,
  APPROVAL_SETTINGS_QUERY,
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  type AgentSettings,
} from './settingsParse';

export const AGENT_SECTION = 'modelGateway.agent';

export function readAgentSettings(scope?: vscode.Uri): AgentSettings {
  const settings = agentSettingsFrom(<T>(key: string) => inspectSetting<T>(`agent.${key}`, scope));
  sayClampedSettings(settings.clamped);
  return settings;
}

/** modelGateway.agent.subagents, .subagentModel, .maxParallelSubagents: the user's own values only. */
export function readSubagentSettings(): SubagentSettings {
  return subagentSettingsFrom((key) => inspectSetting(`agent.${key}`));
}
