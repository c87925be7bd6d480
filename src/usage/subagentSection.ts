// Show Usage's sub-agent section (pure): the requests, tokens and cost of the key's sub-agents (ledger kind
// 'subagent', src/agent/subagents.ts), apart from the agent's own steps, so what delegating costs can be seen.
import type { LedgerEntry, ModelTotals } from '../shared/usageLedger';
import { costCell, escapeHtml, type UsagePageStrings } from './chart';

/** Requests, tokens and cost of one key's sub-agent requests in the ledger's window. */
export function subagentTotals(entries: readonly LedgerEntry[], key: string): ModelTotals {
  const t: ModelTotals = { tokens: 0, images: 0, requests: 0, unpriced: 0, estimate: false };
  for (const e of entries) {
    if (e.key !== key || e.kind !== 'subagent') continue;
    t.tokens += e.input + e.output + e.cacheRead + e.cacheWrite;
    t.requests++;
    if (e.cost === undefined) t.unpriced++;
    else {
      t.cost = Math.round(((t.cost ?? 0) + e.cost) * 1e8) / 1e8;
      if (e.costSource !== 'billed') t.estimate = true;
    }
  }
  return t;
}

/** The section, or '' when the key's ledger holds no sub-agent request. */
export function subagentSection(
  totals: ModelTotals,
  s: { heading: string; requests: string },
  priced: UsagePageStrings,
): string {
  if (totals.requests === 0) return '';
  const value = `${totals.requests} · ${totals.tokens.toLocaleString('en-US')} · ${costCell(totals, priced)}`;
  return `<h2>${escapeHtml(s.heading)}</h2><table class="subagents"><tbody><tr><td>${escapeHtml(s.requests)}</td><td class="num">${value}</td></tr></tbody></table>`;
}
