// How `npm run bench` updates bench/results.json: by row, so a partial run keeps the other figures.
import type { BenchRow } from './table';

/** A row as stored in results.json: which section measured it, when, with which Node. */
export type StoredRow = BenchRow & { section?: string; measuredAt?: string; node?: string };

/**
 * Merges this run's rows into the stored ones: a section that ran replaces its own stored rows (and any stored
 * row with the same figure, or, for rows written before rows named their section, the same figure name whatever its
 * parameters); every other stored row stays.
 * The result is ordered by section (sectionOrder), rows of unknown sections last.
 */
export function mergeRows(stored: StoredRow[], fresh: StoredRow[], ran: string[], sectionOrder: string[]): StoredRow[] {
  // Figures carry their parameters in parentheses ("… answers (7.5 KB each, kept)"): a row stored without a section
  // is the same figure when the words before them match.
  const name = (figure: string) => figure.replace(/\s*\(.*$/s, '').trim();
  const figures = new Set(fresh.map((r) => r.figure));
  const names = new Set(fresh.map((r) => name(r.figure)));
  const replaced = (r: StoredRow) =>
    (r.section ? ran.includes(r.section) : names.has(name(r.figure))) || figures.has(r.figure);
  const kept = stored.filter((r) => !replaced(r));
  const order = (r: StoredRow) => {
    const i = r.section ? sectionOrder.indexOf(r.section) : -1;
    return i < 0 ? sectionOrder.length : i;
  };
  return [...kept, ...fresh].sort((a, b) => order(a) - order(b));
}
