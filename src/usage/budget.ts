// The optional daily budget per key (modelGateway.budget.daily, user settings): in tokens, or in money where the
// ledger has costs. Pure: how much of today's budget is used, and whether the 80 % notice is due.
import type { ModelTotals } from '../shared/usageLedger';

export interface DailyBudget {
  tokens?: number;
  money?: number;
}

export const BUDGET_NOTICE_FRACTION = 0.8;

/** modelGateway.budget.daily: {tokens?: number, money?: number}; anything else is no budget. */
export function parseBudget(value: unknown): DailyBudget | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const pos = (n: unknown): number | undefined =>
    typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
  const budget: DailyBudget = { tokens: pos(v.tokens), money: pos(v.money) };
  return budget.tokens !== undefined || budget.money !== undefined ? budget : undefined;
}

/** The used fraction of today's budget: the larger of the token and the money share (0 without a budget). */
export function budgetUsed(today: ModelTotals, budget: DailyBudget | undefined): number {
  if (!budget) return 0;
  const shares = [
    budget.tokens !== undefined ? today.tokens / budget.tokens : 0,
    budget.money !== undefined ? (today.cost ?? 0) / budget.money : 0,
  ];
  return Math.max(...shares);
}

/** A request of about `nextTokens` tokens would pass the budget: tokens counted ahead; money only once reached. */
export function wouldPass(today: ModelTotals, budget: DailyBudget, nextTokens: number): boolean {
  if (budget.tokens !== undefined && today.tokens + nextTokens > budget.tokens) return true;
  return budget.money !== undefined && (today.cost ?? 0) >= budget.money;
}
