// "Files were written, so allow-listed commands ask" holds for the whole conversation, not one turn: a turn that
// rewrites package.json's test script must not let the next turn's `npm test` run it unasked. The conversation's
// own record (its answers' tool cards and Restore marks, stored with it) is one source, so a reload keeps it; the
// memory of conversations in which files were written is the other, so that regenerating or editing away the
// answer that wrote does not forget it (pure).
import type { ApprovalClass } from '../../agent';
import type { Logger } from '../../gateway/types';
import type { ChatMessage } from '../../shared/protocol/chat';
import { storedStrings, type TurnStore } from '../store/turnStore';

/** The conversations in which files were written (the key keeps its first name: it holds what users stored). */
const FILES_WRITTEN_KEY = 'modelGateway.agent.armedConversations';
/** Conversation ids remembered (the oldest go first). */
const MAX_REMEMBERED = 500;

/**
 * True when an agent turn of `history` may have written files: a call of a write tool (or of another extension's
 * tool, or one whose class is no longer known) that was not refused or rejected in review, or a checkpoint restore.
 */
export function filesWrittenIn(
  history: readonly ChatMessage[],
  classOf: (toolName: string) => ApprovalClass | undefined,
): boolean {
  return history.some(
    (m) =>
      m.agent !== undefined &&
      (m.agent.restored === true ||
        m.agent.tools.some((t) => {
          const c = classOf(t.name);
          return (
            (c === undefined || c === 'write' || c === 'external') && t.status !== 'refused' && t.status !== 'rejected'
          );
        })),
  );
}

/** The memory of conversations in which files were written, across windows. */
export class FilesWritten {
  constructor(
    private readonly store: TurnStore,
    private readonly log?: Logger,
  ) {}

  /** Files were written in this conversation (a write, or a checkpoint restore). */
  remember(conversationId: string): void {
    const known = storedStrings(this.store, FILES_WRITTEN_KEY);
    if (known.includes(conversationId)) return;
    const next = [...known, conversationId].slice(-MAX_REMEMBERED);
    void Promise.resolve(this.store.update(FILES_WRITTEN_KEY, next)).catch((e) =>
      this.log?.error('agent: remembering a write failed', e),
    );
  }

  /** Whether files were written in this conversation: remembered, or seen in its `history`. */
  in(
    conversationId: string,
    history: readonly ChatMessage[],
    classOf: (toolName: string) => ApprovalClass | undefined,
  ): boolean {
    return storedStrings(this.store, FILES_WRITTEN_KEY).includes(conversationId) || filesWrittenIn(history, classOf);
  }
}
