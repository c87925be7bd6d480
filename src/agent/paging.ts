// One page of a sorted tool listing (find_files, search_text): the same call gives the same page, the header says
// the total and how to ask for the next page, so the model never mistakes a capped list for the whole answer.

export interface Page<T> {
  items: T[];
  /** Index of the first item (0-based). */
  offset: number;
  /** Items found; a lower bound when `atLeast` (the scan stopped at its cap). */
  total: number;
  atLeast: boolean;
  /** The offset of the next page, when there is one. */
  next?: number;
}

/** Page `offset … offset + size` of `all`, which the caller sorted; `scanCapped`: more exist than were scanned. */
export function pageOf<T>(all: readonly T[], offset: number, size: number, scanCapped = false): Page<T> {
  const items = all.slice(offset, offset + size);
  const end = offset + items.length;
  return {
    items,
    offset,
    total: all.length,
    atLeast: scanCapped,
    ...(end < all.length ? { next: end } : {}),
  };
}

/**
 * "[files 201–400 of 1,234 matching src/**, sorted by path; the next page: offset 400]". `what`: the plural noun,
 * `of`: what they match. Empty pages say where the list ends.
 */
export function pageHeader(page: Page<unknown>, what: string, of: string, sortedBy: string): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const total = `${page.atLeast ? 'more than ' : ''}${n(page.total)}`;
  if (page.items.length === 0)
    return page.total === 0
      ? `[no ${what} ${of}]`
      : `[no ${what} from offset ${n(page.offset)}: ${total} ${what} ${of}]`;
  const range = `${n(page.offset + 1)}–${n(page.offset + page.items.length)}`;
  const next =
    page.next !== undefined
      ? `; the next page: offset ${page.next}`
      : page.atLeast
        ? '; the scan stopped there: narrow the pattern for the rest'
        : '';
  return `[${what} ${range} of ${total} ${of}, sorted by ${sortedBy}${next}]`;
}

/** Sorts paths the same way on every machine (code-unit order, not the locale's). */
export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
