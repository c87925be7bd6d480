// What the chat tests that run whole turns share: conversation files in memory, a wait for a condition, a session
// against the emulator, and the session in Agent mode (SessionController + AgentTurns + the real loop and the real
// gateway client against the emulator over a socket; the host is in memory, with the test's tools). The emulator
// per suite is test/unit/emulator/helpers.ts useEmulator.
import { strict as assert } from 'node:assert';
import type { PolicySettings } from '../../../src/agent';
import type { SubagentSettings, Tool } from '../../../src/agent';
import { AgentTurns, type AgentTurnHost } from '../../../src/chat/agent/agentTurn';
import { toErrorCard } from '../../../src/chat/session/errorCard';
import type { HistoryStorage } from '../../../src/chat/store/history';
import { SessionController } from '../../../src/chat/session/session';
import type { SessionDeps } from '../../../src/chat/session/sessionDeps';
import type { Emulator } from '../../../src/emulator/types';
import { adviseOnError, createGatewayClient } from '../../../src/gateway';
import type { MessagesRequest } from '../../../src/gateway/types';
import type { HostToWebviewMessage } from '../../../src/shared/protocol/chat';
import { waitUntil } from '../../support/poll';

/** The chat's conversation files in a Map (`files`, for tests that look at or plant them). */
export function memoryHistoryStorage(): HistoryStorage & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    files,
    read: async (name) => files.get(name),
    write: async (name, data) => void files.set(name, data),
    remove: async (name) => void files.delete(name),
  };
}

/** read_file over a map of workspace-relative paths; a missing file is an error result, as the real tool's. */
export function readFileTool(files: Record<string, string>): Tool {
  return {
    name: 'read_file',
    description: 'Read a file.',
    approvalClass: 'read',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    target: (i) => ({ paths: [`/ws/${String(i.path)}`], summary: String(i.path) }),
    invoke: async (i) =>
      String(i.path) in files
        ? { content: files[String(i.path)] }
        : { content: `no such file ${String(i.path)}`, isError: true },
  };
}

/** Message ids unique across the sessions of a test run, so that a reloaded session never reuses one. */
let nextMessageId = 0;

/**
 * A SessionController against the emulator: `posted` holds what it posted to the view (deep copies, as the webview
 * receives them), `of(type)` those of one type. The rest of SessionDeps as the extension sets them.
 */
export function chatSession(
  emulator: Emulator,
  deps: Pick<
    SessionDeps,
    | 'getClient'
    | 'agent'
    | 'defaultRetryMs'
    | 'instructions'
    | 'contextWindow'
    | 'condenseThreshold'
    | 'images'
    | 'secrets'
  > & {
    model: string;
    /** The model of Agent conversations (modelGateway.agent.defaultModel), when set. */
    agentModel?: string;
    storage?: HistoryStorage;
  },
) {
  const posted: HostToWebviewMessage[] = [];
  const s = new SessionController({
    storage: deps.storage ?? memoryHistoryStorage(),
    getClient: deps.getClient,
    errorCard: (e) => toErrorCard(e, (x) => adviseOnError(x, { baseUrl: emulator.url, surface: 'chat' })),
    defaults: () => ({ model: deps.model, agentModel: deps.agentModel, maxTokens: 1024, systemPrompt: '' }),
    post: (m) => posted.push(JSON.parse(JSON.stringify(m)) as HostToWebviewMessage),
    setBusy: () => undefined,
    newId: () => `m${nextMessageId++}`,
    now: () => Date.now(),
    batchMs: 16,
    defaultRetryMs: deps.defaultRetryMs,
    agent: deps.agent,
    instructions: deps.instructions,
    contextWindow: deps.contextWindow,
    condenseThreshold: deps.condenseThreshold,
    images: deps.images,
    secrets: deps.secrets,
  });
  const of = <T extends HostToWebviewMessage['type']>(type: T) =>
    posted.filter((m): m is Extract<HostToWebviewMessage, { type: T }> => m.type === type);
  return { s, posted, of };
}

export interface AgentSessionOptions {
  emulator: Emulator;
  tools: () => Tool[];
  maxSteps?: number;
  /** false: the host reports Restricted Mode (no Agent). */
  trusted?: boolean;
  /** AgentTurns' globalState; pass a session's `state` (and `storage`) again to "reload" it. */
  state?: Map<string, unknown>;
  storage?: HistoryStorage & { files: Map<string, string> };
  /** Ask questions go to the gateway too; otherwise Ask has no client (as without a key). */
  askThroughGateway?: boolean;
  /** The approval settings the host reports (default: the workspace folder only, everything asks). */
  policy?: Partial<PolicySettings>;
  /** The default models: Ask's (default claude-demo-agent) and Agent's (default: none, Ask's). */
  models?: { ask: string; agent?: string };
  /** Condensing: the model's context window and the threshold (AgentTurns' deps). */
  contextWindow?: number;
  condenseThreshold?: number;
  /** The project instructions the session reads before each answer. */
  instructions?: SessionDeps['instructions'];
  /** The daily budget check (AgentTurns' deps): true when the next request would pass it. */
  wouldPassDailyBudget?: (nextTokens: number) => Promise<boolean>;
  /** Where the conversation's images are stored (SessionDeps['images']). */
  images?: SessionDeps['images'];
  /** The sub-agent settings (AgentTurns' deps; absent: no sub-agents). */
  subagents?: SubagentSettings;
}

/**
 * A chat session with Agent mode. `sent`: every request body on its way out; `turns`: the checkpoints begun and
 * ended; `of(type)`: the messages posted to the view of one type (deep copies, as the webview receives them).
 */
export function agentSession(options: AgentSessionOptions) {
  const { emulator } = options;
  const sent: MessagesRequest[] = [];
  const turns: string[] = [];
  /** Turn ids whose checkpoints were deleted (a conversation deleted). */
  const discarded: string[] = [];
  const state = options.state ?? new Map<string, unknown>();
  const storage = options.storage ?? memoryHistoryStorage();
  const host: AgentTurnHost = {
    availability: () =>
      options.trusted === false
        ? { ok: false as const, reason: 'Agent mode is unavailable in Restricted Mode.' }
        : { ok: true as const },
    changes: { list: () => [] },
    snapshot: async () => ({
      policy: { workspaceFolders: ['/ws'], ...options.policy },
      settings: { maxSteps: options.maxSteps ?? 25 },
      allSecretPatterns: [],
    }),
    tools: options.tools,
    toolSets: () => ({ builtIn: options.tools(), bridged: [] }),
    checkpoints: { discard: async (ids: readonly string[]) => void discarded.push(...ids) },
    beginTurn: async (id: string) => void turns.push(`begin ${id}`),
    endTurn: async () => void turns.push('end'),
  };
  const real = createGatewayClient({ baseUrl: emulator.url, apiKey: 'mg-agent-key-0008', maxRetries: 0 });
  const client = {
    streamMessage: (body: MessagesRequest, opts?: Parameters<typeof real.streamMessage>[1]) => {
      sent.push(JSON.parse(JSON.stringify(body)) as MessagesRequest);
      return real.streamMessage(body, opts);
    },
  };
  const agent = new AgentTurns({
    host,
    state: {
      get: (k: string) => state.get(k),
      update: async (k: string, v: unknown) => void state.set(k, JSON.parse(JSON.stringify(v))),
    },
    client: async () => ({ client: client as never, keyId: 'fp' }),
    contextWindow: options.contextWindow,
    condenseThreshold: options.condenseThreshold === undefined ? undefined : () => options.condenseThreshold!,
    wouldPassDailyBudget: options.wouldPassDailyBudget,
    subagents: options.subagents && (() => options.subagents!),
  });
  const { s, posted, of } = chatSession(emulator, {
    storage,
    getClient: async () => (options.askThroughGateway ? (client as never) : undefined),
    model: options.models?.ask ?? 'claude-demo-agent',
    agentModel: options.models?.agent,
    agent,
    instructions: options.instructions,
    images: options.images,
    contextWindow: options.contextWindow === undefined ? undefined : () => options.contextWindow!,
    condenseThreshold: options.condenseThreshold === undefined ? undefined : () => options.condenseThreshold!,
  });
  /** Sends `text` and waits for its answer to finish; `approveAll`: answers every approval prompt with Approve. */
  const sendUntilFinished = async (text: string, { approveAll = false } = {}): Promise<void> => {
    const before = of('streamFinished').length;
    assert.equal(s.send(text), undefined);
    await waitUntil(() => {
      if (approveAll) for (const m of of('agentTool')) if (m.tool.status === 'asking') agent.answer(m.tool.id, true);
      return of('streamFinished').length > before;
    }, 'the answer to finish');
  };
  return { s, agent, posted, of, sent, turns, discarded, state, storage, sendUntilFinished };
}
