// The usage page's body (pure): a stacked bar per day (tokens, one colour per model), a legend, and a table per
// model with totals. Drawn as inline SVG and HTML by this code, no script and no library: the page runs with a CSP
// that allows no script at all. Every text from the ledger (model ids) is escaped.
import { formatAmount } from '../gateway/pricing';
import { acceptanceRate, percentile, type CompletionStats } from '../shared/completionStats';
import type { ModelTotals, UsageSummary } from '../shared/usageLedger';

export interface UsagePageStrings {
  heading: string;
  /** "Key {0}" filled. */
  keyLine: string;
  empty: string;
  model: string;
  requests: string;
  tokens: string;
  images: string;
  cost: string;
  total: string;
  /** Shown next to a cost that is an estimate. */
  estimate: string;
  /** The marks after a cost, in brackets of the user's language: "({0})", "（{0}）". */
  marks: string;
  /** Between two marks: ", ", "，". */
  markSeparator: string;
  /** Shown next to a cost that leaves some requests out (no price for them). */
  partial: string;
  /** "Tokens per day, last 30 days". */
  chartTitle: string;
  /** Where the figures come from (one paragraph). */
  sources: string;
  /** Export / clear hint (the commands in the panel's title bar). */
  actions: string;
}

const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 56, right: 8, top: 10, bottom: 28 };
// Chart colours come from the theme (classes in media/usage.css), cycled per model.
const SERIES = 8;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const compact = (n: number): string =>
  n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : String(Math.round(n));

/** Models by total tokens, largest first: the colour order. */
function modelOrder(summary: UsageSummary): string[] {
  return Object.entries(summary.byModel)
    .sort((a, b) => b[1].tokens - a[1].tokens || a[0].localeCompare(b[0]))
    .map(([m]) => m);
}

/** The bar chart as an SVG element (a <title> per bar segment says day, model and tokens). */
export function usageChartSvg(summary: UsageSummary, title: string): string {
  const models = modelOrder(summary);
  const max = Math.max(1, ...summary.days.map((d) => Object.values(d.byModel).reduce((a, t) => a + t.tokens, 0)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, summary.days.length);
  const barW = Math.max(2, slot * 0.7);
  const parts: string[] = [];
  for (const frac of [0, 0.5, 1]) {
    const y = PAD.top + plotH * (1 - frac);
    parts.push(`<line class="grid" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y}" y2="${y}"/>`);
    parts.push(`<text class="axis" x="${PAD.left - 6}" y="${y + 4}" text-anchor="end">${compact(max * frac)}</text>`);
  }
  summary.days.forEach((d, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    let y = PAD.top + plotH;
    models.forEach((m, k) => {
      const t = d.byModel[m];
      if (!t || t.tokens <= 0) return;
      const h = (t.tokens / max) * plotH;
      y -= h;
      parts.push(
        `<rect class="s${k % SERIES}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"><title>${escapeHtml(`${d.day} · ${m} · ${t.tokens}`)}</title></rect>`,
      );
    });
    if (i % 5 === 0 || i === summary.days.length - 1)
      parts.push(
        `<text class="axis" x="${(x + barW / 2).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="middle">${d.day.slice(5)}</text>`,
      );
  });
  return `<svg class="chart" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${WIDTH} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg>`;
}

export function costCell(t: ModelTotals, s: UsagePageStrings): string {
  if (t.cost === undefined) return '–';
  const marks = [t.estimate ? s.estimate : '', t.unpriced ? s.partial : ''].filter(Boolean).join(s.markSeparator);
  return `${formatAmount(t.cost)}${marks ? ` <span class="mark">${escapeHtml(s.marks.replace('{0}', marks))}</span>` : ''}`;
}

/** The page body: heading, chart, legend + table, where the figures come from. */
export function usagePageBody(summary: UsageSummary, s: UsagePageStrings): string {
  const models = modelOrder(summary);
  const head = `<h1>${escapeHtml(s.heading)}</h1><p class="key">${escapeHtml(s.keyLine)}</p>`;
  if (!models.length)
    return `${head}<p class="empty">${escapeHtml(s.empty)}</p><p class="note">${escapeHtml(s.sources)}</p>`;
  const row = (label: string, t: ModelTotals, k?: number): string =>
    `<tr><td>${k === undefined ? '' : `<svg class="swatch" viewBox="0 0 10 10"><rect class="s${k % SERIES}" width="10" height="10"/></svg> `}${escapeHtml(label)}</td><td class="num">${t.requests}</td><td class="num">${t.tokens.toLocaleString('en-US')}</td><td class="num">${t.images}</td><td class="num">${costCell(t, s)}</td></tr>`;
  const table = `<table class="models"><thead><tr><th>${escapeHtml(s.model)}</th><th>${escapeHtml(s.requests)}</th><th>${escapeHtml(s.tokens)}</th><th>${escapeHtml(s.images)}</th><th>${escapeHtml(s.cost)}</th></tr></thead><tbody>${models
    .map((m, k) => row(m, summary.byModel[m], k))
    .join('')}</tbody><tfoot>${row(s.total, summary.total)}</tfoot></table>`;
  return `${head}<h2>${escapeHtml(s.chartTitle)}</h2>${usageChartSvg(summary, s.chartTitle)}${table}<p class="note">${escapeHtml(s.sources)}</p><p class="note">${escapeHtml(s.actions)}</p>`;
}

export interface CompletionSectionStrings {
  heading: string;
  /** Requests, tokens, cost of completions in the last 30 days ({0} requests, {1} tokens, {2} cost). */
  requests: string;
  shown: string;
  accepted: string;
  rate: string;
  latency: string;
  /** "Local figures: counted on this machine only, never sent anywhere." */
  local: string;
}

/** Code completion apart from chat: its requests, tokens and cost, and the local shown / accepted / latency figures. */
export function completionSection(
  totals: ModelTotals,
  stats: CompletionStats,
  s: CompletionSectionStrings,
  priced: UsagePageStrings,
): string {
  if (totals.requests === 0 && stats.shown === 0) return '';
  const rate = acceptanceRate(stats);
  const p50 = percentile(stats.latencies, 50);
  const p95 = percentile(stats.latencies, 95);
  const cells: Array<[string, string]> = [
    [s.requests, `${totals.requests} · ${totals.tokens.toLocaleString('en-US')} · ${costCell(totals, priced)}`],
    [s.shown, String(stats.shown)],
    [s.accepted, String(stats.accepted)],
    [s.rate, rate === undefined ? '–' : `${(rate * 100).toFixed(1)} %`],
    [s.latency, p50 === undefined ? '–' : `${p50} ms / ${p95} ms`],
  ];
  const rows = cells.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td class="num">${v}</td></tr>`).join('');
  return `<h2>${escapeHtml(s.heading)}</h2><table class="completions"><tbody>${rows}</tbody></table><p class="note">${escapeHtml(s.local)}</p>`;
}
