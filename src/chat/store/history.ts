// History persistence format (pure): one index of conversations plus one file per conversation,
// versioned and validated on read so a damaged file loses only what is damaged.
import type {
  AgentCondensed,
  AgentSubagentCard,
  AgentToolCard,
  TokenCounts,
  AgentTurnInfo,
  InstructionsUsed,
  ChatAttachment,
  ChatMessage,
  ChatMessageStatus,
  ConversationSettings,
} from '../../shared/protocol/chat';
import { storedChat } from '../../shared/protocol/chat';
import type { Conversation } from '../session/conversation';
import { english, type Localizer } from '../../shared/l10n';
import { redactDeep } from '../../shared/secretRedaction';
import { relocalized } from './relocalize';

export const HISTORY_VERSION = 1;

export interface HistoryIndex {
  version: number;
  activeId?: string;
  conversations: Array<
    Pick<Conversation, 'id' | 'title' | 'titled' | 'createdAt' | 'updatedAt'> & { messageCount: number }
  >;
}

/**
 * Where history lives: the host adapter maps names to files under globalStorageUri. The optional part is what
 * storage shared by several windows has (src/storage/sharedFolder.ts): without it (a Map in tests) the index is
 * the list and nothing else writes.
 */
export interface HistoryStorage {
  read(name: string): Promise<string | undefined>;
  write(name: string, data: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** The files there are, each with a version that changes when another window replaces it. */
  list?(): Promise<Array<{ name: string; version: string }>>;
  /** The names of the files there are (no versions: cheaper than list). */
  names?(): Promise<string[]>;
  /** A file's text with its version, read at once (undefined: no such file). */
  readVersioned?(name: string): Promise<{ text: string; version: string } | undefined>;
  /** One file's version (undefined: no such file). */
  version?(name: string): Promise<string | undefined>;
  /** Runs `fn` holding the lock between windows (read-merge-write sequences). */
  locked?<T>(fn: () => Promise<T>): Promise<T>;
  /** Moves a file that cannot be read aside and says so in the log. */
  moveAside?(name: string): Promise<void>;
  /**
   * Calls `listener` when another window may have changed something, with the file's name when the platform says
   * it (undefined: anything may have changed); returns the function that stops it.
   */
  watch?(listener: (name?: string) => void): () => void;
}

/**
 * Storage that removes every known secret before a file is written (a key a tool printed, an error echoed, an
 * attachment held). JSON is redacted value by value, so a secret's removal never breaks the file's syntax.
 */
export function redactingStorage(storage: HistoryStorage, redact: (text: string) => string): HistoryStorage {
  return {
    ...storage,
    read: (name) => storage.read(name),
    remove: (name) => storage.remove(name),
    write: (name, data) => {
      if (redact(data) === data) return storage.write(name, data);
      let clean: string;
      try {
        clean = JSON.stringify(redactDeep(JSON.parse(data) as unknown, redact));
      } catch {
        clean = redact(data);
      }
      return storage.write(name, clean);
    },
  };
}

export const INDEX_FILE = 'index.json';
export const conversationFile = (id: string): string => `conversation-${id}.json`;
/** The conversation id a file name holds (undefined: not a conversation file). */
export function conversationIdOf(name: string): string | undefined {
  const match = /^conversation-(.+)\.json$/.exec(name);
  return match && isSafeId(match[1]) ? match[1] : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isSafeId = (v: unknown): v is string => isString(v) && /^[A-Za-z0-9_.:-]{1,128}$/.test(v);

export function serializeIndex(conversations: Conversation[], activeId: string | undefined): string {
  const index: HistoryIndex = {
    version: HISTORY_VERSION,
    activeId,
    conversations: conversations.map((c) => ({
      id: c.id,
      title: c.title,
      titled: c.titled,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      messageCount: c.messages.length,
    })),
  };
  return JSON.stringify(index);
}

export function parseIndex(data: string | undefined): HistoryIndex {
  const empty: HistoryIndex = { version: HISTORY_VERSION, conversations: [] };
  const raw = safeParse(data);
  if (!isRecord(raw) || raw.version !== HISTORY_VERSION || !Array.isArray(raw.conversations)) return empty;
  const conversations = raw.conversations
    .filter(
      (c): c is HistoryIndex['conversations'][number] =>
        isRecord(c) && isSafeId(c.id) && isString(c.title) && isNumber(c.createdAt) && isNumber(c.updatedAt),
    )
    .map((c) => ({ ...c, titled: c.titled === true, messageCount: isNumber(c.messageCount) ? c.messageCount : 0 }));
  return { version: HISTORY_VERSION, activeId: isSafeId(raw.activeId) ? raw.activeId : undefined, conversations };
}

export function serializeConversation(conversation: Conversation): string {
  return JSON.stringify({ version: HISTORY_VERSION, conversation });
}

/** Reads one conversation file; answers that were streaming when the window closed come back as cut off. */
export function parseConversation(data: string | undefined, l10n: Localizer = english): Conversation | undefined {
  const raw = safeParse(data);
  if (!isRecord(raw) || raw.version !== HISTORY_VERSION || !isRecord(raw.conversation)) return undefined;
  const c = raw.conversation;
  if (
    !isSafeId(c.id) ||
    !isString(c.title) ||
    !isNumber(c.createdAt) ||
    !isNumber(c.updatedAt) ||
    !Array.isArray(c.messages)
  )
    return undefined;
  return {
    id: c.id,
    title: c.title,
    titled: c.titled === true,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    overrides: parseOverrides(c.overrides),
    messages: c.messages.map((m) => parseMessage(m, l10n)).filter((m): m is ChatMessage => m !== undefined),
    ...(c.mode === 'agent' || c.mode === 'plan' ? { mode: c.mode } : {}),
  };
}

function parseOverrides(value: unknown): Partial<ConversationSettings> {
  if (!isRecord(value)) return {};
  const out: Partial<ConversationSettings> = {};
  if (isString(value.model)) out.model = value.model;
  if (isNumber(value.maxTokens) && value.maxTokens >= 1) out.maxTokens = Math.floor(value.maxTokens);
  if (isString(value.systemPrompt)) out.systemPrompt = value.systemPrompt;
  return out;
}

function parseMessage(value: unknown, l10n: Localizer): ChatMessage | undefined {
  if (
    !isRecord(value) ||
    !isSafeId(value.id) ||
    (value.role !== 'user' && value.role !== 'assistant') ||
    !isString(value.text)
  )
    return undefined;
  const fields = storedChat.messageFields;
  let status = fields.status(value.status) ? value.status : 'complete';
  if (status === 'streaming' || status === 'queued') status = 'cutOff';
  const message: ChatMessage = {
    id: value.id,
    role: value.role,
    text: value.text,
    status,
    createdAt: isNumber(value.createdAt) ? value.createdAt : 0,
  };
  for (const key of Object.keys(fields) as Array<keyof ChatMessage>) {
    if (key in message) continue;
    const read = STORED_FIELDS[key] ?? ((v: unknown) => (v !== undefined && fields[key](v) ? v : undefined));
    const kept = read(value[key], { status, l10n });
    if (kept !== undefined) (message as unknown as Record<string, unknown>)[key] = kept;
  }
  return message;
}

/**
 * The fields of a stored message that need more than the page's check (storedChat.messageFields): an older shape,
 * what cannot outlive the window (live actions, open approvals), words said again in this window's language. Every
 * other field of that table is kept as stored when it passes its check, so a field added to ChatMessage (and so to
 * the table) is read back with no edit here.
 */
const STORED_FIELDS: {
  [K in keyof ChatMessage]?: (
    v: unknown,
    m: { status: ChatMessageStatus; l10n: Localizer },
  ) => ChatMessage[K] | undefined;
} = {
  usage: (v) => {
    const tokens = usageTokens(v);
    if (!tokens || !isRecord(v)) return undefined;
    const cost = storedChat.cost(v.cost);
    return { ...tokens, ...(v.notReported === true ? { notReported: true } : {}), ...(cost ? { cost } : {}) };
  },
  attachments: (v) =>
    Array.isArray(v)
      ? v.map(storedChat.attachment).filter((a): a is ChatAttachment => a !== undefined && isSafeId(a.id))
      : undefined,
  // A stored card keeps its words but no live actions that would resend (no queue, no countdown).
  error: (v) =>
    isRecord(v) && isString(v.title) && isString(v.detail)
      ? { title: v.title, detail: v.detail, actions: [], ...(isString(v.requestId) ? { requestId: v.requestId } : {}) }
      : undefined,
  agent: (v, m) => parseAgent(v, m.status, m.l10n),
  instructions: (v) => parseInstructions(v),
  condensed: (v) => storedCondensed(v),
};

function parseInstructions(v: unknown): InstructionsUsed | undefined {
  if (!isRecord(v) || !Array.isArray(v.files)) return undefined;
  const files = v.files
    .filter((f): f is Record<string, unknown> => isRecord(f) && isString(f.name) && isString(f.path))
    .map((f) => ({
      name: f.name as string,
      path: f.path as string,
      ...(f.truncated === true ? { truncated: true } : {}),
      ...(f.omitted === true ? { omitted: true } : {}),
    }));
  const notes = Array.isArray(v.notes) ? v.notes.filter(isString) : [];
  return { files, ...(notes.length > 0 ? { notes } : {}) };
}

const TOOL_STATUSES = ['proposed', 'asking', 'running', 'done', 'error', 'refused', 'rejected'];

/** An answer's tokens as stored: TokenCounts, or the names histories used before (inputTokens, cacheReadTokens, …). */
function usageTokens(v: unknown): TokenCounts | undefined {
  if (!isRecord(v)) return undefined;
  if (isNumber(v.inputTokens) && isNumber(v.outputTokens))
    return {
      input: v.inputTokens,
      output: v.outputTokens,
      cacheRead: isNumber(v.cacheReadTokens) ? v.cacheReadTokens : 0,
      cacheWrite: isNumber(v.cacheWriteTokens) ? v.cacheWriteTokens : 0,
      ...(v.estimated === true ? { estimated: true } : {}),
    };
  return storedChat.tokens(v);
}

/**
 * An agent turn as stored. A turn that was running when the window closed has no live approvals or waits:
 * its open cards come back as stopped (refused), so no button answers a prompt nobody is waiting for.
 */
function parseAgent(v: unknown, status: ChatMessageStatus, l10n: Localizer): AgentTurnInfo | undefined {
  if (!isRecord(v) || !isSafeId(v.turnId)) return undefined;
  const tools: AgentToolCard[] = (Array.isArray(v.tools) ? v.tools : [])
    .filter(
      (t): t is Record<string, unknown> =>
        isRecord(t) &&
        isSafeId(t.id) &&
        isNumber(t.step) &&
        isString(t.name) &&
        isString(t.summary) &&
        TOOL_STATUSES.includes(t.status as string),
    )
    .map((t) => {
      const card: AgentToolCard = {
        id: t.id as string,
        step: t.step as number,
        name: t.name as string,
        // Saved in another language's window: our words in this one's (relocalize.ts).
        summary: relocalized(t.summary as string, l10n),
        status: t.status as AgentToolCard['status'],
      };
      if (isString(t.fullSummary)) card.fullSummary = relocalized(t.fullSummary, l10n);
      if (isString(t.note)) card.note = relocalized(t.note, l10n);
      if (isString(t.result)) card.result = t.result;
      if (t.resultTruncated === true) card.resultTruncated = true;
      // Where the card stands in the answer's text: without it a reloaded turn shows all its text, then all its cards.
      if (isNumber(t.textAt) && t.textAt >= 0) card.textAt = Math.floor(t.textAt);
      if (isSafeId(t.subagent)) card.subagent = t.subagent;
      if (card.status === 'asking' || card.status === 'running' || card.status === 'proposed') {
        card.status = 'refused';
        card.note = l10n.t('The turn ended before this call finished (the window was closed).');
      }
      return card;
    });
  const steps = (Array.isArray(v.steps) ? v.steps : []).flatMap((s) => {
    const tokens = isRecord(s) && isNumber(s.step) ? storedChat.tokens(s.tokens) : undefined;
    return tokens && isRecord(s) ? [{ step: s.step as number, tokens }] : [];
  });
  const info: AgentTurnInfo = { turnId: v.turnId, tools, steps };
  const tokens = storedChat.tokens(v.tokens);
  if (tokens) info.tokens = tokens;
  if (Array.isArray(v.notes)) info.notes = v.notes.filter(isString);
  if (isRecord(v.end) && isString(v.end.reason) && isString(v.end.message))
    info.end = { reason: v.end.reason, message: relocalized(v.end.message, l10n), retry: v.end.retry === true };
  else if (status !== 'complete')
    info.end = { reason: 'stopped', message: l10n.t('The turn ended when the window was closed.'), retry: true };
  if (v.restored === true) info.restored = true;
  if (v.mode === 'plan') info.mode = 'plan';
  const condensed = storedCondensed(v.condensed);
  if (condensed) info.condensed = condensed;
  const subagents = storedSubagents(v.subagents, l10n);
  if (subagents.length > 0) info.subagents = subagents;
  return info;
}

/**
 * The sub-agent cards as stored: finished ones with their report and cost; one still running when the window closed
 * comes back stopped (nothing is sent again by itself).
 */
function storedSubagents(v: unknown, l10n: Localizer): AgentSubagentCard[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((c): AgentSubagentCard[] => {
    if (!isRecord(c) || !isSafeId(c.id) || !isString(c.task) || !isString(c.model)) return [];
    const tokens = storedChat.tokens(c.tokens);
    const status = ['done', 'stopped', 'error'].includes(c.status as string)
      ? (c.status as AgentSubagentCard['status'])
      : 'stopped';
    const card: AgentSubagentCard = {
      id: c.id,
      task: c.task,
      role: c.role === 'edit' ? 'edit' : 'explore',
      model: c.model,
      status,
      steps: isNumber(c.steps) ? c.steps : 0,
      toolCalls: isNumber(c.toolCalls) ? c.toolCalls : 0,
      tokens: tokens ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    };
    const cost = storedChat.cost(c.cost);
    if (cost) card.cost = cost;
    if (c.notReported === true) card.notReported = true;
    if (isString(c.result)) card.result = c.result;
    if (c.modelRefused === true) card.modelRefused = true;
    if (isRecord(c.agent) && isString(c.agent.name) && isString(c.agent.path))
      card.agent = { name: c.agent.name, path: c.agent.path };
    if (Array.isArray(c.notes)) card.notes = c.notes.filter(isString);
    if (c.status === 'running') card.message = l10n.t('The sub-agent stopped when the window was closed.');
    else if (isString(c.message)) card.message = c.message;
    return [card];
  });
}

/** A stored summary of condensed turns (an agent turn's or an answer's), when it has the shape. */
function storedCondensed(v: unknown): AgentCondensed | undefined {
  const condensed = storedChat.condensed(v);
  return condensed && isSafeId(condensed.through) ? condensed : undefined;
}

function safeParse(data: string | undefined): unknown {
  if (data === undefined) return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
