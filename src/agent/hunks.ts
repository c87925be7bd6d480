// The parts ("hunks") of a proposed file change, so the user can accept or reject each one (agentHost/proposals.ts).
// Texts are cut into lines that keep their own terminators ("\n", "\r\n" or none on a last line), so applying
// every hunk gives the proposed text byte for byte, applying none gives the original, and any subset gives the
// original with exactly those parts changed: CRLF files stay CRLF and a missing final newline stays missing.

/** One changed region: original lines [origStart, origStart + removed.length) become `added`. */
export interface Hunk {
  /** 0-based first line of the region in the original (where an insertion goes when nothing is removed). */
  origStart: number;
  /** 0-based first line of the region in the proposed text. */
  propStart: number;
  /** The original's lines the hunk replaces, terminators included. */
  removed: string[];
  /** The proposed lines that replace them, terminators included. */
  added: string[];
}

/** Past this many differing lines (after the common head and tail) the middle is one hunk: the diff stays cheap. */
export const MAX_DIFF_DISTANCE = 2000;

/** Lines with their terminators; '' has none. Joining them gives the text back exactly. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

type Op = 'equal' | 'remove' | 'add';

/**
 * The shortest edit script between two line arrays (Myers' O((N+M)·D) algorithm, with the trace kept per step
 * only over the diagonals reached), or undefined when it needs more than `max` differing lines.
 */
function editScript(a: readonly string[], b: readonly string[], max: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const trace: Int32Array[] = [];
  // The furthest x per diagonal k of the previous step d - 1 sits at index k + d; before step 0, diagonal 1 holds 0.
  let v = new Int32Array(3);
  let found = -1;
  for (let d = 0; d <= Math.min(n + m, max); d++) {
    const next = new Int32Array(2 * d + 3);
    const prev = v;
    const get = (k: number) => prev[k + d];
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && get(k - 1) < get(k + 1))) x = get(k + 1);
      else x = get(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[k + d + 1] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    trace.push(next);
    v = next;
    if (found >= 0) break;
  }
  if (found < 0) return undefined;
  // Walk back from (n, m) through the trace.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d - 1];
    const get = (k: number) => prev[k + d];
    const k = x - y;
    const down = k === -d || (k !== d && get(k - 1) < get(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = get(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push('equal');
      x--;
      y--;
    }
    ops.push(down ? 'add' : 'remove');
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push('equal');
    x--;
    y--;
  }
  return ops.reverse();
}

/** The hunks that turn `original` into `proposed`, in order; neighbouring changed lines form one hunk. */
export function diffHunks(original: string, proposed: string): Hunk[] {
  const a = splitLines(original);
  const b = splitLines(proposed);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length === 0 && midB.length === 0) return [];
  const ops = editScript(midA, midB, MAX_DIFF_DISTANCE);
  if (!ops) return [{ origStart: head, propStart: head, removed: midA, added: midB }];
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: Hunk | undefined;
  for (const op of ops) {
    if (op === 'equal') {
      open = undefined;
      i++;
      j++;
      continue;
    }
    if (!open) {
      open = { origStart: head + i, propStart: head + j, removed: [], added: [] };
      hunks.push(open);
    }
    if (op === 'remove') open.removed.push(midA[i++]);
    else open.added.push(midB[j++]);
  }
  return hunks;
}

/**
 * `original` with the chosen hunks applied (hunks as diffHunks(original, …) gave them, in order). Choosing all
 * gives the proposed text, choosing none the original.
 */
export function applyHunks(
  original: string,
  hunks: readonly Hunk[],
  chosen: (h: Hunk, index: number) => boolean,
): string {
  const lines = splitLines(original);
  const out: string[] = [];
  let at = 0;
  hunks.forEach((h, index) => {
    if (h.origStart < at || h.origStart + h.removed.length > lines.length)
      throw new Error('the hunks do not belong to this text');
    out.push(...lines.slice(at, h.origStart));
    out.push(...(chosen(h, index) ? h.added : lines.slice(h.origStart, h.origStart + h.removed.length)));
    at = h.origStart + h.removed.length;
  });
  out.push(...lines.slice(at));
  return out.join('');
}

/**
 * A short identity of a hunk in its diff: where it is and what it changes. A command names a hunk by it, so a
 * hunk that moved or changed since the list was shown is not mistaken for another.
 */
export function hunkKey(h: Hunk): string {
  let hash = 5381;
  for (const s of [...h.removed, '\u0000', ...h.added])
    for (let i = 0; i < s.length; i++) hash = ((hash * 33) ^ s.charCodeAt(i)) >>> 0;
  return `${h.origStart}.${h.removed.length}.${h.propStart}.${h.added.length}.${hash.toString(36)}`;
}

/**
 * The hunk at a 0-based line of one side of the diff: the one whose lines hold it, else one that only adds or
 * only removes there (shown between two lines: the line before or after the gap counts).
 */
export function hunkAtLine(hunks: readonly Hunk[], line: number, side: 'original' | 'proposed'): number {
  const span = (h: Hunk) =>
    side === 'original'
      ? { start: h.origStart, count: h.removed.length }
      : { start: h.propStart, count: h.added.length };
  const inside = hunks.findIndex((h) => {
    const s = span(h);
    return line >= s.start && line < s.start + s.count;
  });
  if (inside >= 0) return inside;
  return hunks.findIndex((h) => {
    const s = span(h);
    return s.count === 0 && (line === s.start || line === s.start - 1);
  });
}
