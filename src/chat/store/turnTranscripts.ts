// What earlier agent turns did (their tool calls and results, compacted), by turn id, across windows (pure): later
// turns send the most recent ones again, condensing reads them, and deleting or replacing an answer drops its own.
import type { Logger, MessageParam } from '../../gateway/types';
import type { ChatMessage } from '../../shared/protocol/chat';
import { turnIdsOf } from '../agent/agentPort';
import type { TurnStore } from './turnStore';

/** Where the transcripts are stored (globalState). */
export const TRANSCRIPTS_KEY = 'modelGateway.agent.transcripts';
/** Turns whose transcripts are kept (the oldest go first); each is at most ~25 steps of 2 KB results. */
const MAX_TRANSCRIPTS = 60;
/** Turn ids forgotten in this window that a turn still running could store again on its way out (see forget). */
const MAX_FORGOTTEN = 200;

/**
 * Earlier turns whose tool calls and results go with later requests: the last one (a follow-up usually builds on it).
 * Older turns are sent as their answers with a note of their calls: their tool results are stale and were paid for.
 */
export const EARLIER_TRANSCRIPTS = 1;

interface Transcript {
  turnId: string;
  messages: MessageParam[];
}

export class TurnTranscripts {
  private readonly forgotten = new Set<string>();

  constructor(
    private readonly store: TurnStore,
    private readonly log?: Logger,
    /** How many of the latest turns send their transcripts again (default EARLIER_TRANSCRIPTS). */
    private readonly earlier = EARLIER_TRANSCRIPTS,
  ) {}

  /** One turn's transcript. */
  of(turnId: string): MessageParam[] | undefined {
    return this.all().find((t) => t.turnId === turnId)?.messages;
  }

  /** The transcripts of the last `earlier` agent answers in `history` (the others: undefined). */
  recentIn(history: readonly ChatMessage[]): (turnId: string) => MessageParam[] | undefined {
    const turns = turnIdsOf(history);
    const recent = new Set(this.earlier <= 0 ? [] : turns.slice(-this.earlier));
    return (turnId) => (recent.has(turnId) ? this.of(turnId) : undefined);
  }

  /** Stores a finished turn's transcript (not when its answer was deleted while it ran). */
  keep(turnId: string, messages: MessageParam[]): void {
    if (messages.length === 0 || this.forgotten.has(turnId)) return;
    this.write([...this.all().filter((t) => t.turnId !== turnId), { turnId, messages }].slice(-MAX_TRANSCRIPTS));
  }

  /**
   * Drops the transcripts of these turns (their conversation was deleted, or their answers replaced). One read and
   * at most one write of the store; a turn still running is remembered so that it does not store its transcript.
   */
  forget(turnIds: readonly string[]): void {
    const ids = new Set(turnIds);
    if (ids.size === 0) return;
    for (const id of ids) this.forgotten.add(id);
    for (const id of this.forgotten) {
      if (this.forgotten.size <= MAX_FORGOTTEN) break;
      this.forgotten.delete(id); // the oldest first (a Set keeps insertion order)
    }
    this.writeIf((t) => !ids.has(t.turnId));
  }

  /** Drops the transcripts of turns no conversation holds (see SessionController.load). */
  keepOnly(turnIds: readonly string[]): void {
    const ids = new Set(turnIds);
    this.writeIf((t) => ids.has(t.turnId));
  }

  /** Writes the transcripts that pass `keep`, only when that drops one. */
  private writeIf(keep: (t: Transcript) => boolean): void {
    const stored = this.all();
    const kept = stored.filter(keep);
    if (kept.length !== stored.length) this.write(kept);
  }

  private all(): Transcript[] {
    const stored = this.store.get(TRANSCRIPTS_KEY);
    return Array.isArray(stored)
      ? stored.filter((t): t is Transcript => typeof t?.turnId === 'string' && Array.isArray(t.messages))
      : [];
  }

  private write(transcripts: Transcript[]): void {
    void Promise.resolve(this.store.update(TRANSCRIPTS_KEY, transcripts)).catch((e) =>
      this.log?.error('agent: storing the turn transcripts failed', e),
    );
  }
}
