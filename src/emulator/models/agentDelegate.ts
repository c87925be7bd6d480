// The scripted agent model delegating (sub-agents, src/agent/subagents.ts), so that `npm start` shows parallel
// explorers without a real model: asked to use sub-agents ("explore with sub-agents", "in parallel"), and offered
// start_subagent, it lists the workspace root, sends one explorer into each of its first two folders in one message
// (they run at the same time), and sums up their reports. Stateless: the phase is the number of steps since the task.
import { listedPaths, type NaturalTurn, type OfferedTool, type PlanStep } from './agentPlan';

export const DELEGATE_TOOL = 'start_subagent';

/** A request that asks for sub-agents (English or Chinese), when the request offers the tool. */
export function wantsSubagents(task: string, tools: readonly OfferedTool[]): boolean {
  return /sub-?agents?|in parallel|子智能体|并行/i.test(task) && tools.some((t) => t.name === DELEGATE_TOOL);
}

export function planDelegate(steps: PlanStep[], tools: readonly OfferedTool[]): NaturalTurn {
  const list = tools.find((t) => /list/i.test(t.name));
  if (steps.length === 0 && list)
    return {
      kind: 'tools',
      text: "I'll list the workspace root first.",
      calls: [{ name: list.name, input: { path: '.' } }],
    };
  if (steps.length <= 1) {
    const listing = steps[0]?.results[0]?.isError ? [] : listedPaths(steps[0]?.results[0]?.text);
    const folders = listing.filter((p) => p.endsWith('/'));
    const picked = (folders.length > 0 ? folders : listing).slice(0, 2).map((p) => p.replace(/\/$/, ''));
    if (picked.length === 0) return { kind: 'final', text: 'The workspace looks empty: nothing to explore.' };
    return {
      kind: 'tools',
      text: `I'll send ${picked.length === 1 ? 'an explorer' : `${picked.length} explorers in parallel`} (read-only sub-agents).`,
      calls: picked.map((folder) => ({
        name: DELEGATE_TOOL,
        input: { task: `Look around the folder "${folder}" (read-only) and report what it holds.` },
      })),
    };
  }
  const reports = steps[steps.length - 1].results.map((r) => firstReportLine(r?.text ?? ''));
  return {
    kind: 'final',
    text: ['The explorers reported:', ...reports.map((r, i) => `${i + 1}. ${r}`), 'I changed nothing.'].join('\n'),
  };
}

/** The first line of a sub-agent's report (inside its fence), else the first line of the result. */
function firstReportLine(text: string): string {
  const inside = /<subagent-report>\n([\s\S]*?)\n<\/subagent-report>/.exec(text)?.[1] ?? text;
  const line =
    inside
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '(no report)';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
