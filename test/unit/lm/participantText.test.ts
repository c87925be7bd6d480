import * as assert from 'node:assert/strict';
import { escapeMarkdown, imageResultMarkdown, modelsMarkdown } from '../../../src/lm/participantText';

describe('lm/participantText', () => {
  it('escapes markdown control characters', () => {
    assert.equal(escapeMarkdown('[x](javascript:y) *b*'), '\\[x\\]\\(javascript:y\\) \\*b\\*');
  });

  it('lists chat and image models as code spans, and says when there are none', () => {
    const md = modelsMarkdown({
      keyName: 'demo',
      baseUrl: 'http://127.0.0.1:1',
      chat: ['claude-demo-sonnet', 'evil`id'],
      image: [],
    });
    assert.match(md, /\*\*demo\*\*/);
    assert.match(md, /- `claude-demo-sonnet`/);
    assert.match(md, /- `evil'id`/);
    assert.match(md, /Image models\*\*\n- _none/);
  });

  it('words the image result by count', () => {
    assert.match(imageResultMarkdown(['a.png']), /Saved the image/);
    assert.match(imageResultMarkdown(['a.png', 'b.png']), /Saved the 2 images/);
    assert.match(imageResultMarkdown([]), /without an image/);
  });
});
