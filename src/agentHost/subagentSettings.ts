// The sub-agent settings from their inspected values (pure: no `vscode` import; settings.ts reads them). All three are
// read from the user's own settings only: a repository must not turn sub-agents on for edits, pick a pricier model
// for them, or raise how many run at once (docs/security.md). One function, so a shared settings reader can take it.
import { clampSetting } from '../shared/settingBounds';
import {
  DEFAULT_MAX_PARALLEL_SUBAGENTS,
  SUBAGENT_PERMISSIONS,
  type SubagentPermission,
  type SubagentSettings,
} from '../agent';

interface Inspected {
  globalValue?: unknown;
}

export function subagentSettingsFrom(get: (key: string) => Inspected | undefined): SubagentSettings {
  const permission = get('subagents')?.globalValue;
  const model = get('subagentModel')?.globalValue;
  const parallel = get('maxParallelSubagents')?.globalValue;
  return {
    permission: (SUBAGENT_PERMISSIONS as readonly unknown[]).includes(permission)
      ? (permission as SubagentPermission)
      : 'read-only',
    ...(typeof model === 'string' && model.trim() !== '' ? { model: model.trim() } : {}),
    maxParallel:
      typeof parallel === 'number' && Number.isFinite(parallel)
        ? clampSetting('agent.maxParallelSubagents', parallel, true).used
        : DEFAULT_MAX_PARALLEL_SUBAGENTS,
  };
}
