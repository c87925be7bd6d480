import { strict as assert } from 'node:assert';
import { byPath, pageHeader, pageOf, type Page } from '../../../src/agent/paging';

describe('agent tools: one page of a sorted listing', () => {
  const all = Array.from({ length: 450 }, (_, i) => `src/f${String(i).padStart(3, '0')}.ts`);

  it('pages add up to the whole list, each says the total and where the next starts', () => {
    const seen: string[] = [];
    let offset: number | undefined = 0;
    const headers: string[] = [];
    while (offset !== undefined) {
      const page: Page<string> = pageOf(all, offset, 200);
      seen.push(...page.items);
      headers.push(pageHeader(page, 'files', 'matching src/**', 'path'));
      offset = page.next;
    }
    assert.deepEqual(seen, all);
    assert.deepEqual(headers, [
      '[files 1–200 of 450 matching src/**, sorted by path; the next page: offset 200]',
      '[files 201–400 of 450 matching src/**, sorted by path; the next page: offset 400]',
      '[files 401–450 of 450 matching src/**, sorted by path]',
    ]);
  });

  it('a scan that stopped at its cap says "more than"; an offset past the end and an empty list say so', () => {
    assert.equal(
      pageHeader(pageOf(all, 400, 200, true), 'files', 'matching **', 'path'),
      '[files 401–450 of more than 450 matching **, sorted by path; the scan stopped there: narrow the pattern for the rest]',
    );
    assert.equal(
      pageHeader(pageOf(all, 900, 200), 'files', 'matching **', 'path'),
      '[no files from offset 900: 450 files matching **]',
    );
    assert.equal(pageHeader(pageOf([], 0, 200), 'files', 'matching x', 'path'), '[no files matching x]');
  });

  it('sorts by code units, the same in every locale', () => {
    assert.deepEqual(['b', 'B', 'a', '_x', 'A'].sort(byPath), ['A', 'B', '_x', 'a', 'b']);
  });
});
