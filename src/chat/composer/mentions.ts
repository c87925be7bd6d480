// @-mentions (pure): the fuzzy ranking of workspace paths, which of the other kinds a query names, and the text each
// kind attaches (problems, a folder's listing, the terminal's last output), capped. The VS Code glue is mentionHost.ts.
import { stripTerminalEscapes } from '../../agentHost/text';
import type { MentionKind } from '../../shared/protocol/chat';

/** Entries the list shows at most (files and folders together). */
export const MENTION_RESULTS = 40;
/** Problems listed at most; the rest are counted. */
export const PROBLEMS_CAP = 200;
/** Entries of a folder listed at most. */
export const FOLDER_LISTING_CAP = 500;
/** Characters of a command's output kept while it runs (its start and its end: the end of a build says what failed). */
export const TERMINAL_KEEP_CHARS = 100_000;

/** The kinds that are not a path, in the order the list shows them. */
export const NAMED_KINDS = ['problems', 'terminal', 'changes', 'selection'] as const satisfies readonly MentionKind[];
export type NamedKind = (typeof NAMED_KINDS)[number];

const WORD_START = /[/\\._\-\s]/;

/**
 * How well `query` matches `path` (higher is better), or undefined when its characters do not all appear in order.
 * Matches in the file name count most, then runs of consecutive characters and starts of words; shorter paths win ties.
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return -path.length / 1000;
  const p = path.toLowerCase();
  const nameStart = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1;
  // The name alone first: "chat" should rank src/chat.ts above src/c/h/a/t.ts.
  const inName = subsequence(q, p, nameStart, path);
  const anywhere = inName ?? subsequence(q, p, 0, path);
  if (anywhere === undefined) return undefined;
  let score = anywhere + (inName !== undefined ? 20 : 0);
  const name = p.slice(nameStart);
  if (name === q) score += 40;
  else if (name.startsWith(q)) score += 25;
  else if (p === q) score += 40;
  return score - path.length / 1000;
}

/** Score of the leftmost in-order match of `q` in `p` from `from` (undefined: no match). */
function subsequence(q: string, p: string, from: number, original: string): number | undefined {
  let score = 0;
  let last = -2;
  let at = from;
  for (const ch of q) {
    const found = p.indexOf(ch, at);
    if (found < 0) return undefined;
    score += 1;
    if (found === last + 1) score += 5;
    const prev = original[found - 1];
    const isUpper = original[found] !== original[found].toLowerCase();
    if (found === from || found === 0 || (prev !== undefined && WORD_START.test(prev))) score += 3;
    else if (isUpper && prev !== undefined && prev === prev.toLowerCase()) score += 3;
    last = found;
    at = found + 1;
  }
  return score;
}

/** The `limit` best matches of `query` among `paths`, best first (ties: shorter, then alphabetical). */
export function rankPaths(query: string, paths: readonly string[], limit = MENTION_RESULTS): string[] {
  const scored: Array<{ path: string; score: number }> = [];
  for (const path of paths) {
    const score = fuzzyScore(query, path);
    if (score !== undefined) scored.push({ path, score });
  }
  scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return scored.slice(0, limit).map((s) => s.path);
}

/** The folders that hold `files` (workspace-relative, `/` separators), each once, without the root. */
export function foldersOf(files: readonly string[]): string[] {
  const out = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) out.add(parts.slice(0, i).join('/'));
  }
  return [...out];
}

/** The named kinds a query asks for: all of them for an empty query, else those whose name it fuzzily matches. */
export function namedKindsFor(query: string): NamedKind[] {
  const q = query.trim();
  return NAMED_KINDS.filter((kind) => !q || fuzzyScore(q, kind) !== undefined);
}

export interface ProblemEntry {
  /** Workspace-relative path. */
  path: string;
  /** 0-based, as VS Code gives them. */
  line: number;
  character: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2, hint: 3 } as const;

/** `path:line:col severity message` per problem (errors first, then by path and line), at most `cap` lines. */
export function formatProblems(entries: readonly ProblemEntry[], cap = PROBLEMS_CAP): string {
  if (entries.length === 0) return 'No problems reported.';
  const sorted = [...entries].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line ||
      a.character - b.character,
  );
  const lines = sorted
    .slice(0, cap)
    .map(
      (p) =>
        `${p.path}:${p.line + 1}:${p.character + 1} ${p.severity}${p.source ? ` [${p.source}]` : ''} ${p.message.split(/\r?\n/)[0].slice(0, 500)}`,
    );
  if (entries.length > cap) lines.push(`… and ${entries.length - cap} more problems`);
  return lines.join('\n');
}

/** Counts per severity, for the list's second line. */
export function problemCounts(entries: readonly ProblemEntry[]): { errors: number; warnings: number; other: number } {
  let errors = 0;
  let warnings = 0;
  for (const e of entries) {
    if (e.severity === 'error') errors++;
    else if (e.severity === 'warning') warnings++;
  }
  return { errors, warnings, other: entries.length - errors - warnings };
}

export interface FolderEntry {
  name: string;
  directory: boolean;
  /** The secrets ignore list pattern it matches (listed, marked, never read). */
  secret?: string;
}

/** A folder's listing as list_directory shows it: directories end with `/`, secret entries are marked. */
export function formatListing(entries: readonly FolderEntry[], cap = FOLDER_LISTING_CAP): string {
  if (entries.length === 0) return '(empty folder)';
  const sorted = [...entries].sort((a, b) =>
    a.directory !== b.directory ? (a.directory ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const lines = sorted
    .slice(0, cap)
    .map((e) => `${e.name}${e.directory ? '/' : ''}${e.secret ? ' (secret: not shared)' : ''}`);
  if (entries.length > cap) lines.push(`… and ${entries.length - cap} more entries`);
  return lines.join('\n');
}

export interface TerminalRun {
  commandLine: string;
  /** The output as the terminal received it (head and tail kept, the middle counted: HeadTailBuffer). */
  output: string;
  exitCode?: number;
  cwd?: string;
}

/** What the `terminal` mention attaches: the command, its output as plain text, and its exit code. */
export function formatTerminalRun(run: TerminalRun): string {
  const exit = run.exitCode === undefined ? 'exit code unknown' : `exit code ${run.exitCode}`;
  const output = stripTerminalEscapes(run.output)
    .replace(/[^\S\n]+$/gm, '')
    .replace(/^\n+|\n+$/g, '');
  return [
    `$ ${run.commandLine}${run.cwd ? `   (in ${run.cwd})` : ''}`,
    output || '(no output captured)',
    `[${exit}]`,
  ].join('\n');
}
