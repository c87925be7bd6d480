// The approval prompts of agent turns waiting for the user (pure). Nothing here decides an approval: the policy does
// (src/agent/policy.ts); this only carries the user's answer back to the turn that asked.
import type { ApprovalAnswer, ApprovalRequest } from '../../agent';

export class Approvals {
  private readonly waiting = new Map<string, (answer: ApprovalAnswer) => void>();

  /**
   * The policy asks the user (`show` puts the prompt in its card). Commands and other tools wait for Approve / Deny.
   * A write is reviewed as a diff instead (Accept / Reject in Pending changes is its approval), so it proceeds.
   */
  ask(
    request: ApprovalRequest,
    signal: AbortSignal,
    show: (request: ApprovalRequest) => void,
  ): Promise<ApprovalAnswer> {
    show(request);
    if (request.approvalClass === 'write') return Promise.resolve({ approved: true });
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = (): void => {
        this.waiting.delete(request.toolUseId);
        resolve({ approved: false, reason: 'the user stopped the turn' });
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.toolUseId, (answer) => {
        signal.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
  }

  /** The user's answer to a prompt; false when nothing waits for it (answered, stopped, stale page). */
  answer(toolUseId: string, approved: boolean): boolean {
    const resolve = this.waiting.get(toolUseId);
    if (!resolve) return false;
    this.waiting.delete(toolUseId);
    resolve(approved ? { approved: true } : { approved: false, reason: 'the user denied this call' });
    return true;
  }
}
