// Shared shape of benchmark rows and the table printer used by `npm run bench`.

export interface Stats {
  min: number;
  median: number;
  max: number;
  p95?: number;
  p99?: number;
  runs: number;
}

export interface BenchRow {
  figure: string;
  /** What the figure is compared with, measured in the same run. */
  baseline: string;
  /** The measured figure, formatted with its unit (min / median / max where repeated). */
  value: string;
  target: string;
  /** undefined when the figure could not be measured here (say why in note). */
  met: boolean | undefined;
  note?: string;
}

/** min / median / max (and p95 / p99) of a sample. */
export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
  return { min: s[0], median: at(0.5), max: s[s.length - 1], p95: at(0.95), p99: at(0.99), runs: s.length };
}

export function fmt(n: number, digits = 1): string {
  return Number.isFinite(n) ? n.toFixed(digits) : String(n);
}

export function fmtStats(st: Stats, unit: string, digits = 1): string {
  return `${fmt(st.min, digits)} / ${fmt(st.median, digits)} / ${fmt(st.max, digits)} ${unit}`;
}

/** Renders rows as a markdown table (printed to the console; docs/performance.md holds a copy). */
export function renderTable(rows: BenchRow[]): string {
  const head = '| figure | baseline (same run) | measured (min / median / max) | target | met |\n|---|---|---|---|---|';
  const body = rows.map(
    (r) =>
      `| ${r.figure} | ${r.baseline} | ${r.value} | ${r.target} | ${r.met === undefined ? 'n/a' : r.met ? 'yes' : '**no**'}${r.note ? ` (${r.note})` : ''} |`,
  );
  return [head, ...body].join('\n');
}
