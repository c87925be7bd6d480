import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  imageBaseName,
  nextFreeName,
  planFileNames,
  promptSlug,
  sidecarName,
  timestampPart,
} from '../../../src/images/naming';
import { isSafeFileName } from '../../../src/images/paths';

describe('images/naming', () => {
  const date = new Date('2026-11-21T10:07:34.123Z');

  it('slugs prompts to lower-case words joined by dashes, in any script', () => {
    assert.equal(promptSlug('A red Fox, jumping over the moon!'), 'a-red-fox-jumping-over-the-moon');
    assert.equal(promptSlug('Crème brûlée'), 'creme-brulee');
    assert.equal(promptSlug('../../etc/passwd'), 'etc-passwd');
    // The README promises files named from the prompt: a Chinese or Japanese prompt too (issue 35).
    assert.equal(promptSlug('日本の猫'), '日本の猫');
    assert.equal(promptSlug('一只猫，坐在窗台上。'), '一只猫-坐在窗台上');
    assert.equal(promptSlug('ガラスの猫'), 'ガラスの猫', 'a voiced kana stays one character');
    assert.equal(promptSlug('猫/../秘密'), '猫-秘密', 'no path separators');
    assert.equal(promptSlug('中'.repeat(60)).length, 40);
    assert.equal(promptSlug('🐱🐶'), 'image', 'emoji are not letters');
    assert.equal(promptSlug('   '), 'image');
  });

  it('caps the slug length without a trailing dash', () => {
    const slug = promptSlug('word '.repeat(50));
    assert.ok(slug.length <= 40);
    assert.ok(!slug.endsWith('-'));
  });

  it('builds names from slug, UTC time and 1-based index', () => {
    assert.equal(timestampPart(date), '20261121-100734');
    assert.equal(imageBaseName('A cat', date, 0), 'a-cat-20261121-100734-1');
    assert.equal(imageBaseName('A cat', date, 2), 'a-cat-20261121-100734-3');
  });

  it('never overwrites: picks the next free name, checking image and sidecar, case-insensitively', () => {
    assert.equal(nextFreeName('cat', 'png', []), 'cat.png');
    assert.equal(nextFreeName('cat', 'png', ['CAT.PNG']), 'cat-2.png');
    assert.equal(nextFreeName('cat', 'png', ['cat.json']), 'cat-2.png');
    assert.equal(nextFreeName('cat', 'png', ['cat.png', 'cat-2.png', 'cat-3.json']), 'cat-4.png');
    assert.equal(nextFreeName('cat', 'jpg', ['cat.png']), 'cat.jpg');
  });

  it('plans distinct names for every image of a request', () => {
    const names = planFileNames('a cat', date, ['png', 'png', 'jpg'], ['a-cat-20261121-100734-2.png']);
    assert.deepEqual(names, [
      'a-cat-20261121-100734-1.png',
      'a-cat-20261121-100734-2-2.png',
      'a-cat-20261121-100734-3.jpg',
    ]);
    assert.equal(sidecarName(names[0]), 'a-cat-20261121-100734-1.json');
  });

  it('property: any prompt gives a safe, bounded file name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.nat({ max: 20 }), (prompt, index) => {
        const name = nextFreeName(imageBaseName(prompt, date, index), 'png', []);
        assert.ok(isSafeFileName(name), name);
        assert.match(name, /^[a-z0-9-]+\.png$/);
        assert.ok(name.length <= 80);
      }),
    );
  });
});
