// Sub-agent requests are ledger entries of their own kind: stored and read back, in the CSV's kind column, and
// listed apart in Show Usage (requests, tokens, cost of the key's sub-agents).
import * as assert from 'node:assert/strict';
import { entryOf, ledgerCsv, type LedgerEntry } from '../../../src/shared/usageLedger';
import { subagentSection, subagentTotals } from '../../../src/usage/subagentSection';

const entry = (kind: LedgerEntry['kind'], key = 'k1', cost?: number): LedgerEntry => ({
  t: '2026-12-06T10:00:00.000Z',
  key,
  model: 'small-model',
  route: '/v1/messages',
  dialect: 'messages',
  kind,
  input: 100,
  output: 20,
  cacheRead: 0,
  cacheWrite: 0,
  ...(cost !== undefined ? { cost, costSource: 'billed' as const } : {}),
});

const strings = { estimate: 'estimate', partial: 'partial', markSeparator: ', ', marks: '({0})' } as never;

describe('sub-agent usage', () => {
  it('the ledger keeps the kind "subagent", and the CSV says it', () => {
    assert.equal(entryOf(JSON.parse(JSON.stringify(entry('subagent'))))?.kind, 'subagent');
    assert.match(ledgerCsv([entry('subagent')]), /,subagent,/);
  });

  it("Show Usage lists the key's sub-agent requests apart", () => {
    const ledger = [
      entry('subagent', 'k1', 0.01),
      entry('subagent', 'k1', 0.02),
      entry('agent', 'k1', 1),
      entry('subagent', 'k2'),
    ];
    const totals = subagentTotals(ledger, 'k1');
    assert.equal(totals.requests, 2);
    assert.equal(totals.tokens, 240);
    assert.equal(totals.cost, 0.03);
    const html = subagentSection(totals, { heading: 'Sub-agents <x>', requests: 'Requests' }, strings);
    assert.match(html, /<h2>Sub-agents &lt;x&gt;<\/h2>/);
    assert.match(html, /2 · 240 · /);
    assert.equal(subagentSection(subagentTotals(ledger, 'k3'), { heading: 'h', requests: 'r' }, strings), '');
  });
});
