// The options of runAgentTurn most agent tests share; each test names only what it is about in `extra`.
import type { AgentTurnOptions } from '../../../src/agent';
import { WS } from './fakeTools';
import type { ScriptedGateway } from './scriptedGateway';

/** The user says "go" in the workspace /ws; the scripted gateway answers; every call is approved. */
export function goTurnOptions(
  gw: ScriptedGateway,
  tools: AgentTurnOptions['tools'],
  extra: Partial<AgentTurnOptions> = {},
): AgentTurnOptions {
  return {
    client: gw.client,
    model: 'agent-model',
    maxTokens: 100,
    tools,
    policy: { workspaceFolders: [WS] },
    messages: [{ role: 'user', content: 'go' }],
    approve: async () => ({ approved: true }),
    ...extra,
  };
}
