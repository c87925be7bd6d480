import * as assert from 'node:assert/strict';
import {
  isInside,
  isSafeFileName,
  markdownRelativeLink,
  outputFolderSegments,
  relativeInside,
  relativeSegments,
} from '../../../src/images/paths';

describe('images/paths', () => {
  it('accepts relative output folders and normalises separators', () => {
    assert.deepEqual(outputFolderSegments('images'), { ok: true, segments: ['images'] });
    assert.deepEqual(outputFolderSegments('assets\\img/'), { ok: true, segments: ['assets', 'img'] });
    assert.deepEqual(outputFolderSegments('./out'), { ok: true, segments: ['out'] });
    assert.deepEqual(outputFolderSegments(''), { ok: true, segments: [] });
    assert.deepEqual(outputFolderSegments(undefined), { ok: true, segments: ['images'] });
  });

  it('refuses absolute, home, drive, URL and parent paths', () => {
    for (const hostile of [
      '/etc',
      '\\\\server\\share',
      'C:\\Users',
      'c:/x',
      '~/Pictures',
      '..',
      '../outside',
      'images/../../x',
      'a/./../..',
      'file:///etc',
      'https://evil.example/x',
    ]) {
      const result = outputFolderSegments(hostile);
      assert.equal(result.ok, false, hostile);
    }
  });

  it('refuses reserved characters, device names and trailing dots', () => {
    for (const hostile of ['im:ages', 'a<b', 'nul', 'com1.txt', 'images.', 'x\u0000y', 'q?']) {
      assert.equal(relativeSegments(hostile).ok, false, hostile);
    }
  });

  it('checks containment on absolute posix paths, including prefix tricks', () => {
    assert.ok(isInside('/ws', '/ws/images/a.png'));
    assert.ok(isInside('/ws/', '/ws'));
    assert.ok(!isInside('/ws', '/ws-evil/a.png'));
    assert.ok(!isInside('/ws', '/ws/images/../../etc/passwd'));
    assert.ok(!isInside('/ws', '/etc'));
    assert.equal(relativeInside('/ws', '/ws/images/a.png'), 'images/a.png');
    assert.equal(relativeInside('/ws', '/other/a.png'), undefined);
  });

  it('treats hostile server-style names as unsafe file names', () => {
    for (const hostile of [
      '../x.png',
      'a/b.png',
      '..\\x.png',
      '/abs.png',
      'C:x.png',
      'x'.repeat(200),
      '',
      '.',
      'con.png',
    ]) {
      assert.equal(isSafeFileName(hostile), false, hostile);
    }
    assert.ok(isSafeFileName('cat-20261121-100734-1.png'));
  });

  it('makes relative markdown links from a document folder', () => {
    assert.equal(markdownRelativeLink('/ws/docs', '/ws/images/a.png'), '../images/a.png');
    assert.equal(markdownRelativeLink('/ws', '/ws/my images/a b.png'), 'my%20images/a%20b.png');
  });
});
