// What a completion request carries (pure): the prefix and suffix within a budget, single line or block from the
// cursor's context, and short snippets of other files of the same language with their paths as headers.
// Budget after Continue's defaults (core/util/parameters.ts: maxPromptTokens, prefix share 0.85, suffix ≤ 0.25),
// in characters (≈ 4 per token) so no tokenizer runs per keystroke.

export const PROMPT_BUDGET_CHARS = 4_000;
export const PREFIX_SHARE = 0.75;
export const SUFFIX_SHARE = 0.15;
export const SNIPPET_BUDGET_CHARS = 600;
export const SNIPPET_LINES = 12;
export const MAX_TOKENS_LINE = 48;
export const MAX_TOKENS_BLOCK = 128;

export interface CursorShape {
  /** No request: the cursor sits before real code on its line (a fill there would have to be re-typed around). */
  skip: boolean;
  singleLine: boolean;
  maxTokens: number;
}

// What may follow the cursor on its line and still get a fill: closing brackets, quotes and separators.
const CLOSERS_ONLY = /^[\s)\]}>'"`;,.:]*$/;
// A line that opens a block: the fill is the block's body.
const OPENS_BLOCK = /(\{|\(|\[|:|=>|\bthen|\bdo)\s*$/;

/** Single line or block, and whether to ask at all, from the text around the cursor. */
export function cursorShape(prefix: string, suffix: string): CursorShape {
  const lineBefore = prefix.slice(prefix.lastIndexOf('\n') + 1);
  const lineAfter = suffix.split('\n', 1)[0];
  if (!CLOSERS_ONLY.test(lineAfter)) return { skip: true, singleLine: true, maxTokens: 0 };
  const previousLine = prefix.slice(0, prefix.length - lineBefore.length).replace(/\n$/, '');
  const lastLine = previousLine.slice(previousLine.lastIndexOf('\n') + 1);
  const block =
    lineAfter.trim() === '' &&
    ((lineBefore.trim() === '' && OPENS_BLOCK.test(lastLine)) || (lineBefore.trim() === '' && prefix.trim() === ''));
  return block
    ? { skip: false, singleLine: false, maxTokens: MAX_TOKENS_BLOCK }
    : { skip: false, singleLine: true, maxTokens: MAX_TOKENS_LINE };
}

/** The prefix's end and the suffix's start within their shares of the budget, cut at line starts / ends. */
export function clipAround(
  prefix: string,
  suffix: string,
  budget = PROMPT_BUDGET_CHARS,
): { prefix: string; suffix: string } {
  const prefixMax = Math.floor(budget * PREFIX_SHARE);
  const suffixMax = Math.floor(budget * SUFFIX_SHARE);
  let p = prefix;
  if (p.length > prefixMax) {
    p = p.slice(p.length - prefixMax);
    const nl = p.indexOf('\n');
    if (nl >= 0 && nl < p.length - 1) p = p.slice(nl + 1);
  }
  let s = suffix;
  if (s.length > suffixMax) {
    s = s.slice(0, suffixMax);
    const nl = s.lastIndexOf('\n');
    if (nl > 0) s = s.slice(0, nl + 1);
  }
  return { prefix: p, suffix: s };
}

/** The line-comment opener of a language (headers of snippets and the file path are comments in it). */
export function lineComment(languageId: string): string {
  if (
    /^(python|shellscript|ruby|perl|r|yaml|toml|dockerfile|makefile|powershell|elixir|julia|coffeescript)$/.test(
      languageId,
    )
  )
    return '#';
  if (/^(sql|lua|haskell|elm)$/.test(languageId)) return '--';
  if (/^(latex|tex|erlang|matlab)$/.test(languageId)) return '%';
  if (/^(vb|bat)$/.test(languageId)) return 'REM';
  return '//';
}

export interface Snippet {
  /** Workspace-relative path (the header). */
  path: string;
  /** The lines to show (already cut around the last edit). */
  text: string;
}

/** The lines around `line` of a text, at most SNIPPET_LINES. */
export function snippetAround(text: string, line: number): string {
  const lines = text.split('\n');
  const start = Math.max(0, Math.min(line - Math.floor(SNIPPET_LINES / 2), lines.length - SNIPPET_LINES));
  return lines.slice(start, start + SNIPPET_LINES).join('\n');
}

/** Snippets as commented blocks with their path headers, within SNIPPET_BUDGET_CHARS (whole snippets only). */
export function snippetBlock(snippets: readonly Snippet[], languageId: string, budget = SNIPPET_BUDGET_CHARS): string {
  const c = lineComment(languageId);
  const out: string[] = [];
  let used = 0;
  for (const s of snippets) {
    const body = s.text
      .split('\n')
      .map((l) => `${c} ${l}`)
      .join('\n');
    const block = `${c} Path: ${s.path}\n${body}\n`;
    if (used + block.length > budget) {
      const room = budget - used - s.path.length - 16;
      if (room < 80) break;
      out.push(`${c} Path: ${s.path}\n${body.slice(0, room).replace(/\n[^\n]*$/, '')}\n`);
      break;
    }
    out.push(block);
    used += block.length;
  }
  return out.join('');
}

/** The header naming the current file (fill-in-the-middle models read it as part of the file). */
export function pathHeader(path: string, languageId: string): string {
  return `${lineComment(languageId)} Path: ${path}\n`;
}
