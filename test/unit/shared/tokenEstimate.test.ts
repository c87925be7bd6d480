// The one token estimate (src/shared/tokenEstimate.ts): the heuristic every place counts with, and its calibration
// by the input tokens the gateway reported.
import * as assert from 'node:assert/strict';
import {
  calibrated,
  calibrationOf,
  estimateTokens,
  IMAGE_TOKENS,
  MAX_CALIBRATION,
  MIN_CALIBRATION,
  textTokens,
  weightedChars,
} from '../../../src/shared/tokenEstimate';

describe('one token estimate', () => {
  it('counts nothing for empty input', () => {
    assert.equal(textTokens(''), 0);
    assert.equal(weightedChars(''), 0);
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens(undefined), 0);
  });

  // Characters per token of real tokenizers (Claude's; o200k is close): English prose about 4, TypeScript about 3.4,
  // Chinese and Japanese about 1 token a character, an emoji 2–3 tokens.
  const samples: Array<[name: string, text: string, realTokens: (text: string) => number]> = [
    [
      'code',
      'export function add(a: number, b: number): number {\n  return a + b;\n}\n'.repeat(40),
      (t) => t.length / 3.4,
    ],
    ['prose', 'The quick brown fox jumps over the lazy dog. '.repeat(40), (t) => t.length / 4],
    ['CJK', '模型网关把请求转发给上游的模型服务。'.repeat(40), (t) => t.length],
    ['kana', 'こんにちは、世界。'.repeat(40), (t) => t.length],
    ['emoji', '🚀🙂👍'.repeat(40), (t) => [...t].length * 2],
  ];
  for (const [name, text, realTokens] of samples)
    it(`${name} is not under-counted, nor grossly over-counted`, () => {
      const estimate = textTokens(text);
      const real = realTokens(text);
      assert.ok(estimate >= real, `${name}: ${estimate} < ${Math.round(real)}`);
      assert.ok(estimate <= 1.5 * real, `${name}: ${estimate} > 1.5 × ${Math.round(real)}`);
    });

  it('counts a character beyond the BMP (a surrogate pair) as two tokens, a lone surrogate as one', () => {
    assert.equal(textTokens('🙂'), 2);
    assert.equal(textTokens('\ud83d'), 1);
    assert.equal(textTokens('\udc00'), 1);
    assert.equal(textTokens('ab\udc00c'), 2);
  });

  it('counts a request part by its JSON, an image block at a flat rate instead of its data', () => {
    assert.equal(estimateTokens({ a: 'x' }), Math.ceil('{"a":"x"}'.length / 3));
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(400_000) } };
    const tokens = estimateTokens([image]);
    assert.ok(tokens >= IMAGE_TOKENS && tokens < IMAGE_TOKENS + 20, String(tokens));
  });

  it('the calibration moves the next estimate to the reported count of the same request', () => {
    const request = { messages: [{ role: 'user', content: 'Please summarise this file.\n' + 'x = 1\n'.repeat(500) }] };
    const plain = estimateTokens(request);
    const reported = Math.round(plain * 0.8);
    const ratio = calibrationOf(reported, plain);
    assert.equal(ratio, reported / plain);
    assert.ok(Math.abs(estimateTokens(request, ratio) - reported) <= 1, 'the same request: the reported count');
    const next = { messages: [...request.messages, { role: 'user', content: 'x = 1\n'.repeat(500) }] };
    assert.ok(estimateTokens(next, ratio) < estimateTokens(next), 'the next one moves the same way');
  });

  it('the calibration is clamped and ignores reports that say nothing', () => {
    assert.equal(calibrationOf(10, 1000), MIN_CALIBRATION);
    assert.equal(calibrationOf(1_000_000, 1000), MAX_CALIBRATION);
    assert.equal(calibrationOf(undefined, 1000), undefined);
    assert.equal(calibrationOf(0, 1000), undefined);
    assert.equal(calibrationOf(500, 0), undefined);
    assert.equal(calibrationOf(Number.NaN, 1000), undefined);
    assert.equal(calibrationOf(Number.POSITIVE_INFINITY, 1000), undefined);
    assert.equal(calibrated(1000, undefined), 1000);
    assert.equal(calibrated(1000, 1.5), 1500);
  });

  it('huge input is counted in one linear pass (16 MB of text, a request of 100 000 blocks)', () => {
    // A quadratic pass over this much would not finish within the test's timeout.
    const big = 'abc字'.repeat(4_000_000);
    assert.equal(textTokens(big), 4_000_000 * 2);
    const blocks = Array.from({ length: 100_000 }, (_, i) => ({ type: 'text', text: `block ${i}` }));
    assert.ok(estimateTokens({ messages: [{ role: 'user', content: blocks }] }) > 100_000);
  });
});
