// A bench file run alone (npx tsx bench/<file>.ts) prints its rows the way `npm run bench` reads them.
import type { BenchRow } from './table';

/** Runs one section and prints each row on a line; exits with 1 when the section throws. */
export function runAndPrintRows(run: () => Promise<BenchRow[]>): void {
  run()
    .then((rows) => {
      for (const r of rows)
        console.log(
          `${r.figure}: ${r.value} [baseline: ${r.baseline}] (target ${r.target}: ${r.met ? 'met' : 'NOT met'})${r.note ? ` — ${r.note}` : ''}`,
        );
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
