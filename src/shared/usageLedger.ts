// The local usage ledger (pure): one entry per billable response, per key fingerprint, with what it used and what it
// cost. Never prompt or answer text. Bounded (LEDGER_MAX_DAYS, LEDGER_MAX_ENTRIES: the oldest go first), stored as
// JSON lines; read back line by line so one damaged line costs one entry, not the ledger.

import { roundAmount, type CostSource } from './money';
import { totalTokens } from './tokens';
import { isDialect, type Dialect } from './dialects';

export type { CostSource } from './money';

export interface LedgerEntry {
  /** ISO time of the response. */
  t: string;
  /** Key fingerprint (never the key). */
  key: string;
  model: string;
  route: string;
  /** A chat dialect (shared/dialects.ts) or 'images': the wire protocol of the route. */
  dialect: Dialect | 'images';
  /**
   * What the request was for ('completion': counted apart in Show Usage). Absent in entries written before it was
   * recorded (then images are told by their dialect, the rest is not known) and for images.
   */
  kind?: LedgerKind;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  images?: number;
  imageSize?: string;
  cost?: number;
  costSource?: CostSource;
  /** A stopped or cut answer: `output` is estimated from the text received (the gateway reported none). */
  outputEstimated?: boolean;
}

/** The kinds an entry stores (the gateway client's UsageKind); images are told by their dialect. */
export const LEDGER_KINDS = ['chat', 'agent', 'vscode-chat', 'condense', 'completion', 'subagent'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LEDGER_MAX_DAYS = 90;
export const LEDGER_MAX_ENTRIES = 20_000;
const DAY_MS = 86_400_000;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isStr = (v: unknown): v is string => typeof v === 'string';

/** One stored line as an entry, or undefined when it is not one (a damaged or foreign line). */
export function entryOf(value: unknown): LedgerEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!isStr(v.t) || Number.isNaN(Date.parse(v.t)) || !isStr(v.key) || !isStr(v.model) || !isStr(v.route))
    return undefined;
  if (![v.input, v.output, v.cacheRead, v.cacheWrite].every(isNum)) return undefined;
  const entry: LedgerEntry = {
    t: v.t,
    key: v.key,
    model: v.model,
    route: v.route,
    dialect: v.dialect === 'images' || isDialect(v.dialect) ? v.dialect : 'messages',
    input: v.input as number,
    output: v.output as number,
    cacheRead: v.cacheRead as number,
    cacheWrite: v.cacheWrite as number,
  };
  // An unknown kind (a newer version's, or damage) is dropped, never a reason to lose the entry.
  if ((LEDGER_KINDS as readonly unknown[]).includes(v.kind)) entry.kind = v.kind as LedgerKind;
  if (isNum(v.images)) entry.images = v.images;
  if (isStr(v.imageSize)) entry.imageSize = v.imageSize;
  if (v.outputEstimated === true) entry.outputEstimated = true;
  if (isNum(v.cost) && (v.costSource === 'billed' || v.costSource === 'gateway' || v.costSource === 'user')) {
    entry.cost = v.cost;
    entry.costSource = v.costSource;
  }
  return entry;
}

/** Reads JSON lines; lines that are not entries are skipped. */
export function parseLedger(text: string): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = entryOf(JSON.parse(line));
      if (e) out.push(e);
    } catch {
      // a damaged line (a write cut by a crash): skipped
    }
  }
  return out;
}

export function serializeLedger(entries: LedgerEntry[]): string {
  return entries.map((e) => JSON.stringify(e) + '\n').join('');
}

/** Drops entries older than LEDGER_MAX_DAYS, then the oldest beyond LEDGER_MAX_ENTRIES. Keeps order. */
export function pruneLedger(entries: LedgerEntry[], now: number): LedgerEntry[] {
  const cutoff = now - LEDGER_MAX_DAYS * DAY_MS;
  const recent = entries.filter((e) => Date.parse(e.t) >= cutoff);
  return recent.length > LEDGER_MAX_ENTRIES ? recent.slice(recent.length - LEDGER_MAX_ENTRIES) : recent;
}

export const totalTokensOf = (e: LedgerEntry): number => totalTokens(e);

/** Local calendar day of a time, "YYYY-MM-DD". */
export function dayOf(time: number): string {
  const d = new Date(time);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export interface ModelTotals {
  tokens: number;
  images: number;
  requests: number;
  /** Sum of the priced entries; undefined when none was priced. */
  cost?: number;
  /** Some entries had no price (the cost covers the others only). */
  unpriced: number;
  /** Some figure is an estimate (gateway or your prices). */
  estimate: boolean;
}

export interface DayTotals {
  day: string;
  byModel: Record<string, ModelTotals>;
}

export interface UsageSummary {
  days: DayTotals[];
  byModel: Record<string, ModelTotals>;
  total: ModelTotals;
}

function emptyTotals(): ModelTotals {
  return { tokens: 0, images: 0, requests: 0, unpriced: 0, estimate: false };
}

function add(t: ModelTotals, e: LedgerEntry): void {
  t.tokens += totalTokensOf(e);
  t.images += e.images ?? 0;
  t.requests += 1;
  if (e.cost === undefined) t.unpriced += 1;
  else {
    t.cost = roundAmount((t.cost ?? 0) + e.cost);
    if (e.costSource !== 'billed') t.estimate = true;
  }
}

/** The last `days` days (today included) of one key, per day and per model, with totals. */
export function summarize(entries: LedgerEntry[], key: string, now: number, days = 30): UsageSummary {
  const dayList: DayTotals[] = [];
  const index = new Map<string, DayTotals>();
  for (let i = days - 1; i >= 0; i--) {
    const d: DayTotals = { day: dayOf(now - i * DAY_MS), byModel: {} };
    if (!index.has(d.day)) {
      index.set(d.day, d);
      dayList.push(d);
    }
  }
  const byModel: Record<string, ModelTotals> = {};
  const total = emptyTotals();
  for (const e of entries) {
    if (e.key !== key) continue;
    const d = index.get(dayOf(Date.parse(e.t)));
    if (!d) continue;
    add((d.byModel[e.model] ??= emptyTotals()), e);
    add((byModel[e.model] ??= emptyTotals()), e);
    add(total, e);
  }
  return { days: dayList, byModel, total };
}

/** Today's totals of one key (the daily budget). */
export function todayOf(entries: LedgerEntry[], key: string, now: number): ModelTotals {
  const today = dayOf(now);
  const t = emptyTotals();
  for (const e of entries) if (e.key === key && dayOf(Date.parse(e.t)) === today) add(t, e);
  return t;
}

/** Requests, tokens and cost of one kind of request of one key (completions, sub-agents) in the entries given. */
export function kindTotals(entries: readonly LedgerEntry[], key: string, kind: LedgerKind): ModelTotals {
  const t = emptyTotals();
  for (const e of entries) if (e.key === key && e.kind === kind) add(t, e);
  return t;
}

/** The CSV's kind column: the stored kind, 'image' for image routes, blank when an old entry did not say. */
export function kindOf(e: LedgerEntry): LedgerKind | 'image' | '' {
  return e.kind ?? (e.dialect === 'images' || e.images !== undefined ? 'image' : '');
}

// Identifiers, not words: the header stays the same in every display language, so sheets and scripts can read it.
const CSV_COLUMNS: Array<keyof LedgerEntry> = [
  't',
  'key',
  'model',
  'route',
  'dialect',
  'kind',
  'input',
  'output',
  'cacheRead',
  'cacheWrite',
  'images',
  'imageSize',
  'cost',
  'costSource',
];

/** CSV of the entries (RFC 4180 quoting; a leading =, +, - or @ is quoted away so a spreadsheet never runs it). */
export function ledgerCsv(entries: LedgerEntry[]): string {
  const cell = (v: unknown): string => {
    if (v === undefined) return '';
    let s = String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return (
    [
      CSV_COLUMNS.join(','),
      ...entries.map((e) => CSV_COLUMNS.map((c) => cell(c === 'kind' ? kindOf(e) : e[c])).join(',')),
    ].join('\r\n') + '\r\n'
  );
}
