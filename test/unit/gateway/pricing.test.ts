// Price resolution: billed beats gateway prices beats your prices; estimates marked; no price, no cost.
import assert from 'node:assert/strict';
import {
  billedCostOf,
  costFromHeader,
  formatAmount,
  gatewayPricesOf,
  parsePriceTable,
  priceTokens,
  resolveCost,
  sumCosts,
  tokenCountsOf,
} from '../../../src/gateway/pricing';

const TOKENS = { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 400_000 };

describe('pricing', () => {
  it('a billed cost wins over any price list and is not an estimate', () => {
    assert.deepEqual(resolveCost({ tokens: TOKENS, billed: 0.0123, userPrices: { input: 3, output: 15 } }), {
      amount: 0.0123,
      source: 'billed',
      estimate: false,
    });
  });

  it('gateway prices before your prices, both estimates', () => {
    const gateway = resolveCost({
      tokens: TOKENS,
      gatewayPrices: { input: 1, output: 2 },
      userPrices: { input: 3, output: 15 },
    });
    assert.equal(gateway?.source, 'gateway');
    assert.equal(gateway?.estimate, true);
    const user = resolveCost({
      tokens: TOKENS,
      userPrices: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    // 1M × 3 + 0.1M × 15 + 2M × 0.3 + 0.4M × 3.75 = 3 + 1.5 + 0.6 + 1.5
    assert.deepEqual(user, { amount: 6.6, source: 'user', estimate: true });
  });

  it('cache tokens are never free: without cache prices they cost the upstream ratios of the input price', () => {
    assert.equal(
      priceTokens({ input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 1_000_000 }, { input: 2 }),
      0.2 + 2.5,
    );
  });

  it('a price list that cannot price what was used gives no cost (tokens only), not a wrong one', () => {
    assert.equal(resolveCost({ tokens: TOKENS, userPrices: { input: 3 } }), undefined);
    assert.equal(resolveCost({ tokens: TOKENS }), undefined);
    assert.equal(
      resolveCost({
        tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        images: 2,
        userPrices: { input: 1 },
      }),
      undefined,
    );
    assert.deepEqual(
      resolveCost({
        tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        images: 2,
        userPrices: { perImage: 0.04 },
      }),
      {
        amount: 0.08,
        source: 'user',
        estimate: true,
      },
    );
  });

  it('reads the billed cost from usage.cost and from LiteLLM’s header value', () => {
    assert.equal(billedCostOf({ input_tokens: 1, output_tokens: 1, cost: 0.002 } as never), 0.002);
    assert.equal(billedCostOf({ input_tokens: 1, output_tokens: 1 }), undefined);
    assert.equal(costFromHeader('0.00042'), 0.00042);
    assert.equal(costFromHeader('None'), undefined);
    assert.equal(costFromHeader(['1e-5']), 0.00001);
    assert.equal(costFromHeader('-1'), undefined);
  });

  it('gateway prices from an OpenRouter-style model entry (USD per token → per million)', () => {
    assert.deepEqual(
      gatewayPricesOf({ id: 'm', pricing: { prompt: '0.000003', completion: '0.000015', image: '0' } }),
      {
        input: 3,
        output: 15,
        cacheRead: undefined,
        cacheWrite: undefined,
        perImage: 0,
      },
    );
    assert.equal(gatewayPricesOf({ id: 'm' }), undefined);
    assert.equal(gatewayPricesOf({ id: 'm', pricing: 'free' }), undefined);
  });

  it('modelGateway.prices: numbers kept, everything else dropped', () => {
    assert.deepEqual(parsePriceTable({ a: { input: 3, output: '15', cacheRead: -1, perImage: 0.04 }, b: 'x', c: {} }), {
      a: { input: 3, output: 15, perImage: 0.04 },
    });
    assert.deepEqual(parsePriceTable([1]), {});
  });

  it('sums: an estimate if any part is, partial when a part had no price', () => {
    assert.deepEqual(
      sumCosts([
        { amount: 0.1, source: 'billed', estimate: false },
        { amount: 0.2, source: 'user', estimate: true },
        undefined,
      ]),
      {
        amount: 0.3,
        sources: ['billed', 'user'],
        estimate: true,
        partial: true,
      },
    );
    assert.equal(sumCosts([undefined]), undefined);
  });

  it('token counts treat null and missing as 0; amounts are formatted by size', () => {
    assert.deepEqual(tokenCountsOf({ input_tokens: 5, output_tokens: 2, cache_read_input_tokens: null }), {
      input: 5,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
    });
    assert.equal(formatAmount(12.3), '12.30');
    assert.equal(formatAmount(0.0042), '0.0042');
    assert.equal(formatAmount(0.000042), '0.000042');
  });
});
