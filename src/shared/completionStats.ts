// Local figures of code completion (pure): shown and accepted counts, the acceptance rate and latency percentiles,
// kept on this machine only (globalState), never sent anywhere. The usage panel shows them next to the completions'
// requests, tokens and cost from the ledger (entries of kind 'completion').
import { kindTotals, type LedgerEntry, type ModelTotals } from './usageLedger';

export const COMPLETION_STATS_KEY = 'modelGateway.completions.stats';
const MAX_LATENCIES = 500;

export interface CompletionStats {
  shown: number;
  accepted: number;
  /** Of the shown ones, served from the cache or by typing through a suggestion (no request). */
  withoutRequest: number;
  /** Request → answer times of the last MAX_LATENCIES completions (ms). */
  latencies: number[];
}

export function emptyStats(): CompletionStats {
  return { shown: 0, accepted: 0, withoutRequest: 0, latencies: [] };
}

/** Stored stats, or empty ones when the value is not stats. */
export function statsOf(value: unknown): CompletionStats {
  if (typeof value !== 'object' || value === null) return emptyStats();
  const v = value as Record<string, unknown>;
  const n = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.floor(x) : 0);
  const latencies = Array.isArray(v.latencies) ? v.latencies.map(n).slice(-MAX_LATENCIES) : [];
  return { shown: n(v.shown), accepted: n(v.accepted), withoutRequest: n(v.withoutRequest), latencies };
}

export function addLatency(stats: CompletionStats, ms: number): void {
  stats.latencies.push(Math.max(0, Math.round(ms)));
  if (stats.latencies.length > MAX_LATENCIES) stats.latencies.splice(0, stats.latencies.length - MAX_LATENCIES);
}

/**
 * What another window stored plus what this one counted since its last save (`unsaved`): counts add up, this
 * window's latencies go after the stored ones. Every window saves so, so none overwrites another's counts.
 */
export function mergeStats(stored: CompletionStats, unsaved: CompletionStats): CompletionStats {
  const merged: CompletionStats = {
    shown: stored.shown + unsaved.shown,
    accepted: stored.accepted + unsaved.accepted,
    withoutRequest: stored.withoutRequest + unsaved.withoutRequest,
    latencies: [...stored.latencies],
  };
  for (const ms of unsaved.latencies) addLatency(merged, ms);
  return merged;
}

/** The p-th percentile (0–100) by nearest rank; undefined for no samples. */
export function percentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** Accepted / shown, or undefined before anything was shown. */
export function acceptanceRate(stats: CompletionStats): number | undefined {
  return stats.shown > 0 ? stats.accepted / stats.shown : undefined;
}

/** Requests, tokens and cost of the completions of one key in the ledger's window. */
export function completionTotals(entries: readonly LedgerEntry[], key: string): ModelTotals {
  return kindTotals(entries, key, 'completion');
}
