// The agent's settings from their inspected values (pure: no `vscode` import; settings.ts reads them).
import { DEFAULT_MAX_STEPS } from '../agent';
import { clampSetting, type BoundedSetting, type ClampedSetting } from '../shared/settingBounds';
import type { ApprovalSummary } from '../shared/protocol/chatShapes';

export interface AgentSettings {
  autoApproveWrites: boolean;
  commandAllowList: string[];
  /** User, workspace and folder patterns together (they only add refusals). */
  secretPatterns: string[];
  maxSteps: number;
  commandTimeoutMs: number;
  /** Values outside the settings' bounds, clamped (the host says each once). */
  clamped: ClampedSetting[];
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

/** A number within the setting's bounds (clamped, and noted in `clamped`); undefined when it is no number. */
function bounded(key: BoundedSetting, v: unknown, clamped: ClampedSetting[]): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
  const r = clampSetting(key, v, true);
  if (r.clamped) clamped.push(r.clamped);
  return r.used;
}

/** Parses the inspected values (pure apart from the input shape; exported for tests). */
export function agentSettingsFrom(get: <T>(key: string) => Inspected<T> | undefined): AgentSettings {
  const approve = get<boolean>('autoApproveWrites');
  const allow = get<string[]>('commandAllowList');
  const secrets = get<string[]>('secretPatterns');
  const steps = get<number>('maxSteps');
  const timeout = get<number>('commandTimeoutSeconds');
  const clamped: ClampedSetting[] = [];
  const stepsOf = (v: unknown) => bounded('agent.maxSteps', v, clamped);
  const userSteps = stepsOf(steps?.globalValue) ?? stepsOf(steps?.defaultValue) ?? DEFAULT_MAX_STEPS;
  // A workspace may lower the budget (cheaper), never raise it.
  const localSteps = [steps?.workspaceValue, steps?.workspaceFolderValue]
    .map(stepsOf)
    .filter((n): n is number => n !== undefined);
  const timeoutOf = (v: unknown) => bounded('agent.commandTimeoutSeconds', v, clamped);
  const userTimeout =
    timeoutOf(timeout?.globalValue) ?? timeoutOf(timeout?.defaultValue) ?? DEFAULT_COMMAND_TIMEOUT_SECONDS;
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
    clamped,
  };
}

/** What the composer says is auto-approved now (display only: the policy reads the settings themselves). */
export function approvalSummary(s: Pick<AgentSettings, 'autoApproveWrites' | 'commandAllowList'>): ApprovalSummary {
  return { writes: s.autoApproveWrites, commands: s.commandAllowList.length };
}

/** The Settings editor filtered to the two settings that grant approvals (`@id:` takes a comma-separated list). */
export const APPROVAL_SETTINGS_QUERY = '@id:modelGateway.agent.autoApproveWrites,modelGateway.agent.commandAllowList';
