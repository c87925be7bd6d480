// Messages of the chat webview, both directions (see docs/architecture.md#webview-messages). Pure: no `vscode` import.
// Their shapes are in ./chatShapes.ts (re-exported here); this file holds their runtime checks, declared once as a
// Protocol (./channel.ts): the host validates every incoming message with chatGuard.toHost, the webview every host
// message with chatGuard.toWebview, and the history loader reads stored messages through the same checks (storedChat).
import { IMAGE_LIMITS, IMAGE_MEDIA_TYPES } from '../imageFormat';
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
  type Protocol,
} from './channel';
import {
  ATTACHMENT_KINDS,
  MENTION_KINDS,
  ERROR_ACTIONS,
  CHAT_MODES,
  CHANGE_ACTIONS,
  REASONING_CHOICES,
  type ChatMessageStatus,
  type ChatAttachment,
  type ChatImage,
  type ChatRequests,
  type MentionOption,
  type ChatUsage,
  type AgentSubagentCard,
  type ErrorCard,
  type AgentToolCard,
  type AgentStepUsage,
  type AgentTurnEnd,
  type AgentTurnInfo,
  type AgentCondensed,
  type PendingChangeView,
  type HunkView,
  type AgentAvailability,
  type InstructionsUsed,
  type ChatMessage,
  type ConversationSummary,
  type ConversationSettings,
  type ModelOption,
  type ApprovalSummary,
  type ChatSnapshot,
  type ChatShapes,
} from './chatShapes';

export * from './chatShapes';

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
const tokenFields: Fields<TokenCounts> = {
  input: num,
  output: num,
  cacheRead: num,
  cacheWrite: num,
  estimated: opt(bool),
};
const tokens = obj(tokenFields);
// A usage is token counts (ChatUsage extends TokenCounts) with what they cost.
const usage = obj<ChatUsage>({ ...tokenFields, cost: opt(cost), notReported: opt(bool) });
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
  subagent: opt(text),
});
const subagentCard = obj<AgentSubagentCard>({
  id: text,
  task: text,
  role: oneOf(['explore', 'edit'] as const),
  model: text,
  status: oneOf(['running', 'done', 'stopped', 'error'] as const),
  steps: num,
  toolCalls: num,
  tokens,
  cost: opt(cost),
  notReported: opt(bool),
  message: opt(text),
  result: opt(text),
  modelRefused: opt(bool),
  agent: opt(obj<NonNullable<AgentSubagentCard['agent']>>({ name: text, path: text })),
  notes: opt(many(text)),
  waitUntil: opt(num),
});
const stepUsage = obj<AgentStepUsage>({ step: num, tokens, cost: opt(cost) });
const turnEnd = obj<AgentTurnEnd>({ reason: text, message: text, retry: bool, unchanged: opt(bool) });
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
  continued: opt(bool),
  subagents: opt(many(subagentCard)),
});
const hunk = obj<HunkView>({ key: text, line: num, added: num, removed: num, preview: text });
const change = obj<PendingChangeView>({
  id: text,
  kind: oneOf(['edit', 'create', 'delete'] as const),
  path: text,
  added: num,
  removed: num,
  toolUseId: opt(text),
  hunks: opt(many(hunk)),
});
const availability: Check<AgentAvailability> = anyOf<AgentAvailability>(
  obj<{ ok: true }>({ ok: oneOf([true] as const) }),
  obj<{ ok: false; reason: string }>({ ok: oneOf([false] as const), reason: text }),
);
const messageStatus = oneOf<ChatMessageStatus>(['streaming', 'complete', 'stopped', 'cutOff', 'error', 'queued']);
/** The fields of a chat message: the page's check, and the table the history loader reads stored messages by. */
const messageFields: Fields<ChatMessage> = {
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
};
const message = obj(messageFields);
const conversation = obj<ConversationSummary>({
  id: text,
  title: text,
  updatedAt: num,
  messageCount: num,
  mode: opt(oneOf(CHAT_MODES)),
});
const settings = obj<ConversationSettings>({ model: text, maxTokens: num, systemPrompt: text });
const model = obj<ModelOption>({
  id: text,
  vision: opt(bool),
  kind: opt(text),
  window: opt(num),
  price: opt(obj<NonNullable<ModelOption['price']>>({ input: opt(num), output: opt(num) })),
  reasons: opt(bool),
  reasoning: opt(oneOf(REASONING_CHOICES)),
});
const approvals = obj<ApprovalSummary>({ writes: bool, commands: num });
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
  approvals: opt(approvals),
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
    agentSubagent: { ...inConversation, subagent: subagentCard, usage: opt(usage) },
    agentWait: { ...inConversation, until: nullable(num) },
    agentNote: { ...inConversation, note: text },
    agentCondensed: { ...inConversation, condensed: condensedCheck },
    condensing: { ...inConversation, running: bool },
    context: { conversationId: id, used: num, window: num, condenseAt: num, condensable: bool },
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
    condense: { params: nothing, result: none, timeoutMs: 600_000 },
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
    changeHunk: { params: { changeId: id, hunk: id, action: oneOf(['accept', 'reject'] as const) }, result: none },
    restoreCheckpoint: { params: { messageId: id }, result: none },
    actOnPlan: { params: { messageId: id }, result: none },
    openInstructions: { params: { messageId: id, index: int(0, 100) }, result: none },
    openApprovalSettings: { params: nothing, result: none },
    setReasoning: { params: { model: str(LIMITS.model, 1), level: oneOf(REASONING_CHOICES) }, result: none },
  },
};

export const chatGuard = guard(chatProtocol);

/**
 * The same checks, lenient, for what the chat history stored (src/chat/store/history.ts): a damaged or older field is
 * dropped instead of the whole record, and what is kept is what the page's guard accepts.
 */
export const storedChat = {
  cost: lenient(costFields, ['amount', 'source', 'estimate']),
  tokens: lenient(tokenFields, ['input', 'output', 'cacheRead', 'cacheWrite']),
  attachment: lenient(attachmentFields, ['id', 'kind', 'path', 'languageId', 'text']),
  condensed: lenient(condensedFields, ['through', 'summary', 'tokens']),
  /** Every field of a message: the history reads each one back (src/chat/store/history.ts STORED_FIELDS). */
  messageFields,
};
