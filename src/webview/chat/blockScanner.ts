// Finds where a growing markdown text can be split into finished blocks and an unfinished tail,
// scanning each line once (the streaming answer is re-parsed only from its last finished block on).
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^`]*)$/;

export interface ScanState {
  /** Offset of the first line not scanned yet (always a line start). */
  scanned: number;
  /** The open fence's marker and the offset of its opening line, while inside a fenced code block. */
  fence: { marker: string; start: number; infoEnd: number } | undefined;
  /** Offset just after the last blank line outside code that may end a block. */
  candidate: number;
  /** Offset up to which text is made of finished blocks. */
  stable: number;
}

export function newScanState(): ScanState {
  return { scanned: 0, fence: undefined, candidate: -1, stable: 0 };
}

/** Scans the complete lines of `text` added since the last call and moves `stable` forward. */
export function scan(state: ScanState, text: string): void {
  let at = state.scanned;
  for (;;) {
    const end = text.indexOf('\n', at);
    if (end < 0) break;
    scanLine(state, text.slice(at, end), at, end + 1);
    at = end + 1;
  }
  state.scanned = at;
}

function scanLine(state: ScanState, line: string, start: number, next: number): void {
  if (state.fence) {
    const close = line.trim();
    if (
      close.length >= state.fence.marker.length &&
      close === close[0].repeat(close.length) &&
      close[0] === state.fence.marker[0]
    )
      state.fence = undefined;
    return;
  }
  const open = FENCE_OPEN.exec(line);
  if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
    promote(state, line);
    state.fence = { marker: open[1], start, infoEnd: next };
    return;
  }
  if (line.trim() === '') {
    state.candidate = next;
    return;
  }
  // A block ends at a blank line only when the next line starts a new block at column 0
  // (an indented line could continue a list item or be indented code).
  promote(state, line);
}

function promote(state: ScanState, line: string): void {
  if (state.candidate >= 0 && !/^[ \t]/.test(line)) state.stable = state.candidate;
  state.candidate = -1;
}
