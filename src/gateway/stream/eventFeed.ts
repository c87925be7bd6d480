// Hands the stream's byte string (byteText.ts) to eventsource-parser, reading runs of plain text deltas itself on
// the way: most events of a long answer are one exact shape, and one native match of the dialect's whole-event
// pattern (ChunkReader.run) reads one without splitting its lines, without a string per line and without a
// parsed-event object (bench/stream.ts, chatStream.ts, responsesStream.ts). Everything else — any other event,
// comments, ids, a delta the pattern or the reader refuses — goes to the parser as whole events, so its state is
// clean (between events) whenever a run is tried. Once a `\r` arrives (lines may then end in `\r`, `\r\n` or `\n`,
// which only the parser splits), the parser reads everything from there on.
import type { EventSourceParser } from 'eventsource-parser';

/** What reads the runs: the dialect's pattern and what a match means (see ChunkReader.run / runText). */
export interface RunReader {
  /** Sticky pattern of one whole plain text-delta event, from its first line through its blank line. */
  readonly run?: RegExp;
  /** The text (a byte string) of a match to an open text block, its block in `fastBlock`; else undefined. */
  runText?(match: RegExpExecArray): string | undefined;
  readonly fastBlock: number;
}

const BOM = '\xef\xbb\xbf'; // U+FEFF as UTF-8 bytes: skipped at the start of a stream, as the parser does

export class EventFeed {
  /** The start of an event whose blank line has not arrived yet (it has no "\n\n"), in pieces. */
  private pending: string[] = [];
  private pendingLength = 0;
  /** A `\r` arrived: the parser reads the rest of the stream. */
  private plain: boolean;
  private first = true;

  constructor(
    private readonly parser: EventSourceParser,
    private readonly reader: RunReader,
    /** Applies a run's text delta; false when the stream is settled or the general path must read the event. */
    private readonly take: (block: number, bytes: string) => boolean,
    /** An event grew past `maxBytes` before its end (the parser's own limit while it buffers). */
    private readonly tooLarge: () => void,
    private readonly maxBytes: number,
  ) {
    this.plain = reader.run === undefined;
    // The BOM is ours to skip (below): the parser must not take the start of a later piece for the stream's.
    parser.feed('');
  }

  feed(chunk: string): void {
    if (this.first) {
      this.first = false;
      if (chunk.startsWith(BOM)) chunk = chunk.slice(BOM.length);
    }
    if (this.plain) {
      this.parser.feed(chunk);
      return;
    }
    if (chunk.indexOf('\r') !== -1) {
      this.plain = true;
      this.parser.feed(this.takePending() + chunk);
      return;
    }
    // An event still without its end (a long one spans many chunks): kept in pieces, joined once it ends.
    const last = this.pending.length > 0 ? this.pending[this.pending.length - 1] : undefined;
    if (
      last !== undefined &&
      chunk.indexOf('\n\n') === -1 &&
      !(chunk.charCodeAt(0) === 0x0a && last.charCodeAt(last.length - 1) === 0x0a)
    ) {
      this.keep(chunk);
      return;
    }
    const text = last === undefined ? chunk : this.takePending() + chunk;
    const at = this.events(text);
    if (at < text.length) this.keep(at === 0 ? text : text.slice(at));
  }

  /** The stream ended: a last event sent without its blank line is complete now. */
  end(): void {
    // Ending lines complete a last event sent without its blank line (or held back after a bare \r).
    this.parser.feed(this.takePending() + '\n\n');
  }

  /** Reads the whole events of `text`; returns where the unfinished rest starts. */
  private events(text: string): number {
    const run = this.reader.run as RegExp;
    let at = 0;
    while (at < text.length) {
      run.lastIndex = at;
      const match = run.exec(text);
      if (match !== null) {
        const bytes = this.reader.runText?.(match);
        if (bytes !== undefined && this.take(this.reader.fastBlock, bytes)) {
          at = run.lastIndex;
          continue;
        }
      }
      const end = text.indexOf('\n\n', at);
      if (end === -1) break;
      this.parser.feed(text.slice(at, end + 2));
      at = end + 2;
    }
    return at;
  }

  private keep(piece: string): void {
    this.pending.push(piece);
    this.pendingLength += piece.length;
    if (this.pendingLength > this.maxBytes) {
      this.pending = [];
      this.pendingLength = 0;
      this.plain = true; // nothing more is read
      this.tooLarge();
    }
  }

  private takePending(): string {
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    return text;
  }
}
