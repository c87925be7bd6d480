// The agent's settings (modelGateway.agent.*), read where a repository cannot widen them: settings that grant
// permission (auto-approve writes, the command allow-list) count only from the user's own settings, never
// from a workspace's .vscode/settings.json (a cloned repository, or a file the model wrote, must not turn
// approvals off; see docs/security.md). Settings that only restrict (secret patterns, a lower step budget)
// are taken from every level.
import * as vscode from 'vscode';
import { DEFAULT_MAX_STEPS } from '../agent';

export const AGENT_SECTION = 'modelGateway.agent';

export interface AgentSettings {
  autoApproveWrites: boolean;
  commandAllowList: string[];
  /** User, workspace and folder patterns together (they only add refusals). */
  secretPatterns: string[];
  maxSteps: number;
  commandTimeoutMs: number;
}

export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 300;

interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
}

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : undefined;
}

/** Parses the inspected values (pure apart from the input shape; exported for tests). */
export function agentSettingsFrom(get: <T>(key: string) => Inspected<T> | undefined): AgentSettings {
  const approve = get<boolean>('autoApproveWrites');
  const allow = get<string[]>('commandAllowList');
  const secrets = get<string[]>('secretPatterns');
  const steps = get<number>('maxSteps');
  const timeout = get<number>('commandTimeoutSeconds');
  const userSteps = positiveInt(steps?.globalValue) ?? positiveInt(steps?.defaultValue) ?? DEFAULT_MAX_STEPS;
  // A workspace may lower the budget (cheaper), never raise it.
  const localSteps = [steps?.workspaceValue, steps?.workspaceFolderValue]
    .map(positiveInt)
    .filter((n): n is number => n !== undefined);
  const userTimeout =
    positiveInt(timeout?.globalValue) ?? positiveInt(timeout?.defaultValue) ?? DEFAULT_COMMAND_TIMEOUT_SECONDS;
  return {
    autoApproveWrites: approve?.globalValue === true,
    commandAllowList: strings(allow?.globalValue),
    secretPatterns: [
      ...new Set([
        ...strings(secrets?.defaultValue),
        ...strings(secrets?.globalValue),
        ...strings(secrets?.workspaceValue),
        ...strings(secrets?.workspaceFolderValue),
      ]),
    ],
    maxSteps: Math.min(userSteps, ...localSteps),
    commandTimeoutMs: userTimeout * 1000,
  };
}

export function readAgentSettings(scope?: vscode.Uri): AgentSettings {
  const config = vscode.workspace.getConfiguration(AGENT_SECTION, scope);
  return agentSettingsFrom((key) => config.inspect(key));
}
