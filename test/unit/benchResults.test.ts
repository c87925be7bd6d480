// bench/results.json is updated by row: a partial `npm run bench -- heap` must not wipe the other figures.
import * as assert from 'assert';
import { mergeRows, type StoredRow } from '../../bench/merge';

const row = (figure: string, section: string | undefined, value: string): StoredRow => ({
  figure,
  section,
  value,
  baseline: '-',
  target: '-',
  met: true,
});
const ORDER = ['stream', 'size', 'heap'];

describe('bench results: merge by row', () => {
  it('a partial run replaces only its own section and keeps every other figure', () => {
    const stored = [
      row('latency', 'stream', 'old'),
      row('VSIX size', 'size', '500 KB'),
      row('heap growth', 'heap', '+3 MB'),
    ];
    const merged = mergeRows(stored, [row('heap growth', 'heap', '+2 MB')], ['heap'], ORDER);
    assert.deepStrictEqual(
      merged.map((r) => [r.figure, r.value]),
      [
        ['latency', 'old'],
        ['VSIX size', '500 KB'],
        ['heap growth', '+2 MB'],
      ],
    );
  });

  it('a section that now yields other figures drops its stale rows', () => {
    const stored = [row('VSIX size (old name)', 'size', '1 MB'), row('latency', 'stream', 'x')];
    const merged = mergeRows(stored, [row('VSIX size', 'size', '500 KB')], ['size'], ORDER);
    assert.deepStrictEqual(
      merged.map((r) => r.figure),
      ['latency', 'VSIX size'],
    );
  });

  it('a row stored before rows named their section is replaced by the same figure, kept otherwise', () => {
    const stored = [row('heap growth', undefined, '+3 MB'), row('something else', undefined, 'y')];
    const merged = mergeRows(stored, [row('heap growth', 'heap', '+2 MB')], ['heap'], ORDER);
    assert.deepStrictEqual(
      merged.map((r) => [r.figure, r.value]),
      [
        ['heap growth', '+2 MB'],
        ['something else', 'y'],
      ],
    );
  });

  it('a sectionless row whose figure parameters changed is still the same figure', () => {
    const stored = [
      row('host heap after 100 answers (7.5 KB each, kept)', undefined, '+2.1 MB'),
      row('VSIX size', 'size', '500 KB'),
    ];
    const merged = mergeRows(
      stored,
      [row('host heap after 100 answers (10.2 KB each, kept)', 'heap', '+2.6 MB')],
      ['heap'],
      ORDER,
    );
    assert.deepStrictEqual(
      merged.map((r) => [r.figure, r.value]),
      [
        ['VSIX size', '500 KB'],
        ['host heap after 100 answers (10.2 KB each, kept)', '+2.6 MB'],
      ],
    );
  });
});
