// The agent host the agent benches drive: one read_file tool that returns `content` for `path` (or the bench's own
// read-only tools), no approvals, no checkpoints, and an in-memory turn store, so a bench measures the turn and the
// gateway, not VS Code.
import type { Tool } from '../src/agent';
import type { AgentTurnHost } from '../src/chat/agent/agentTurn';

export function readOnlyAgentHost(
  path: string,
  content: string,
  /** Read-only tools instead of the one read_file (the sub-agents bench reads and lists real folders). */
  tools?: Tool[],
): { host: AgentTurnHost; state: { get: (k: string) => unknown; update: (k: string, v: unknown) => Promise<void> } } {
  const read: Tool = {
    name: 'read_file',
    description: 'Read a file.',
    approvalClass: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    target: () => ({ paths: [path] }),
    invoke: async () => ({ content }),
  };
  const stored = new Map<string, unknown>();
  const host: AgentTurnHost = {
    availability: () => ({ ok: true as const }),
    changes: { list: () => [] },
    snapshot: async () => ({
      policy: { workspaceFolders: ['/ws'] },
      settings: { maxSteps: 50 },
      allSecretPatterns: [],
    }),
    tools: () => tools ?? [read],
    toolSets: () => ({ builtIn: tools ?? [read], bridged: [] }),
    checkpoints: { discard: async () => undefined },
    beginTurn: async () => undefined,
    endTurn: async () => undefined,
  };
  return { host, state: { get: (k) => stored.get(k), update: async (k, v) => void stored.set(k, v) } };
}
