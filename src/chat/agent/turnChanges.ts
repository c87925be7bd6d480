// Whether an agent turn can have changed the workspace (pure, and the one place that says so at the end of a turn):
// a turn that only read, or whose calls were all refused or rejected, offers no "Restore to before this turn".
import type { ApprovalClass } from '../../agent';
import type { ChatMessage } from '../../shared/protocol/chat';
import type { AgentRunContext } from './agentPort';

/**
 * True when this turn cannot have changed the workspace: every call it made was a read, or was refused or rejected.
 * A command that ran may have written files, and a tool whose class is unknown is taken as a write.
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
