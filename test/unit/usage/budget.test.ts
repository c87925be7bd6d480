// The daily budget (pure): the setting's shape, the share used, and "would the next request pass it".
import assert from 'node:assert/strict';
import { budgetUsed, parseBudget, wouldPass } from '../../../src/usage/budget';

const today = (tokens: number, cost?: number) => ({
  tokens,
  images: 0,
  requests: 1,
  cost,
  unpriced: 0,
  estimate: false,
});

describe('daily budget', () => {
  it('reads tokens and money; zero, negative or other shapes are no budget', () => {
    assert.deepEqual(parseBudget({ tokens: 100000 }), { tokens: 100000, money: undefined });
    assert.deepEqual(parseBudget({ money: 2.5 }), { tokens: undefined, money: 2.5 });
    assert.equal(parseBudget({ tokens: 0, money: -1 }), undefined);
    assert.equal(parseBudget(null), undefined);
    assert.equal(parseBudget(5), undefined);
  });

  it('the larger share of tokens and money counts; the 80 % notice is due at 0.8', () => {
    assert.equal(budgetUsed(today(800), { tokens: 1000 }), 0.8);
    assert.equal(budgetUsed(today(100, 1.8), { tokens: 1000, money: 2 }), 0.9);
    assert.equal(budgetUsed(today(100, undefined), { money: 2 }), 0);
    assert.equal(budgetUsed(today(5000), undefined), 0);
  });

  it('tokens are counted ahead of the request; money only once it is reached', () => {
    assert.equal(wouldPass(today(900), { tokens: 1000 }, 100), false);
    assert.equal(wouldPass(today(900), { tokens: 1000 }, 101), true);
    assert.equal(wouldPass(today(0, 1.99), { money: 2 }, 10_000), false);
    assert.equal(wouldPass(today(0, 2), { money: 2 }, 0), true);
  });
});
