// Show Usage's sub-agent section (pure): the requests, tokens and cost of the key's sub-agents (ledger kind
// 'subagent', src/agent/subagents.ts), apart from the agent's own steps, so what delegating costs can be seen.
import { kindTotals, type LedgerEntry, type ModelTotals } from '../shared/usageLedger';
import { costCell, escapeHtml, type UsagePageStrings } from './chart';

/** Requests, tokens and cost of one key's sub-agent requests in the ledger's window. */
export function subagentTotals(entries: readonly LedgerEntry[], key: string): ModelTotals {
  return kindTotals(entries, key, 'subagent');
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
