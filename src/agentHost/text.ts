// Pure text helpers of the agent's VS Code tools (no `vscode` import): binary sniffing, output caps,
// terminal escape stripping, search/replace edits, a short description of what a user changed and a proposal's title.

/** Bytes sniffed for NUL to call a file binary (git uses the first 8000 bytes the same way). */
export const BINARY_SNIFF_BYTES = 8000;

/** True when the first bytes contain a NUL: text files in any common encoding but UTF-16 never do. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * Caps `text` at `max` characters keeping the head and the tail (a command's first lines say what it did, its
 * last lines how it ended), with a marker saying how much was left out.
 */
export function capHeadTail(text: string, max: number): { text: string; omitted: number } {
  if (text.length <= max) return { text, omitted: 0 };
  const head = Math.floor(max / 2);
  const tail = max - head;
  const omitted = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n[… ${omitted} characters omitted …]\n${text.slice(text.length - tail)}`,
    omitted,
  };
}

/**
 * Keeps the first and the last `max / 2` characters of a growing stream without holding all of it: command
 * output can be gigabytes, the model gets 16 KB.
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(private readonly max: number) {}

  push(chunk: string): void {
    const half = Math.floor(this.max / 2);
    if (this.head.length < half) {
      const take = chunk.slice(0, half - this.head.length);
      this.head += take;
      chunk = chunk.slice(take.length);
    }
    if (chunk === '') return;
    const tailMax = this.max - half;
    const joined = this.tail + chunk;
    if (joined.length > tailMax) {
      this.dropped += joined.length - tailMax;
      this.tail = joined.slice(joined.length - tailMax);
    } else {
      this.tail = joined;
    }
  }

  get omitted(): number {
    return this.dropped;
  }

  toString(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n[… ${this.dropped} characters omitted …]\n${this.tail}`;
  }
}

/**
 * Terminal output as plain text: CSI sequences (colours, cursor moves), OSC sequences (titles, VS Code's shell
 * integration marks 633/133), other escapes and carriage-return overwrites removed.
 */
export function stripTerminalEscapes(text: string): string {
  return (
    text
      .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
      .replace(/\u001b[@-Z\\-_]/g, '')
      .replace(/\r+\n/g, '\n')
      // A lone \r moves the cursor to the line start: what follows overwrote the line (progress bars).
      .replace(/[^\n]*\r(?=[^\n])/g, '')
      .replace(/\r/g, '')
  );
}

export interface SearchReplaceBlock {
  search: string;
  replace: string;
}

export type SearchReplaceOutcome =
  { ok: true; text: string } | { ok: false; block: number; matches: number; message: string };

/** Occurrences of `needle` in `hay` (non-overlapping), stopping at `limit`. */
function countOccurrences(hay: string, needle: string, limit: number): { count: number; first: number } {
  let count = 0;
  let first = -1;
  let from = 0;
  for (;;) {
    const at = hay.indexOf(needle, from);
    if (at < 0 || count >= limit) break;
    if (count === 0) first = at;
    count++;
    from = at + Math.max(needle.length, 1);
  }
  return { count, first };
}

/**
 * Applies the blocks in order, each to the result of the previous ones. Every `search` must occur exactly once:
 * zero or several matches fail the whole edit and name the block (1-based), so the model can fix that block.
 * When the text uses CRLF and a block uses bare LF, the block is matched and written with CRLF.
 */
export function applySearchReplace(original: string, blocks: readonly SearchReplaceBlock[]): SearchReplaceOutcome {
  const crlf = original.includes('\r\n');
  let text = original;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i];
    if (typeof b?.search !== 'string' || typeof b.replace !== 'string') {
      return {
        ok: false,
        block: i + 1,
        matches: 0,
        message: `edit block ${i + 1} needs string "search" and "replace" fields.`,
      };
    }
    if (b.search === '') {
      return {
        ok: false,
        block: i + 1,
        matches: 0,
        message: `edit block ${i + 1} has an empty "search": quote the exact text to replace (use content for a whole-file write).`,
      };
    }
    const search = crlf && !b.search.includes('\r') ? b.search.replace(/\n/g, '\r\n') : b.search;
    const replace = crlf && !b.replace.includes('\r') ? b.replace.replace(/\n/g, '\r\n') : b.replace;
    const { count, first } = countOccurrences(text, search, 2);
    if (count !== 1) {
      const why =
        count === 0
          ? 'its "search" text was not found (it must match the current file exactly, whitespace included)'
          : 'its "search" text occurs more than once (add surrounding lines so that it is unique)';
      return {
        ok: false,
        block: i + 1,
        matches: count,
        message: `edit block ${i + 1} of ${blocks.length} failed: ${why}. No block was applied.`,
      };
    }
    text = text.slice(0, first) + replace + text.slice(first + search.length);
  }
  return { ok: true, text };
}

/** The smallest range that differs between two texts: common prefix and suffix removed (offsets into both). */
export function changedRange(a: string, b: string): { start: number; endA: number; endB: number } {
  const max = Math.min(a.length, b.length);
  let start = 0;
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { start, endA, endB };
}

/**
 * What the user changed between the proposal and what was accepted, for the model: the line range and the
 * accepted text of that range (capped), so it does not have to read the file again.
 */
export function describeUserChange(proposed: string, accepted: string, maxChars = 4000): string {
  const lines = (s: string) => s.split(/\r?\n/);
  const p = lines(proposed);
  const a = lines(accepted);
  let start = 0;
  while (start < p.length && start < a.length && p[start] === a[start]) start++;
  let endP = p.length;
  let endA = a.length;
  while (endP > start && endA > start && p[endP - 1] === a[endA - 1]) {
    endP--;
    endA--;
  }
  const replaced = endP - start;
  const body = a.slice(start, endA).join('\n');
  const shown = capHeadTail(body, maxChars).text;
  const where = replaced === 0 ? `inserted after line ${start}` : `lines ${start + 1}–${endP} of your proposal became`;
  return endA === start ? `the user removed lines ${start + 1}–${endP} of your proposal` : `${where}:\n${shown}`;
}

/** 1-based inclusive line slice with the total, for read_file. Lines keep their text without terminators. */
export function sliceLines(
  text: string,
  startLine?: number,
  endLine?: number,
): { text: string; from: number; to: number; total: number } {
  const all = text.split(/\r?\n/);
  if (all.length > 1 && all[all.length - 1] === '') all.pop();
  const total = all.length;
  const from = Math.max(1, Math.floor(startLine ?? 1));
  const to = Math.min(total, Math.floor(endLine ?? total));
  if (from > to) return { text: '', from, to: from - 1, total };
  return { text: all.slice(from - 1, to).join('\n'), from, to, total };
}

/**
 * A proposal's editor title: the file's name and what is proposed ("README.md (proposed change)"). Another pending
 * change to a file of the same name elsewhere makes it the workspace-relative path, so the two tabs differ.
 */
export function proposalTitle(
  kind: 'edit' | 'create' | 'delete',
  path: string,
  pendingPaths: readonly string[],
  l10n: { t(message: string, ...args: string[]): string },
): string {
  const clean = path.replace(/\\/g, '/');
  const base = (p: string) => p.replace(/\\/g, '/').split('/').pop() || p;
  const name = pendingPaths.some((o) => o.replace(/\\/g, '/') !== clean && base(o) === base(clean))
    ? clean
    : base(clean);
  if (kind === 'create') return l10n.t('{0} (proposed new file)', name);
  if (kind === 'delete') return l10n.t('{0} (proposed deletion)', name);
  return l10n.t('{0} (proposed change)', name);
}
