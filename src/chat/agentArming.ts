// "Files were written, so allow-listed commands ask" holds for the whole conversation, not one turn: a turn that
// rewrites package.json's test script must not let the next turn's `npm test` run it unasked. The conversation's
// own record (its answers' tool cards and Restore marks, stored with it) is the source, so a reload keeps it.
import type { ApprovalClass } from '../agent';
import type { ChatMessage } from '../shared/protocol/chat';
import type { AgentRunContext } from './session';

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

/**
 * True when this turn cannot have changed the workspace: every call it made was a read, or was refused or rejected.
 * Such a turn offers no "Restore to before this turn" (there is nothing to restore). A command that ran may have
 * written files, and a tool whose class is unknown is taken as a write.
 */
export function turnChangedNothing(
  message: ChatMessage,
  classOf: (toolName: string) => ApprovalClass | undefined,
): boolean {
  if (!message.agent || message.agent.restored) return false;
  return message.agent.tools.every((t) => {
    const c = classOf(t.name);
    return c === 'read' || t.status === 'refused' || t.status === 'rejected';
  });
}

/** At the end of a turn that changed nothing: its end says so (stored, and posted again so the view drops Restore). */
export function markUnchanged(
  ctx: Pick<AgentRunContext, 'conversationId' | 'message' | 'sink'>,
  classOf: (toolName: string) => ApprovalClass | undefined,
): void {
  const end = ctx.message.agent.end;
  if (!end || !turnChangedNothing(ctx.message, classOf)) return;
  end.unchanged = true;
  ctx.sink.post({ type: 'agentEnd', conversationId: ctx.conversationId, messageId: ctx.message.id, end });
}
