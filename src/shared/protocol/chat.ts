// Messages of the chat webview, both directions (see docs/architecture.md#webview-messages). Pure: no `vscode` import.
// Declared once as a Protocol (./channel.ts): the host validates every incoming message with chatGuard.toHost, the
// webview every host message with chatGuard.toWebview.
import { IMAGE_LIMITS, IMAGE_MEDIA_TYPES, type ImageMediaType } from '../imageFormat';
import type { ChatCost } from '../money';
import type { TokenCounts } from '../tokens';
import {
  anyOf,
  arr,
  bool,
  guard,
  id,
  int,
  lenient,
  matches,
  none,
  nullable,
  num,
  obj,
  oneOf,
  opt,
  str,
  type Check,
  type Fields,
  type MessageOf,
  type Protocol,
  type RequestOf,
} from './channel';

// ---- shared shapes ----

export type ChatRole = 'user' | 'assistant';

/** How an answer ended: still streaming, finished, stopped by the user, cut off mid-stream, or failed. */
export type ChatMessageStatus = 'streaming' | 'complete' | 'stopped' | 'cutOff' | 'error' | 'queued';

/** What an @-mention names: a file or folder, the workspace's problems, the terminal's last output, git changes, the selection. */
export type MentionKind = 'file' | 'folder' | 'problems' | 'terminal' | 'changes' | 'selection';
export const MENTION_KINDS: readonly MentionKind[] = ['file', 'folder', 'problems', 'terminal', 'changes', 'selection'];

/** What an attachment holds: a mention's text, or an image (pasted, dropped, or an @-mentioned image file). */
export type AttachmentKind = MentionKind | 'image';
export const ATTACHMENT_KINDS: readonly AttachmentKind[] = [...MENTION_KINDS, 'image'];

/** An image attachment as the page and the history see it: its bytes stay in the host's storage, named by hash. */
export interface ChatImage {
  mediaType: ImageMediaType;
  width: number;
  height: number;
  /** Bytes as sent to the model. */
  bytes: number;
  /** SHA-256 (hex) of the bytes as sent: the image's name in storage (stored once per content). */
  hash: string;
  /** A small `data:image/…;base64,` preview for the chip (the page never loads an image from anywhere else). */
  thumbnail: string;
  /** The size before the page scaled it down (absent: sent as it was). */
  original?: { width: number; height: number; bytes: number };
}

/** Context attached to a question ("Ask about selection / file", or an @-mention in the composer). */
export interface ChatAttachment {
  id: string;
  kind: AttachmentKind;
  /** Workspace-relative path (or file name, or the terminal's command) shown on the chip. */
  path: string;
  languageId: string;
  text: string;
  /** 1-based line range of a selection. */
  startLine?: number;
  endLine?: number;
  /** Estimated tokens of the attachment as the model reads it (the chip's "~N tokens"). */
  tokens?: number;
  /** The text was cut to the size cap (the chip says so). */
  truncated?: boolean;
  /** kind 'image': the image (text is empty). */
  image?: ChatImage;
}

/** One entry of the @-mention list: names and sizes only (the host reads a file when it is picked). */
export interface MentionOption {
  kind: MentionKind;
  /** Workspace-relative path of a file or folder (what `addMention` names); absent for the other kinds. */
  path?: string;
  /** A second line: the folder of a file, or what the entry would attach (or why it cannot). */
  detail?: string;
  /** Estimated tokens of a file (from its size). */
  tokens?: number;
  /** The entry cannot be attached now (no selection, no shell integration, a secret file): `detail` says why. */
  unavailable?: boolean;
  /** A PNG, JPEG, WebP or GIF file: picked, the page reads it (readImage), scales it and attaches it as an image. */
  image?: boolean;
}

export type { ChatCost } from '../money';
export type { TokenCounts } from '../tokens';

/** Tokens of one answer (the one shape, TokenCounts) and what it cost. Absent cache counts in old histories are 0. */
export interface ChatUsage extends TokenCounts {
  /** What the answer (or the agent turn) cost, where a price is known. */
  cost?: ChatCost;
  /** The gateway sent zeros on a message with content: shown as "not reported", never as 0 tokens. */
  notReported?: boolean;
}

/** Reactions an error card may offer (the spec's error table, as buttons). */
export type ErrorActionId =
  'replaceKey' | 'checkConnection' | 'openBaseUrlSetting' | 'retry' | 'refreshModels' | 'openConsoleAdvice' | 'showLog';

export const ERROR_ACTIONS: readonly ErrorActionId[] = [
  'replaceKey',
  'checkConnection',
  'openBaseUrlSetting',
  'retry',
  'refreshModels',
  'openConsoleAdvice',
  'showLog',
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

/**
 * Ask: the chat answers (no tools). Agent: the model may read, propose edits and run commands (trusted workspaces).
 * Plan: read-only tools, no edits, no commands; the answer ends in a checklist plan that Agent mode can act on.
 */
export type ChatMode = 'ask' | 'agent' | 'plan';
export const CHAT_MODES: readonly ChatMode[] = ['ask', 'agent', 'plan'];

/** Input, output, cache-read and cache-write tokens (of one step, or summed over a turn). */

/**
 * A tool call's card. proposed: the model asked for it; asking: waits for the user (an approval, or the review
 * of a diff); running; done; error (the tool failed); refused (the policy refused, or the user denied); rejected (a
 * write the user rejected in its review: nothing was written).
 */
export type AgentToolStatus = 'proposed' | 'asking' | 'running' | 'done' | 'error' | 'refused' | 'rejected';

export interface AgentToolCard {
  /** The tool_use id (also the approval's id). */
  id: string;
  step: number;
  name: string;
  /** One line: the exact path or command, as the policy saw it (cut to 300 characters with a visible `…`). */
  summary: string;
  /** The whole line when `summary` was cut (the header's tooltip), capped. */
  fullSummary?: string;
  status: AgentToolStatus;
  /** While asking: approve = Approve/Deny buttons; review = the diff waits in Pending changes. */
  /** `paths` as shown (workspace-relative), `fullPaths` the same paths in full (on hover). */
  ask?: { kind: 'approve' | 'review'; reason: string; command?: string; paths?: string[]; fullPaths?: string[] };
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
  tokens: TokenCounts;
  cost?: ChatCost;
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
  tokens?: TokenCounts;
  /** Visible notes: caching switched off, context shortened. */
  notes?: string[];
  end?: AgentTurnEnd;
  /** Epoch ms until which a 429 wait inside the loop lasts. */
  waitUntil?: number;
  /** The workspace was restored to before this turn. */
  restored?: boolean;
  /** A Plan-mode turn (read-only): its answer is a plan the user can act on in Agent mode. */
  mode?: 'plan';
  /** Earlier turns were condensed before this turn: the summary later requests send instead of them, and its cost. */
  condensed?: AgentCondensed;
}

export interface AgentCondensed {
  /** The id of the last message the summary covers. */
  through: string;
  summary: string;
  tokens: TokenCounts;
  /** What the condensing request cost, where a price is known. */
  cost?: ChatCost;
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

/** The project instruction files an answer was sent with ("Using AGENTS.md"; each opens the file), and the notes. */
export interface InstructionsUsed {
  files: Array<{
    /** Workspace-relative name shown. */
    name: string;
    /** Absolute path (the host opens only a path of its own stored answer, never one the page names). */
    path: string;
    truncated?: boolean;
    omitted?: boolean;
  }>;
  /** What was shortened or left out (size caps), or why no file was read. */
  notes?: string[];
}

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
  /** The project instructions this answer was sent with. */
  instructions?: InstructionsUsed;
  /** Earlier turns condensed with this Ask answer or by the Condense action after it (agent turns: agent.condensed). */
  condensed?: AgentCondensed;
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
  /** Whether the model reads images (the model list, the user's modelGateway.models.vision, else a guess). */
  vision?: boolean;
}

/** An image the page scaled and hands to the host (base64 of the bytes to send; the host checks and stores them). */
export interface AddImageParams {
  /** File name shown on the chip ("pasted image.png" for the clipboard). */
  name: string;
  data: string;
  thumbnail: string;
  original?: { width: number; height: number; bytes: number };
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

// ---- host → webview: notifications ----

export type ChatToWebview = {
  snapshot: { snapshot: ChatSnapshot };
  conversations: { conversations: ConversationSummary[]; activeId: string };
  messageAppended: { conversationId: string; message: ChatMessage };
  /** Replaces one message (status, error card, final text); used rarely, never per delta. */
  messageUpdated: { conversationId: string; message: ChatMessage };
  /** Messages from this id onward were removed (regenerate, edit and resend). */
  messagesTruncated: { conversationId: string; fromMessageId: string };
  /** Text appended to a streaming answer since the previous delta (batched on the host). */
  streamDelta: { conversationId: string; messageId: string; text?: string; thinking?: string };
  streamFinished: {
    conversationId: string;
    messageId: string;
    status: Exclude<ChatMessageStatus, 'streaming' | 'queued'>;
    usage?: ChatUsage;
    stopReason?: string | null;
    model?: string;
  };
  errorCard: { conversationId: string; messageId: string; card: ErrorCard | null };
  models: { models: ModelOption[]; problem?: string };
  settings: { conversationId: string; settings: ConversationSettings; warning?: string };
  busy: { busy: boolean };
  attachments: { attachments: ChatAttachment[] };
  focusInput: object;
  /** A workspace image to attach (Ask about This Image): the page scales it and hands it back with addImage. */
  attachImage: { name: string; mediaType: ImageMediaType; data: string };
  /** Shows the conversation list; toggle: closes it instead when it shows (the title bar's button pressed again). */
  showConversations: { toggle?: boolean };
  mode: { conversationId: string; mode: ChatMode };
  agentAvailability: { availability: AgentAvailability };
  /** Adds or replaces one tool card of an agent answer. */
  agentTool: { conversationId: string; messageId: string; tool: AgentToolCard };
  agentUsage: { conversationId: string; messageId: string; step: AgentStepUsage; turn: TokenCounts };
  /** A 429 wait inside the loop (until: epoch ms), or null when the wait is over. */
  agentWait: { conversationId: string; messageId: string; until: number | null };
  agentNote: { conversationId: string; messageId: string; note: string };
  /** Earlier turns were condensed for this turn (the summary card). */
  agentCondensed: { conversationId: string; messageId: string; condensed: AgentCondensed };
  agentEnd: { conversationId: string; messageId: string; end: AgentTurnEnd };
  agentRestored: { conversationId: string; messageId: string };
  changes: { changes: PendingChangeView[] };
};

// ---- webview → host: requests (each gets a reply: its result, or the refusal to show) ----

export type ChangeAction = 'open' | 'accept' | 'reject';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['open', 'accept', 'reject'];

type Ack<P> = { params: P; result: undefined };

export type ChatRequests = {
  send: Ack<{ text: string }>;
  stop: Ack<object>;
  regenerate: Ack<{ messageId: string }>;
  editAndResend: Ack<{ messageId: string; text: string }>;
  continue: Ack<{ messageId: string }>;
  newConversation: Ack<object>;
  selectConversation: Ack<{ conversationId: string }>;
  deleteConversation: Ack<{ conversationId: string }>;
  /** Conversations whose title or text matches. */
  searchConversations: { params: { query: string }; result: ConversationSummary[] };
  setModel: Ack<{ model: string }>;
  setMaxTokens: Ack<{ maxTokens: number }>;
  setSystemPrompt: Ack<{ systemPrompt: string }>;
  removeAttachment: Ack<{ attachmentId: string }>;
  /** The @-mention list for what follows the `@` (files and folders ranked, plus the other kinds that match). */
  mentionSearch: { params: { query: string }; result: MentionOption[] };
  /** Resolves an @-mention on the host and adds it to the pending attachments (a refusal says why not). */
  addMention: Ack<{ kind: MentionKind; path?: string }>;
  /** Adds an image the page pasted, dropped or read (and scaled) to the pending attachments. */
  addImage: Ack<AddImageParams>;
  /** The bytes of a workspace image for the page to scale (the same rules as an @-mentioned file). */
  readImage: { params: { path: string }; result: { name: string; mediaType: ImageMediaType; data: string } };
  copy: Ack<{ text: string }>;
  insertCode: Ack<{ code: string; languageId?: string }>;
  openCodeInEditor: Ack<{ code: string; languageId?: string }>;
  openLink: Ack<{ href: string }>;
  errorAction: Ack<{ messageId: string; action: ErrorActionId }>;
  setMode: Ack<{ mode: ChatMode }>;
  /** The answer to a tool call's approval prompt (toolUseId is the approval's id). */
  approval: Ack<{ toolUseId: string; approved: boolean }>;
  change: Ack<{ changeId: string; action: ChangeAction }>;
  changesAll: Ack<{ action: 'accept' | 'reject' }>;
  /** Reverts the workspace to before the agent turn of this answer. */
  restoreCheckpoint: Ack<{ messageId: string }>;
  /** Switches the conversation to Agent mode and sends this Plan-mode answer's plan as the task. */
  actOnPlan: Ack<{ messageId: string }>;
  /** Opens one of the project instruction files this answer was sent with (by its index there). */
  openInstructions: Ack<{ messageId: string; index: number }>;
};

export type ChatShapes = {
  toWebview: ChatToWebview;
  toHost: Record<never, object>;
  requests: ChatRequests;
};

export type HostToWebviewMessage = MessageOf<ChatToWebview>;
export type WebviewToHostMessage = RequestOf<ChatShapes>;
export type WebviewToHostType = WebviewToHostMessage['type'];

// ---- runtime checks ----

/** Upper bounds on what the webview may send (a question, a code block, a link). */
export const LIMITS = {
  id: 128,
  text: 1_000_000,
  code: 8_000_000,
  href: 8_192,
  query: 500,
  path: 4_096,
  model: 200,
  systemPrompt: 100_000,
  maxTokens: 1_000_000,
  /** Base64 characters of one image (5 MB of bytes). */
  image: Math.ceil(IMAGE_LIMITS.maxBytes / 3) * 4,
} as const;

const base64 =
  (max: number): Check<string> =>
  (v): v is string =>
    typeof v === 'string' && v.length >= 4 && v.length <= max && v.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(v);
const languageId = matches(/^[A-Za-z0-9_.+#-]{1,64}$/);
// What the host sends is checked for shape, not bounded: answers and files may be long.
const text = str(Number.MAX_SAFE_INTEGER);
const many = <T>(check: Check<T>) => arr(check, 1_000_000);

// An image as a page may show it: a data URL of an image type, nothing that loads from anywhere.
const thumbnail = matches(
  new RegExp(`^data:image/(png|jpeg|webp);base64,[A-Za-z0-9+/]{1,${IMAGE_LIMITS.thumbnailChars}}={0,2}$`),
);
const imageSize = obj<NonNullable<ChatImage['original']>>({ width: num, height: num, bytes: num });
const chatImage = obj<ChatImage>({
  mediaType: oneOf(IMAGE_MEDIA_TYPES),
  width: num,
  height: num,
  bytes: num,
  hash: matches(/^[0-9a-f]{64}$/),
  thumbnail,
  original: opt(imageSize),
});
const attachmentFields: Fields<ChatAttachment> = {
  id: text,
  kind: oneOf(ATTACHMENT_KINDS),
  path: text,
  languageId: text,
  text,
  startLine: opt(num),
  endLine: opt(num),
  tokens: opt(num),
  truncated: opt(bool),
  image: opt(chatImage),
};
const attachment = obj(attachmentFields);
const mentionOption = obj<MentionOption>({
  kind: oneOf(MENTION_KINDS),
  path: opt(text),
  detail: opt(text),
  tokens: opt(num),
  unavailable: opt(bool),
  image: opt(bool),
});
const costFields: Fields<ChatCost> = {
  amount: num,
  source: oneOf(['billed', 'gateway', 'user'] as const),
  estimate: bool,
  partial: opt(bool),
};
const cost = obj(costFields);
const usage = obj<ChatUsage>({
  input: num,
  output: num,
  cacheRead: num,
  cacheWrite: num,
  cost: opt(cost),
  estimated: opt(bool),
  notReported: opt(bool),
});
const instructionsUsed = obj<InstructionsUsed>({
  files: many(
    obj<InstructionsUsed['files'][number]>({ name: text, path: text, truncated: opt(bool), omitted: opt(bool) }),
  ),
  notes: opt(many(text)),
});
const errorCard = obj<ErrorCard>({
  title: text,
  detail: text,
  actions: many(oneOf(ERROR_ACTIONS)),
  kind: opt(text),
  status: opt(num),
  requestId: opt(text),
  retryAfterMs: opt(num),
  queuedUntil: opt(num),
  outcomeUnknown: opt(bool),
});
const tokenFields: Fields<TokenCounts> = {
  input: num,
  output: num,
  cacheRead: num,
  cacheWrite: num,
  estimated: opt(bool),
};
const tokens = obj(tokenFields);
const toolCard = obj<AgentToolCard>({
  id: text,
  step: num,
  name: text,
  summary: text,
  fullSummary: opt(text),
  status: oneOf(['proposed', 'asking', 'running', 'done', 'error', 'refused', 'rejected'] as const),
  ask: opt(
    obj<NonNullable<AgentToolCard['ask']>>({
      kind: oneOf(['approve', 'review'] as const),
      reason: text,
      command: opt(text),
      paths: opt(many(text)),
      fullPaths: opt(many(text)),
    }),
  ),
  note: opt(text),
  progress: opt(text),
  result: opt(text),
  resultTruncated: opt(bool),
  textAt: opt(num),
});
const stepUsage = obj<AgentStepUsage>({ step: num, tokens, cost: opt(cost) });
const turnEnd = obj<AgentTurnEnd>({ reason: text, message: text, retry: bool });
const condensedFields: Fields<AgentCondensed> = { through: text, summary: text, tokens, cost: opt(cost) };
const condensedCheck = obj(condensedFields);
const turnInfo = obj<AgentTurnInfo>({
  turnId: text,
  tools: many(toolCard),
  steps: many(stepUsage),
  tokens: opt(tokens),
  notes: opt(many(text)),
  end: opt(turnEnd),
  waitUntil: opt(num),
  restored: opt(bool),
  mode: opt(oneOf(['plan'] as const)),
  condensed: opt(condensedCheck),
});
const change = obj<PendingChangeView>({
  id: text,
  kind: oneOf(['edit', 'create', 'delete'] as const),
  path: text,
  added: num,
  removed: num,
  toolUseId: opt(text),
});
const availability: Check<AgentAvailability> = anyOf<AgentAvailability>(
  obj<{ ok: true }>({ ok: oneOf([true] as const) }),
  obj<{ ok: false; reason: string }>({ ok: oneOf([false] as const), reason: text }),
);
const messageStatus = oneOf<ChatMessageStatus>(['streaming', 'complete', 'stopped', 'cutOff', 'error', 'queued']);
const message = obj<ChatMessage>({
  id: text,
  role: oneOf(['user', 'assistant'] as const),
  text,
  thinking: opt(text),
  attachments: opt(many(attachment)),
  status: messageStatus,
  model: opt(text),
  usage: opt(usage),
  stopReason: opt(nullable(text)),
  error: opt(errorCard),
  createdAt: num,
  agent: opt(turnInfo),
  instructions: opt(instructionsUsed),
  condensed: opt(condensedCheck),
});
const conversation = obj<ConversationSummary>({
  id: text,
  title: text,
  updatedAt: num,
  messageCount: num,
  mode: opt(oneOf(CHAT_MODES)),
});
const settings = obj<ConversationSettings>({ model: text, maxTokens: num, systemPrompt: text });
const model = obj<ModelOption>({ id: text, vision: opt(bool) });
const chatSnapshot = obj<ChatSnapshot>({
  conversations: many(conversation),
  activeId: text,
  messages: many(message),
  settings,
  models: many(model),
  modelsProblem: opt(text),
  busy: bool,
  attachments: many(attachment),
  mode: opt(oneOf(CHAT_MODES)),
  agent: opt(availability),
  changes: opt(many(change)),
});
const inConversation = { conversationId: text, messageId: text };
const nothing: Fields<object> = {};

export const chatProtocol: Protocol<ChatShapes> = {
  name: 'chat',
  toWebview: {
    snapshot: { snapshot: chatSnapshot },
    conversations: { conversations: many(conversation), activeId: text },
    messageAppended: { conversationId: text, message },
    messageUpdated: { conversationId: text, message },
    messagesTruncated: { conversationId: text, fromMessageId: text },
    streamDelta: { ...inConversation, text: opt(text), thinking: opt(text) },
    streamFinished: {
      ...inConversation,
      status: oneOf(['complete', 'stopped', 'cutOff', 'error'] as const),
      usage: opt(usage),
      stopReason: opt(nullable(text)),
      model: opt(text),
    },
    errorCard: { ...inConversation, card: nullable(errorCard) },
    models: { models: many(model), problem: opt(text) },
    settings: { conversationId: text, settings, warning: opt(text) },
    busy: { busy: bool },
    attachments: { attachments: many(attachment) },
    focusInput: nothing,
    attachImage: { name: text, mediaType: oneOf(IMAGE_MEDIA_TYPES), data: text },
    showConversations: { toggle: opt(bool) },
    mode: { conversationId: text, mode: oneOf(CHAT_MODES) },
    agentAvailability: { availability },
    agentTool: { ...inConversation, tool: toolCard },
    agentUsage: { ...inConversation, step: stepUsage, turn: tokens },
    agentWait: { ...inConversation, until: nullable(num) },
    agentNote: { ...inConversation, note: text },
    agentCondensed: { ...inConversation, condensed: condensedCheck },
    agentEnd: { ...inConversation, end: turnEnd },
    agentRestored: inConversation,
    changes: { changes: many(change) },
  },
  toHost: {},
  requests: {
    send: { params: { text: str(LIMITS.text) }, result: none },
    stop: { params: nothing, result: none },
    regenerate: { params: { messageId: id }, result: none },
    editAndResend: { params: { messageId: id, text: str(LIMITS.text, 1) }, result: none },
    continue: { params: { messageId: id }, result: none },
    newConversation: { params: nothing, result: none },
    selectConversation: { params: { conversationId: id }, result: none },
    deleteConversation: { params: { conversationId: id }, result: none },
    searchConversations: { params: { query: str(LIMITS.query) }, result: many(conversation), timeoutMs: 30_000 },
    setModel: { params: { model: str(LIMITS.model) }, result: none },
    setMaxTokens: { params: { maxTokens: int(1, LIMITS.maxTokens) }, result: none },
    setSystemPrompt: { params: { systemPrompt: str(LIMITS.systemPrompt) }, result: none },
    removeAttachment: { params: { attachmentId: id }, result: none },
    mentionSearch: { params: { query: str(LIMITS.query) }, result: arr(mentionOption, 200), timeoutMs: 30_000 },
    addMention: { params: { kind: oneOf(MENTION_KINDS), path: opt(str(LIMITS.path, 1)) }, result: none },
    addImage: {
      params: { name: str(LIMITS.path, 1), data: base64(LIMITS.image), thumbnail, original: opt(imageSize) },
      result: none,
    },
    readImage: {
      params: { path: str(LIMITS.path, 1) },
      result: obj<ChatRequests['readImage']['result']>({ name: text, mediaType: oneOf(IMAGE_MEDIA_TYPES), data: text }),
      timeoutMs: 30_000,
    },
    copy: { params: { text: str(LIMITS.code) }, result: none },
    insertCode: { params: { code: str(LIMITS.code), languageId: opt(languageId) }, result: none },
    openCodeInEditor: { params: { code: str(LIMITS.code), languageId: opt(languageId) }, result: none },
    openLink: { params: { href: str(LIMITS.href, 1) }, result: none },
    errorAction: { params: { messageId: id, action: oneOf(ERROR_ACTIONS) }, result: none },
    setMode: { params: { mode: oneOf(CHAT_MODES) }, result: none },
    approval: { params: { toolUseId: id, approved: bool }, result: none },
    change: { params: { changeId: id, action: oneOf(CHANGE_ACTIONS) }, result: none },
    changesAll: { params: { action: oneOf(['accept', 'reject'] as const) }, result: none },
    restoreCheckpoint: { params: { messageId: id }, result: none },
    actOnPlan: { params: { messageId: id }, result: none },
    openInstructions: { params: { messageId: id, index: int(0, 100) }, result: none },
  },
};

export const chatGuard = guard(chatProtocol);

/**
 * The same checks, lenient, for what the chat history stored (src/chat/history.ts): a damaged or older field is
 * dropped instead of the whole record, and what is kept is what the page's guard accepts.
 */
export const storedChat = {
  cost: lenient(costFields, ['amount', 'source', 'estimate']),
  tokens: lenient(tokenFields, ['input', 'output', 'cacheRead', 'cacheWrite']),
  attachment: lenient(attachmentFields, ['id', 'kind', 'path', 'languageId', 'text']),
  condensed: lenient(condensedFields, ['through', 'summary', 'tokens']),
};
