// How `npm run bench` updates bench/results.json: by row, so a partial run keeps the other figures.
import type { BenchRow } from './table';

/** A row as stored in results.json: which section measured it, when, with which Node. */
export type StoredRow = BenchRow & { section?: string; measuredAt?: string; node?: string };

/**
 * Merges this run's rows into the stored ones: a section that ran replaces its own stored rows (and any stored
 * row with the same figure, e.g. one written before rows named their section); every other stored row stays.
 * The result is ordered by section (sectionOrder), rows of unknown sections last.
 */
export function mergeRows(stored: StoredRow[], fresh: StoredRow[], ran: string[], sectionOrder: string[]): StoredRow[] {
  const figures = new Set(fresh.map((r) => r.figure));
  const kept = stored.filter((r) => !(r.section && ran.includes(r.section)) && !figures.has(r.figure));
  const order = (r: StoredRow) => {
    const i = r.section ? sectionOrder.indexOf(r.section) : -1;
    return i < 0 ? sectionOrder.length : i;
  };
  return [...kept, ...fresh].sort((a, b) => order(a) - order(b));
}
