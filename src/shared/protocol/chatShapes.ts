// The shapes of the chat webview's messages, both directions (types and their literal lists). Pure. Their runtime
// checks and the protocol are in ./chat.ts, which re-exports everything here.
import type { ImageMediaType } from '../imageFormat';
import type { ChatCost } from '../money';
import type { TokenCounts } from '../tokens';
import type { MessageOf, RequestOf } from './channel';

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
  /** A sub-agent's call: the id of its sub-agent card (the card's id is scoped to it, and it is shown in that card). */
  subagent?: string;
}

/** running; done (its report went back); stopped (Stop, a budget, a window reload); error (a refused model, a failure). */
export type AgentSubagentStatus = 'running' | 'done' | 'stopped' | 'error';

/** A sub-agent started by the agent (start_subagent): its model, task, steps, calls, tokens and cost, and its report. */
export interface AgentSubagentCard {
  /** The parent's start_subagent tool_use id. */
  id: string;
  task: string;
  role: 'explore' | 'edit';
  /** The model it ran on (the user's modelGateway.agent.subagentModel, else the conversation's). */
  model: string;
  status: AgentSubagentStatus;
  steps: number;
  toolCalls: number;
  tokens: TokenCounts;
  /** Billed where the gateway says, else priced (estimate marked). */
  cost?: ChatCost;
  /** The gateway sent zeros on a step with content: its tokens are estimates. */
  notReported?: boolean;
  /** Why it ended, in the user's words. */
  message?: string;
  /** The report the agent got back (untrusted text, rendered as text; capped). */
  result?: string;
  /** The gateway refused its model: it stopped, no other model was tried. */
  modelRefused?: boolean;
  /** The repository's agent definition it follows ("using agent X from <path>"). */
  agent?: { name: string; path: string };
  /** What of that definition was not followed (a model or tools the user did not allow), in English. */
  notes?: string[];
  /** Epoch ms until which its 429 wait lasts (the key's one queue; not kept across a reload). */
  waitUntil?: number;
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
  /** The turn only read (or its calls were refused): nothing to restore, so no Restore is offered. */
  unchanged?: boolean;
}

/**
 * End reasons whose message says "Continue to let the agent go on": the turn was cut by a budget, not finished.
 * Continue starts the next turn from where this one stopped (its tool calls and results are sent again).
 */
export const CONTINUABLE_END_REASONS: readonly string[] = ['step_budget', 'token_budget', 'daily_budget'];

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
  /** The user's Continue after a budget stop: this turn goes on past the daily budget (modelGateway.budget.daily). */
  continued?: boolean;
  /** The sub-agents this turn started (their calls are in `tools`, marked with `subagent`). */
  subagents?: AgentSubagentCard[];
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
  /** An edit's parts still pending, each with its own Accept / Reject (key: what the host names it by). */
  hunks?: HunkView[];
}

/** One hunk of a pending edit: where the diff's right side shows it (1-based line), its size, its first line. */
export interface HunkView {
  key: string;
  line: number;
  added: number;
  removed: number;
  preview: string;
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
  /** The catalog's kind ('chat' here: only chat models are offered). */
  kind?: string;
  /** Tokens the model takes, where the model list says (input limit, else the whole window). */
  window?: number;
  /** Per million tokens (the user's modelGateway.prices, else the gateway's list), where known. */
  price?: { input?: number; output?: number };
  /** Whether the model is believed to reason (src/catalog/reasoning.ts): the composer offers its Reasoning control. */
  reasons?: boolean;
  /** The user's modelGateway.models.reasoning entry for this model (user settings only); absent: the default. */
  reasoning?: ReasoningChoice;
}

/** The composer's Reasoning choices: 'default' removes the model's entry from modelGateway.models.reasoning. */
export const REASONING_CHOICES = ['default', 'off', 'low', 'medium', 'high'] as const;
export type ReasoningChoice = (typeof REASONING_CHOICES)[number];

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
  /** What the agent runs without asking now (the user's own settings; shown in Agent and Plan mode). */
  approvals?: ApprovalSummary;
}

/** The user's auto-approval settings as the composer shows them (display only: the policy reads the settings). */
export interface ApprovalSummary {
  /** modelGateway.agent.autoApproveWrites (user value). */
  writes: boolean;
  /** How many entries modelGateway.agent.commandAllowList holds (user value). */
  commands: number;
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
  /** Adds or replaces one sub-agent card; `usage`: the answer's footer figures (the turn and its sub-agents). */
  agentSubagent: { conversationId: string; messageId: string; subagent: AgentSubagentCard; usage?: ChatUsage };
  /** A 429 wait inside the loop (until: epoch ms), or null when the wait is over. */
  agentWait: { conversationId: string; messageId: string; until: number | null };
  agentNote: { conversationId: string; messageId: string; note: string };
  /** Earlier turns were condensed for this turn (the summary card). */
  agentCondensed: { conversationId: string; messageId: string; condensed: AgentCondensed };
  /**
   * The context meter: the estimated tokens of the open conversation's next request (after an agent turn, its last
   * request's reported input and output), the model's context window as the meter names it, and the tokens past which
   * the next question condenses older turns (modelGateway.agent.condenseThreshold of the window minus max tokens);
   * `condensable`: there are older turns to condense (more than the last CONDENSE_KEEP_TURNS, always kept whole).
   */
  context: { conversationId: string; used: number; window: number; condenseAt: number; condensable: boolean };
  /** Older turns are being condensed now (the card on this answer shows it); false: ended (done, stopped, failed). */
  condensing: { conversationId: string; messageId: string; running: boolean };
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
  /** The context meter's Condense: the Condense Conversation action. */
  condense: Ack<object>;
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
  /** Accepts or rejects one hunk of a pending edit (the hunk's key as the last `changes` listed it). */
  changeHunk: Ack<{ changeId: string; hunk: string; action: 'accept' | 'reject' }>;
  /** Reverts the workspace to before the agent turn of this answer. */
  restoreCheckpoint: Ack<{ messageId: string }>;
  /** Switches the conversation to Agent mode and sends this Plan-mode answer's plan as the task. */
  actOnPlan: Ack<{ messageId: string }>;
  /** Opens one of the project instruction files this answer was sent with (by its index there). */
  openInstructions: Ack<{ messageId: string; index: number }>;
  openApprovalSettings: Ack<object>;
  /** Writes the user's (global) modelGateway.models.reasoning[model]; 'default' removes the entry. */
  setReasoning: Ack<{ model: string; level: ReasoningChoice }>;
};

export type ChatShapes = {
  toWebview: ChatToWebview;
  toHost: Record<never, object>;
  requests: ChatRequests;
};

export type HostToWebviewMessage = MessageOf<ChatToWebview>;
export type WebviewToHostMessage = RequestOf<ChatShapes>;
export type WebviewToHostType = WebviewToHostMessage['type'];
