// In-memory tools for agent tests: a workspace of files in a Map, and a command tool that waits for Stop.
import type { AgentEvent, ApprovalAnswer, ApprovalRequest, Tool, ToolResult } from '../../../src/agent';

export const WS = '/ws';

export interface FakeWorkspace {
  files: Map<string, string>;
  /** Inputs each tool was invoked with, in order. */
  invoked: Array<{ name: string; input: Record<string, unknown> }>;
  tools: Array<Tool<never>>;
}

/** read_file, write_file and run_command over an in-memory workspace rooted at /ws. */
export function fakeWorkspace(
  files: Record<string, string> = {},
  hooks: { onCommand?: (signal: AbortSignal) => Promise<ToolResult> } = {},
): FakeWorkspace {
  const ws: FakeWorkspace = { files: new Map(Object.entries(files)), invoked: [], tools: [] };
  const resolve = (p: unknown): string => {
    if (typeof p !== 'string' || p === '') throw new Error('path must be a non-empty string');
    return p.startsWith('/') ? p : `${WS}/${p}`;
  };
  const read: Tool<{ path: string }> = {
    name: 'read_file',
    description: 'Read a file',
    approvalClass: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    target: (input) => ({ paths: [resolve(input.path)] }),
    invoke: async (input) => {
      ws.invoked.push({ name: 'read_file', input });
      const content = ws.files.get(resolve(input.path));
      return content === undefined ? { content: `No such file: ${input.path}`, isError: true } : { content };
    },
  };
  const write: Tool<{ path: string; content: string }> = {
    name: 'write_file',
    description: 'Write a file',
    approvalClass: 'write',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
    target: (input) => ({ paths: [resolve(input.path)] }),
    invoke: async (input) => {
      ws.invoked.push({ name: 'write_file', input });
      ws.files.set(resolve(input.path), input.content);
      return { content: 'written' };
    },
  };
  const command: Tool<{ command: string }> = {
    name: 'run_command',
    description: 'Run a command',
    approvalClass: 'command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    target: (input) => ({ command: input.command, paths: [WS] }),
    invoke: async (input, ctx) => {
      ws.invoked.push({ name: 'run_command', input });
      ctx.progress('started');
      return hooks.onCommand ? hooks.onCommand(ctx.signal) : { content: `ran ${input.command}` };
    },
  };
  ws.tools = [read, write, command] as Array<Tool<never>>;
  return ws;
}

/** An approval callback that records every request and answers with `answer`. */
export function recordingApprover(answer: ApprovalAnswer = { approved: true }): {
  asked: ApprovalRequest[];
  approve(r: ApprovalRequest): Promise<ApprovalAnswer>;
} {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    approve: async (r) => {
      asked.push(r);
      return answer;
    },
  };
}

export function eventLog(): {
  events: AgentEvent[];
  onEvent(e: AgentEvent): void;
  ofType<T extends AgentEvent['type']>(t: T): Array<Extract<AgentEvent, { type: T }>>;
} {
  const events: AgentEvent[] = [];
  return {
    events,
    onEvent: (e) => events.push(e),
    ofType: <T extends AgentEvent['type']>(t: T) =>
      events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === t),
  };
}
