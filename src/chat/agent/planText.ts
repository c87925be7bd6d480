// The plan of a Plan-mode answer (pure): what "Act on this plan" sends as the Agent-mode task.
import { english, type Localizer } from '../../shared/l10n';

/**
 * The task Act on this plan sends in Agent mode (the user sees this question): the user's request, and the plan
 * quoted with its origin. The model wrote the plan (from files a repository controls): it must not read as the
 * user's own words.
 */
export function planTask(answer: string, l10n: Localizer = english): string {
  const quoted = planOf(answer)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return `${l10n.t('Act on this plan:')}\n\n${l10n.t('(quoted from your Plan-mode answer: the assistant wrote it, not the user)')}\n\n${quoted}`;
}

const CHECKLIST_ITEM = /^\s*(?:[-*]|\d+[.)])\s+\[[ xX]\]\s/;

/**
 * The plan in a Plan-mode answer: its last checklist (with the heading line just above it), or the whole answer
 * when it has none. What the model said while reading files before it is left out of the task.
 */
export function planOf(answer: string): string {
  const lines = answer.trim().split('\n');
  let end = lines.length - 1;
  while (end >= 0 && !CHECKLIST_ITEM.test(lines[end])) end--;
  if (end < 0) return answer.trim();
  let start = end;
  while (start > 0 && (CHECKLIST_ITEM.test(lines[start - 1]) || /^\s+\S/.test(lines[start - 1]))) start--;
  if (start > 0 && /^\s*(#{1,6}\s|\*\*|\S.*:\s*$)/.test(lines[start - 1])) start--;
  return lines.slice(start).join('\n').trim();
}
