// The image panel's field tables, as the host's guard applies them to what the webview sends.
import * as assert from 'node:assert/strict';
import { imageForm as isImageForm, imagesGuard } from '../../../../src/shared/protocol/images';

const isImagesToHostMessage = (m: unknown): boolean => imagesGuard.toHost(m).ok;

describe('images protocol guard', () => {
  const form = {
    mode: 'generate',
    prompt: 'a cat',
    model: 'gpt-image-demo',
    size: '1024x1024',
    quality: 'auto',
    n: 1,
    references: [],
  };

  it('accepts every well-formed message', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'refreshModels' },
      { type: 'refreshGallery' },
      { type: 'submit', requestId: 'r1', form },
      { type: 'pick', slot: 'mask' },
      { type: 'unpick', slot: 'reference', path: 'a.png' },
      { type: 'galleryAction', action: 'insert', id: 'x' },
      { type: 'galleryAction', action: 'ask', id: 'x' },
      { type: 'cancelTask', localId: 'l' },
      { type: 'resumeTask', localId: 'l' },
      { type: 'formChanged', form },
    ]) {
      assert.ok(isImagesToHostMessage(m), JSON.stringify(m));
    }
  });

  it('rejects unknown types, wrong shapes and out-of-range values', () => {
    for (const m of [
      null,
      'ready',
      [],
      { type: 'eval' },
      { type: 'submit', requestId: 'r', form: { ...form, n: 0 } },
      { type: 'submit', requestId: 'r', form: { ...form, n: 1.5 } },
      { type: 'submit', requestId: 'r', form: { ...form, n: 11 } },
      { type: 'submit', requestId: 'r', form: { ...form, mode: 'delete' } },
      { type: 'submit', requestId: 'r', form: { ...form, references: [1] } },
      { type: 'submit', requestId: 'r', form: { ...form, prompt: 'x'.repeat(40_000) } },
      { type: 'pick', slot: 'anything' },
      { type: 'galleryAction', action: 'delete', id: 'x' },
      { type: 'cancelTask' },
      // Extra fields are refused (the old hand-written switch let them through), and so is a submit without its id.
      { type: 'pick', slot: 'mask', path: '/etc/passwd' },
      { type: 'refreshModels', force: true },
      { type: 'submit', form },
      { type: 'submit', requestId: 'r', form: { ...form, extra: 1 } },
      { type: 'ready', now: true },
    ]) {
      assert.ok(!isImagesToHostMessage(m), JSON.stringify(m));
    }
    assert.ok(!isImageForm({ ...form, references: Array(17).fill('a.png') }));
  });
});
