// globalState is one per machine: two windows saving at once must not write over each other's figures. Completion
// statistics add up what each window counted since its last save; the balance memory keeps another window's
// entries for other keys and drops only what this window dropped itself.
import assert from 'node:assert/strict';
import { mergeBalanceEntries, type BalanceEntry } from '../../../src/gateway/balance';
import { emptyStats, mergeStats, statsOf } from '../../../src/shared/completionStats';

describe('globalState written by several windows', () => {
  it('completion statistics: two windows saving in turn keep both counts', () => {
    let stored: unknown = undefined;
    const a = { ...emptyStats(), shown: 3, accepted: 1, latencies: [100, 120] };
    const b = { ...emptyStats(), shown: 5, withoutRequest: 2, latencies: [90] };
    stored = mergeStats(statsOf(stored), a);
    stored = mergeStats(statsOf(stored), b);
    assert.deepEqual(stored, { shown: 8, accepted: 1, withoutRequest: 2, latencies: [100, 120, 90] });
  });

  it('completion statistics: the latencies stay the last 500', () => {
    const stored = { ...emptyStats(), latencies: Array.from({ length: 500 }, () => 1) };
    const merged = mergeStats(stored, { ...emptyStats(), latencies: [7, 8] });
    assert.equal(merged.latencies.length, 500);
    assert.deepEqual(merged.latencies.slice(-2), [7, 8]);
  });

  it('balance memory: another window’s newer entry for another key stays; one dropped here stays dropped', () => {
    const loadedAt = 1_000;
    const entry = (checkedAt: number, remaining: number): BalanceEntry => ({
      route: 'new-api',
      balance: { remaining, unlimited: false, route: 'new-api' },
      checkedAt,
    });
    const stored = [
      ['fp-b|url', entry(2_000, 5)], // another window, after this one loaded
      ['fp-c|url', entry(500, 9)], // known here at load, then dropped here
      ['fp-a|url', entry(1_500, 1)], // older than this window's check of the same key
    ];
    const mine: Array<[string, BalanceEntry]> = [['fp-a|url', entry(3_000, 2)]];
    assert.deepEqual(
      new Map(mergeBalanceEntries(stored, mine, loadedAt)),
      new Map([
        ['fp-a|url', entry(3_000, 2)],
        ['fp-b|url', entry(2_000, 5)],
      ]),
    );
  });
});
