// Issue 23: a write the user rejected in review ended with the same ✓ "done" card as an applied one. The mapper now
// gives it its own state, from the write tool's review outcome; an applied one stays done.
import { strict as assert } from 'node:assert';
import { AgentEventMapper } from '../../../src/chat/agent/agentEvents';
import type { AgentTurnInfo, ChatMessage } from '../../../src/shared/protocol/chat';

describe('agent cards: the state says what happened', () => {
  it('a write rejected in review is "rejected", an accepted one "done"', () => {
    const message: ChatMessage & { agent: AgentTurnInfo } = {
      id: 'a1',
      role: 'assistant',
      text: '',
      status: 'streaming',
      createdAt: 0,
      agent: { turnId: 't1', tools: [], steps: [] },
    };
    const m = new AgentEventMapper('c1', message, { post: () => undefined, text: () => undefined, now: () => 0 });
    for (const [id, status] of [
      ['w1', 'rejected'],
      ['w2', 'accepted'],
    ] as const) {
      m.handle({ type: 'tool_proposed', step: 1, toolUseId: id, name: 'propose_edit', input: {} });
      m.handle({ type: 'tool_approved', step: 1, toolUseId: id, by: 'policy' });
      m.handle({
        type: 'tool_result',
        step: 1,
        toolUseId: id,
        isError: false,
        content: status === 'rejected' ? 'Rejected: the user rejected the edit' : 'Accepted: edited a.ts',
        details: { changeId: 'c', kind: 'edit', path: 'a.ts', outcome: { status } },
      });
    }
    assert.deepEqual(
      message.agent.tools.map((c) => [c.id, c.status]),
      [
        ['w1', 'rejected'],
        ['w2', 'done'],
      ],
    );
  });
});
