// Messages of the chat webview, both directions (see docs/architecture.md#webview-messages). Pure: no `vscode` import.
// The host validates every incoming message with isWebviewToHostMessage(); the webview trusts the host.

// ---- shared shapes ----

export type ChatRole = 'user' | 'assistant';

/** How an answer ended: still streaming, finished, stopped by the user, cut off mid-stream, or failed. */
export type ChatMessageStatus = 'streaming' | 'complete' | 'stopped' | 'cutOff' | 'error' | 'queued';

/** Editor text attached to a question ("Ask about selection / file"). */
export interface ChatAttachment {
  id: string;
  kind: 'selection' | 'file';
  /** Workspace-relative path (or file name) shown on the chip. */
  path: string;
  languageId: string;
  text: string;
  /** 1-based line range of a selection. */
  startLine?: number;
  endLine?: number;
}

export interface ChatUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Reactions an error card may offer (the spec's error table, as buttons). */
export type ErrorActionId =
  | 'replaceKey'
  | 'checkConnection'
  | 'openBaseUrlSetting'
  | 'retry'
  | 'refreshModels'
  | 'openConsoleAdvice'
  | 'showLog';

export const ERROR_ACTIONS: readonly ErrorActionId[] = [
  'replaceKey', 'checkConnection', 'openBaseUrlSetting', 'retry', 'refreshModels', 'openConsoleAdvice', 'showLog',
];

export interface ErrorCard {
  title: string;
  detail: string;
  actions: ErrorActionId[];
  /** Gateway error kind (auth, forbidden, rate_limited, server, timeout, ...). */
  kind?: string;
  status?: number;
  requestId?: string;
  retryAfterMs?: number;
  /** Epoch ms at which a queued (429) request is sent automatically. */
  queuedUntil?: number;
  /** True when the request may have been processed (timeout on a billable call). */
  outcomeUnknown?: boolean;
}

// ---- Agent mode ----

/** Ask: the chat answers (no tools). Agent: the model may read, propose edits and run commands (trusted workspaces). */
export type ChatMode = 'ask' | 'agent';
export const CHAT_MODES: readonly ChatMode[] = ['ask', 'agent'];

/** Input, output, cache-read and cache-write tokens (of one step, or summed over a turn). */
export interface AgentTokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * A tool call's card. proposed: the model asked for it; asking: waits for the user (an approval, or the review
 * of a diff); running; done; error (the tool failed); refused (the policy refused, or the user denied).
 */
export type AgentToolStatus = 'proposed' | 'asking' | 'running' | 'done' | 'error' | 'refused';

export interface AgentToolCard {
  /** The tool_use id (also the approval's id). */
  id: string;
  step: number;
  name: string;
  /** One line: the exact path or command, as the policy saw it. */
  summary: string;
  status: AgentToolStatus;
  /** While asking: approve = Approve/Deny buttons; review = the diff waits in Pending changes. */
  ask?: { kind: 'approve' | 'review'; reason: string; command?: string; paths?: string[] };
  /** Why it was refused or denied. */
  note?: string;
  /** Progress text while running (command output so far; capped). */
  progress?: string;
  /** Start of the result as the model got it (untrusted text, rendered as text; capped). */
  result?: string;
  resultTruncated?: boolean;
  /** Length of the answer's text when the model proposed the call: the card is shown after that much text. */
  textAt?: number;
}

export interface AgentStepUsage {
  step: number;
  tokens: AgentTokens;
}

export interface AgentTurnEnd {
  reason: string;
  /** One sentence for the user. */
  message: string;
  /** The user may send the question again (never automatic): step budget, unknown outcome, errors. */
  retry: boolean;
}

/** What an agent turn did, stored with its answer (survives a reload: Restore stays available). */
export interface AgentTurnInfo {
  /** Checkpoint id of the turn (Restore reverts the workspace to before it). */
  turnId: string;
  tools: AgentToolCard[];
  steps: AgentStepUsage[];
  tokens?: AgentTokens;
  /** Visible notes: caching switched off, context shortened. */
  notes?: string[];
  end?: AgentTurnEnd;
  /** Epoch ms until which a 429 wait inside the loop lasts. */
  waitUntil?: number;
  /** The workspace was restored to before this turn. */
  restored?: boolean;
}

/** A pending change as the chat lists it (Open diff / Accept / Reject). */
export interface PendingChangeView {
  id: string;
  kind: 'edit' | 'create' | 'delete';
  path: string;
  added: number;
  removed: number;
  toolUseId?: string;
}

export type AgentAvailability = { ok: true } | { ok: false; reason: string };

export interface ChatMessage {
  id: string;
  role: ChatRole;
  text: string;
  /** Thinking text of an assistant answer, shown collapsed. */
  thinking?: string;
  attachments?: ChatAttachment[];
  status: ChatMessageStatus;
  model?: string;
  usage?: ChatUsage;
  stopReason?: string | null;
  error?: ErrorCard;
  createdAt: number;
  /** An Agent-mode answer: its tool cards, cost and end. */
  agent?: AgentTurnInfo;
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
  mode?: ChatMode;
}

/** Per-conversation settings; an empty model means "the default chat model". */
export interface ConversationSettings {
  model: string;
  maxTokens: number;
  systemPrompt: string;
}

export interface ModelOption {
  id: string;
}

export interface ChatSnapshot {
  conversations: ConversationSummary[];
  activeId: string;
  messages: ChatMessage[];
  settings: ConversationSettings;
  models: ModelOption[];
  /** Why the model list is empty, when it is (no key, error). */
  modelsProblem?: string;
  busy: boolean;
  attachments: ChatAttachment[];
  /** The active conversation's mode (absent: ask). */
  mode?: ChatMode;
  agent?: AgentAvailability;
  changes?: PendingChangeView[];
}

// ---- host → webview ----

export type HostToWebviewMessage =
  | { type: 'snapshot'; snapshot: ChatSnapshot }
  | { type: 'conversations'; conversations: ConversationSummary[]; activeId: string }
  | { type: 'messageAppended'; conversationId: string; message: ChatMessage }
  /** Replaces one message (status, error card, final text); used rarely, never per delta. */
  | { type: 'messageUpdated'; conversationId: string; message: ChatMessage }
  /** Messages from this id onward were removed (regenerate, edit and resend). */
  | { type: 'messagesTruncated'; conversationId: string; fromMessageId: string }
  /** Text appended to a streaming answer since the previous delta (batched on the host). */
  | { type: 'streamDelta'; conversationId: string; messageId: string; text?: string; thinking?: string }
  | {
      type: 'streamFinished';
      conversationId: string;
      messageId: string;
      status: Exclude<ChatMessageStatus, 'streaming' | 'queued'>;
      usage?: ChatUsage;
      stopReason?: string | null;
      model?: string;
    }
  | { type: 'errorCard'; conversationId: string; messageId: string; card: ErrorCard | null }
  | { type: 'models'; models: ModelOption[]; problem?: string }
  | { type: 'settings'; conversationId: string; settings: ConversationSettings; warning?: string }
  | { type: 'busy'; busy: boolean }
  | { type: 'attachments'; attachments: ChatAttachment[] }
  | { type: 'searchResults'; requestId: string; query: string; conversations: ConversationSummary[] }
  | { type: 'focusInput' }
  | { type: 'showConversations' }
  /** Reply to a webview request that failed validation or could not be done. */
  | { type: 'requestFailed'; requestId: string; message: string }
  | { type: 'mode'; conversationId: string; mode: ChatMode }
  | { type: 'agentAvailability'; availability: AgentAvailability }
  /** Adds or replaces one tool card of an agent answer. */
  | { type: 'agentTool'; conversationId: string; messageId: string; tool: AgentToolCard }
  | { type: 'agentUsage'; conversationId: string; messageId: string; step: AgentStepUsage; turn: AgentTokens }
  /** A 429 wait inside the loop (until: epoch ms), or null when the wait is over. */
  | { type: 'agentWait'; conversationId: string; messageId: string; until: number | null }
  | { type: 'agentNote'; conversationId: string; messageId: string; note: string }
  | { type: 'agentEnd'; conversationId: string; messageId: string; end: AgentTurnEnd }
  | { type: 'agentRestored'; conversationId: string; messageId: string }
  | { type: 'changes'; changes: PendingChangeView[] };

// ---- webview → host ----

interface Req { requestId: string }

export type WebviewToHostMessage =
  | ({ type: 'ready' } & Req)
  | ({ type: 'send'; text: string } & Req)
  | ({ type: 'stop' } & Req)
  | ({ type: 'regenerate'; messageId: string } & Req)
  | ({ type: 'editAndResend'; messageId: string; text: string } & Req)
  | ({ type: 'continue'; messageId: string } & Req)
  | ({ type: 'newConversation' } & Req)
  | ({ type: 'selectConversation'; conversationId: string } & Req)
  | ({ type: 'deleteConversation'; conversationId: string } & Req)
  | ({ type: 'searchConversations'; query: string } & Req)
  | ({ type: 'setModel'; model: string } & Req)
  | ({ type: 'setMaxTokens'; maxTokens: number } & Req)
  | ({ type: 'setSystemPrompt'; systemPrompt: string } & Req)
  | ({ type: 'removeAttachment'; attachmentId: string } & Req)
  | ({ type: 'copy'; text: string } & Req)
  | ({ type: 'insertCode'; code: string; languageId?: string } & Req)
  | ({ type: 'openCodeInEditor'; code: string; languageId?: string } & Req)
  | ({ type: 'openLink'; href: string } & Req)
  | ({ type: 'errorAction'; messageId: string; action: ErrorActionId } & Req)
  | ({ type: 'setMode'; mode: ChatMode } & Req)
  /** The answer to a tool call's approval prompt (toolUseId is the approval's id). */
  | ({ type: 'approval'; toolUseId: string; approved: boolean } & Req)
  | ({ type: 'change'; changeId: string; action: ChangeAction } & Req)
  | ({ type: 'changesAll'; action: 'accept' | 'reject' } & Req)
  /** Reverts the workspace to before the agent turn of this answer. */
  | ({ type: 'restoreCheckpoint'; messageId: string } & Req);

export type ChangeAction = 'open' | 'accept' | 'reject';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['open', 'accept', 'reject'];

export type WebviewToHostType = WebviewToHostMessage['type'];

// ---- runtime guard ----

/** Upper bounds on what the webview may send (a question, a code block, a link). */
export const LIMITS = {
  id: 128,
  text: 1_000_000,
  code: 8_000_000,
  href: 8_192,
  query: 500,
  model: 200,
  systemPrompt: 100_000,
  maxTokens: 1_000_000,
} as const;

type Check = (value: unknown) => boolean;

const str = (max: number, min = 0): Check => (v) => typeof v === 'string' && v.length >= min && v.length <= max;
const optional = (check: Check): Check => (v) => v === undefined || check(v);
const id: Check = (v) => typeof v === 'string' && /^[A-Za-z0-9_.:-]{1,128}$/.test(v);
const positiveInt = (max: number): Check => (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= max;
const oneOf = <T>(values: readonly T[]): Check => (v) => values.includes(v as T);
const languageId: Check = (v) => typeof v === 'string' && /^[A-Za-z0-9_.+#-]{1,64}$/.test(v);

/** Field checks per message type: every field of the message must be listed (unknown fields are rejected). */
const SHAPES: Record<WebviewToHostType, Record<string, Check>> = {
  ready: {},
  send: { text: str(LIMITS.text) },
  stop: {},
  regenerate: { messageId: id },
  editAndResend: { messageId: id, text: str(LIMITS.text, 1) },
  continue: { messageId: id },
  newConversation: {},
  selectConversation: { conversationId: id },
  deleteConversation: { conversationId: id },
  searchConversations: { query: str(LIMITS.query) },
  setModel: { model: str(LIMITS.model) },
  setMaxTokens: { maxTokens: positiveInt(LIMITS.maxTokens) },
  setSystemPrompt: { systemPrompt: str(LIMITS.systemPrompt) },
  removeAttachment: { attachmentId: id },
  copy: { text: str(LIMITS.code) },
  insertCode: { code: str(LIMITS.code), languageId: optional(languageId) },
  openCodeInEditor: { code: str(LIMITS.code), languageId: optional(languageId) },
  openLink: { href: str(LIMITS.href, 1) },
  errorAction: { messageId: id, action: oneOf(ERROR_ACTIONS) },
  setMode: { mode: oneOf(CHAT_MODES) },
  approval: { toolUseId: id, approved: (v) => typeof v === 'boolean' },
  change: { changeId: id, action: oneOf(CHANGE_ACTIONS) },
  changesAll: { action: oneOf(['accept', 'reject'] as const) },
  restoreCheckpoint: { messageId: id },
};

/** True only for a well-formed message of the chat webview: known type, every field typed and bounded, nothing extra. */
export function isWebviewToHostMessage(value: unknown): value is WebviewToHostMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(SHAPES, type)) return false;
  if (!id(record.requestId)) return false;
  const shape = SHAPES[type as WebviewToHostType];
  for (const key of Object.keys(record)) {
    if (key !== 'type' && key !== 'requestId' && !Object.prototype.hasOwnProperty.call(shape, key)) return false;
  }
  return Object.entries(shape).every(([key, check]) => check(record[key]));
}
