// "Files were written, so allow-listed commands ask" holds for the whole conversation, not one turn: a turn that
// rewrites package.json's test script must not let the next turn's `npm test` run it unasked. The conversation's
// own record (its answers' tool cards and Restore marks, stored with it) is the source, so a reload keeps it.
import type { ApprovalClass } from '../agent';
import type { ChatMessage } from '../shared/protocol/chat';

/**
 * True when an earlier agent turn of `history` may have written files: a call of a write tool (or of another
 * extension's tool, or one whose class is no longer known) that was not refused or rejected in review, or a checkpoint restore.
 */
export function conversationWroteFiles(
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
