// Money figures as the user reads them (pure; shared by the host and the webviews).

/** Enough digits for a cent's fraction (0.0042), fewer for large amounts (12.30). */
export function formatAmount(amount: number): string {
  if (amount === 0) return '0';
  const digits = amount >= 1 ? 2 : amount >= 0.001 ? 4 : 6;
  return amount.toFixed(digits);
}

/** An amount rounded to 1e-8 (a hundred-millionth of the currency): how every cost and sum of costs is kept. */
export function roundAmount(amount: number): number {
  return Math.round(amount * 1e8) / 1e8;
}

/** Where a cost figure comes from: billed by the gateway, computed from its published prices, or from your prices. */
export type CostSource = 'billed' | 'gateway' | 'user';

/** A cost as the chat shows it (an answer, an agent step, a turn). */
export interface ChatCost {
  amount: number;
  source: CostSource;
  /** Not the gateway's own figure for this response. */
  estimate: boolean;
  /** A sum that leaves out parts without a price. */
  partial?: boolean;
}
