// The hunks of a proposed change (src/agent/hunks.ts): split exactly, applied in any subset, CRLF and missing final
// newlines kept, created / deleted / empty files, adjacent changes, changes at the start and the end.
import * as assert from 'assert';
import fc from 'fast-check';
import { applyHunks, diffHunks, hunkAtLine, hunkKey, MAX_DIFF_DISTANCE, splitLines } from '../../../src/agent/hunks';

const all = () => true;
const none = () => false;
const only =
  (...wanted: number[]) =>
  (_h: unknown, i: number) =>
    wanted.includes(i);

describe('agent hunks', () => {
  it('splitLines keeps every terminator and gives the text back', () => {
    assert.deepStrictEqual(splitLines(''), []);
    assert.deepStrictEqual(splitLines('a'), ['a']);
    assert.deepStrictEqual(splitLines('a\r\nb\n\nc'), ['a\r\n', 'b\n', '\n', 'c']);
    assert.deepStrictEqual(splitLines('a\n'), ['a\n']);
  });

  it('two separate changes are two hunks; each one alone, both and neither apply exactly', () => {
    const original = 'one\ntwo\nthree\nfour\nfive\n';
    const proposed = 'ONE\ntwo\nthree\nfour\nFIVE\nsix\n';
    const hunks = diffHunks(original, proposed);
    assert.strictEqual(hunks.length, 2);
    assert.deepStrictEqual(hunks[0], { origStart: 0, propStart: 0, removed: ['one\n'], added: ['ONE\n'] });
    assert.deepStrictEqual(hunks[1], { origStart: 4, propStart: 4, removed: ['five\n'], added: ['FIVE\n', 'six\n'] });
    assert.strictEqual(applyHunks(original, hunks, all), proposed);
    assert.strictEqual(applyHunks(original, hunks, none), original);
    assert.strictEqual(applyHunks(original, hunks, only(0)), 'ONE\ntwo\nthree\nfour\nfive\n');
    assert.strictEqual(applyHunks(original, hunks, only(1)), 'one\ntwo\nthree\nfour\nFIVE\nsix\n');
  });

  it('adjacent changed lines are one hunk; one unchanged line between makes two', () => {
    assert.strictEqual(diffHunks('a\nb\nc\n', 'A\nB\nc\n').length, 1);
    const two = diffHunks('a\nb\nc\n', 'A\nb\nC\n');
    assert.strictEqual(two.length, 2);
    assert.strictEqual(applyHunks('a\nb\nc\n', two, only(1)), 'a\nb\nC\n');
  });

  it('an insertion at the start and a deletion at the end', () => {
    const original = 'x\ny\nz\n';
    const proposed = 'header\nx\ny\n';
    const hunks = diffHunks(original, proposed);
    assert.strictEqual(hunks.length, 2);
    assert.deepStrictEqual(hunks[0], { origStart: 0, propStart: 0, removed: [], added: ['header\n'] });
    assert.deepStrictEqual(hunks[1], { origStart: 2, propStart: 3, removed: ['z\n'], added: [] });
    assert.strictEqual(applyHunks(original, hunks, only(0)), 'header\nx\ny\nz\n');
    assert.strictEqual(applyHunks(original, hunks, only(1)), 'x\ny\n');
  });

  it('CRLF files stay CRLF in every subset', () => {
    const original = 'a\r\nb\r\nc\r\nd\r\n';
    const proposed = 'A\r\nb\r\nc\r\nD\r\n';
    const hunks = diffHunks(original, proposed);
    assert.strictEqual(hunks.length, 2);
    assert.strictEqual(applyHunks(original, hunks, only(0)), 'A\r\nb\r\nc\r\nd\r\n');
    assert.strictEqual(applyHunks(original, hunks, only(1)), 'a\r\nb\r\nc\r\nD\r\n');
  });

  it('no final newline: kept when the last line is untouched, its change is part of the last hunk', () => {
    const hunks = diffHunks('a\nb\nc', 'A\nb\nc');
    assert.strictEqual(hunks.length, 1);
    assert.strictEqual(applyHunks('a\nb\nc', hunks, all), 'A\nb\nc');
    // Adding a newline at the end changes the last line: rejecting it keeps the file without one.
    const end = diffHunks('a\nb\nc', 'A\nb\nc\n');
    assert.strictEqual(end.length, 2);
    assert.strictEqual(applyHunks('a\nb\nc', end, only(0)), 'A\nb\nc');
    assert.strictEqual(applyHunks('a\nb\nc', end, only(1)), 'a\nb\nc\n');
    // Appending after a last line without a newline.
    const append = diffHunks('a', 'a\nb');
    assert.strictEqual(applyHunks('a', append, all), 'a\nb');
    assert.strictEqual(applyHunks('a', append, none), 'a');
  });

  it('a created file, a deleted file and an empty file are one hunk or none', () => {
    assert.deepStrictEqual(diffHunks('', 'new\nfile\n'), [
      { origStart: 0, propStart: 0, removed: [], added: ['new\n', 'file\n'] },
    ]);
    assert.deepStrictEqual(diffHunks('old\n', ''), [{ origStart: 0, propStart: 0, removed: ['old\n'], added: [] }]);
    assert.deepStrictEqual(diffHunks('', ''), []);
    assert.deepStrictEqual(diffHunks('same\r\n', 'same\r\n'), []);
    assert.strictEqual(applyHunks('old\n', diffHunks('old\n', ''), all), '');
  });

  it('hunkAtLine finds a hunk from either side, a pure insertion or deletion from the line next to its gap', () => {
    const hunks = diffHunks('x\ny\nz\n', 'header\nx\ny\n');
    assert.strictEqual(hunkAtLine(hunks, 0, 'proposed'), 0);
    assert.strictEqual(hunkAtLine(hunks, 2, 'original'), 1);
    // The deleted last line shows after proposed line 3 (index 2): the line before the gap finds it.
    assert.strictEqual(hunkAtLine(hunks, 2, 'proposed'), 1);
    assert.strictEqual(hunkAtLine(hunks, 1, 'proposed'), -1);
  });

  it('hunkKey tells apart hunks of other places and other contents', () => {
    const [a] = diffHunks('a\nb\n', 'A\nb\n');
    const [b] = diffHunks('a\nb\n', 'B\nb\n');
    const [c] = diffHunks('q\na\nb\n', 'q\nA\nb\n');
    assert.notStrictEqual(hunkKey(a), hunkKey(b));
    assert.notStrictEqual(hunkKey(a), hunkKey(c));
    assert.strictEqual(hunkKey(a), hunkKey(diffHunks('a\nb\n', 'A\nb\n')[0]));
  });

  it('a huge rewrite becomes one hunk instead of an expensive diff', () => {
    const n = MAX_DIFF_DISTANCE + 10;
    const original = Array.from({ length: n }, (_, i) => `a${i}\n`).join('');
    const proposed = Array.from({ length: n }, (_, i) => `b${i}\n`).join('');
    const hunks = diffHunks(original, proposed);
    assert.strictEqual(hunks.length, 1);
    assert.strictEqual(applyHunks(original, hunks, all), proposed);
  });

  it('property: all hunks give the proposed text, none the original, and each alone changes only its lines', () => {
    const line = fc.constantFrom('a\n', 'b\n', 'c\r\n', '\n', 'd', 'e\n');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), fc.array(line, { maxLength: 25 }), (la, lb) => {
        // A line without terminator can only be last.
        const norm = (ls: string[]) => ls.map((l, i) => (i < ls.length - 1 && !l.endsWith('\n') ? l + '\n' : l));
        const original = norm(la).join('');
        const proposed = norm(lb).join('');
        const hunks = diffHunks(original, proposed);
        assert.strictEqual(applyHunks(original, hunks, all), proposed);
        assert.strictEqual(applyHunks(original, hunks, none), original);
        hunks.forEach((h, i) => {
          const one = applyHunks(original, hunks, only(i));
          const lines = splitLines(one);
          const before = splitLines(original);
          assert.deepStrictEqual(lines.slice(0, h.origStart), before.slice(0, h.origStart));
          assert.deepStrictEqual(lines.slice(h.origStart, h.origStart + h.added.length), h.added);
          assert.deepStrictEqual(
            lines.slice(h.origStart + h.added.length),
            before.slice(h.origStart + h.removed.length),
          );
        });
      }),
      { numRuns: 300 },
    );
  });
});
