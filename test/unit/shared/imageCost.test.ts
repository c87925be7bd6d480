import * as assert from 'node:assert/strict';
import { costConfirmationMessage, costFactors, qualitiesFor } from '../../../src/shared/imageCost';

describe('shared/imageCost', () => {
  const defaults = { size: '1024x1024' };

  it('the default request (one image, default size, auto quality, generation) has no reasons', () => {
    assert.deepEqual(costFactors({ kind: 'generation' }, defaults), []);
    assert.deepEqual(costFactors({ kind: 'generation', n: 1, size: '1024X1024', quality: 'auto' }, defaults), []);
    assert.deepEqual(costFactors({ kind: 'generation', quality: 'medium' }, defaults), []);
  });

  it('lists each factor that makes a request costlier', () => {
    const reasons = costFactors(
      { kind: 'edit', n: 3, size: '1536x1024', quality: 'HD', referenceCount: 2, hasMask: true },
      defaults,
    );
    assert.deepEqual(reasons, [
      '3 images instead of one (each image is charged)',
      'size 1536x1024, larger than the default 1024x1024',
      'hd quality',
      'an edit with a mask',
      '2 reference images',
    ]);
    assert.deepEqual(costFactors({ kind: 'generation', quality: 'high' }, defaults), ['high quality']);
    assert.deepEqual(costFactors({ kind: 'edit' }, defaults), ['an edit of an existing image']);
    assert.deepEqual(costFactors({ kind: 'generation', referenceCount: 1 }, defaults), ['1 reference image']);
    assert.deepEqual(costFactors({ kind: 'edit', hasSource: false, referenceCount: 2 }, defaults), [
      '2 reference images',
    ]);
  });

  it('a size costs more only when it is larger than the default; one that cannot be compared is named as such', () => {
    for (const size of ['256x256', '512x512', '1024x1024', 'auto'])
      assert.deepEqual(costFactors({ kind: 'generation', size }, defaults), [], size);
    assert.deepEqual(costFactors({ kind: 'generation', size: '1792x1024' }, defaults), [
      'size 1792x1024, larger than the default 1024x1024',
    ]);
    assert.deepEqual(costFactors({ kind: 'generation', size: '1024x1024' }, { size: '512x512' }), [
      'size 1024x1024, larger than the default 512x512',
    ]);
    assert.deepEqual(costFactors({ kind: 'generation', size: 'portrait' }, defaults), [
      'size portrait instead of the default 1024x1024',
    ]);
  });

  it('quality choices follow the model family: GPT Image, DALL·E 3, DALL·E 2, else only auto', () => {
    assert.deepEqual(qualitiesFor('gpt-image-1'), ['auto', 'low', 'medium', 'high']);
    assert.deepEqual(qualitiesFor('openai/gpt-image-1-mini'), ['auto', 'low', 'medium', 'high']);
    assert.deepEqual(qualitiesFor('dall-e-3'), ['standard', 'hd']);
    assert.deepEqual(qualitiesFor('dall-e-2'), ['standard']);
    assert.deepEqual(qualitiesFor('flux-demo-schnell'), ['auto']);
  });

  it('states the reasons and invents no price', () => {
    const text = costConfirmationMessage(['3 images instead of one (each image is charged)']);
    assert.match(text, /3 images/);
    assert.match(text, /console/);
    assert.doesNotMatch(text, /[$€£]|\d+\s*(credits|cents|USD)/i);
  });
});
