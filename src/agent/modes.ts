// What a mode lets the model do, decided apart from the approval policy (policy.ts): Plan mode is read-only.
// The check runs before the policy on every call, so a call to an edit or command tool that the model names
// anyway (the tool was not offered, but a model may guess it) is refused here, not just hidden.
import { english, type Localizer } from '../shared/l10n';
import type { ApprovalClass, Tool } from './types';

/** agent: every tool the policy allows; plan: read-only tools (read, list, search, diagnostics), no edits, no commands. */
export type AgentMode = 'agent' | 'plan';

/** The approval classes Plan mode lets run: reads only (edits, commands and other extensions' tools are refused). */
export const PLAN_MODE_CLASSES: ReadonlySet<ApprovalClass> = new Set<ApprovalClass>(['read']);

/** True when `tool` may run in `mode`; the loop offers only these tools' definitions. */
export function allowedInMode(mode: AgentMode | undefined, approvalClass: ApprovalClass): boolean {
  return mode !== 'plan' || PLAN_MODE_CLASSES.has(approvalClass);
}

/** The tools whose definitions a request of this mode carries. */
export function toolsForMode<T extends Pick<Tool<never>, 'approvalClass'>>(
  tools: readonly T[],
  mode: AgentMode | undefined,
): T[] {
  return tools.filter((t) => allowedInMode(mode, t.approvalClass));
}

/**
 * Why this call may not run in `mode` (English for the model, or `l10n`'s language for the user), or undefined
 * when the mode allows it. A refusal, never a question: no approval turns a Plan-mode edit into an edit.
 */
export function modeRefusal(
  mode: AgentMode | undefined,
  call: { toolName: string; approvalClass: ApprovalClass },
  l10n: Localizer = english,
): string | undefined {
  if (allowedInMode(mode, call.approvalClass)) return undefined;
  return l10n.t(
    'Plan mode is read-only: {0} is not run. Finish the plan; the user can act on it in Agent mode.',
    call.toolName,
  );
}
