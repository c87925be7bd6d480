// What the chat session tells the page (pure): one named method per notification, so the session never builds a
// protocol message by hand; and the writer that appends an answer's streamed text and posts it in batches.
import type {
  AgentCondensed,
  ChatAttachment,
  ChatMessage,
  ChatMode,
  ChatSnapshot,
  ConversationSettings,
  ConversationSummary,
  ErrorCard,
  HostToWebviewMessage,
  ModelOption,
} from '../../shared/protocol/chat';
import { redactDeep, redactKnownSecrets } from '../../shared/secretRedaction';
import { StreamRedactor } from '../../shared/streamRedaction';
import { DeltaBatcher, type Timers } from './deltaBatcher';
import type { ChatRequest } from './requestSlot';

export interface ChatOutput {
  snapshot(snapshot: ChatSnapshot): void;
  /** Also tells VS Code (the view's progress and context key). */
  busy(busy: boolean): void;
  conversations(conversations: ConversationSummary[], activeId: string): void;
  mode(conversationId: string, mode: ChatMode): void;
  settings(conversationId: string, settings: ConversationSettings, warning?: string): void;
  models(models: ModelOption[], problem?: string): void;
  attachments(attachments: ChatAttachment[]): void;
  appended(conversationId: string, message: ChatMessage): void;
  /** Replaces one message (status, error card, final text); never per delta. */
  updated(conversationId: string, message: ChatMessage): void;
  truncated(conversationId: string, fromMessageId: string): void;
  delta(conversationId: string, messageId: string, text: string, thinking: string): void;
  errorCard(conversationId: string, messageId: string, card: ErrorCard | null): void;
  /** The answer ended: its status, usage, stop reason and model as they stand on `message`. */
  finished(conversationId: string, message: ChatMessage): void;
  condensed(conversationId: string, messageId: string, condensed: AgentCondensed): void;
  /** Older turns are being condensed for this answer (a line on it), or that ended. */
  condensing(conversationId: string, messageId: string, running: boolean): void;
  restored(conversationId: string, messageId: string): void;
  /** An agent turn's own notifications (tool cards, usage, notes: src/chat/agent/agentEvents.ts builds them). */
  agent(message: HostToWebviewMessage): void;
}

/** Known secrets now (the key store's values): never shown on the page. */
export type KnownSecrets = () => Iterable<string>;

/**
 * The output over the webview channel (`post`) and VS Code's busy state (`setBusy`). Every message but a stream
 * delta (which answerWriter redacts as it streams) is redacted of the known secrets first, as the stored copy is:
 * a snapshot or an updated message holds the text as the model wrote it.
 */
export function pageOutput(
  toPage: (message: HostToWebviewMessage) => void,
  setBusy: (busy: boolean) => void,
  secrets: KnownSecrets = () => [],
): ChatOutput {
  const post = (message: HostToWebviewMessage): void => {
    const known = [...secrets()];
    toPage(
      known.length && message.type !== 'streamDelta'
        ? redactDeep(message, (text) => redactKnownSecrets(text, known))
        : message,
    );
  };
  return {
    snapshot: (snapshot) => post({ type: 'snapshot', snapshot }),
    busy: (busy) => {
      setBusy(busy);
      post({ type: 'busy', busy });
    },
    conversations: (conversations, activeId) => post({ type: 'conversations', conversations, activeId }),
    mode: (conversationId, mode) => post({ type: 'mode', conversationId, mode }),
    settings: (conversationId, settings, warning) => post({ type: 'settings', conversationId, settings, warning }),
    models: (models, problem) => post({ type: 'models', models, problem }),
    attachments: (attachments) => post({ type: 'attachments', attachments }),
    appended: (conversationId, message) => post({ type: 'messageAppended', conversationId, message }),
    updated: (conversationId, message) => post({ type: 'messageUpdated', conversationId, message }),
    truncated: (conversationId, fromMessageId) => post({ type: 'messagesTruncated', conversationId, fromMessageId }),
    delta: (conversationId, messageId, text, thinking) =>
      post({
        type: 'streamDelta',
        conversationId,
        messageId,
        ...(text ? { text } : {}),
        ...(thinking ? { thinking } : {}),
      }),
    errorCard: (conversationId, messageId, card) => post({ type: 'errorCard', conversationId, messageId, card }),
    finished: (conversationId, message) =>
      post({
        type: 'streamFinished',
        conversationId,
        messageId: message.id,
        status: message.status as Exclude<ChatMessage['status'], 'streaming' | 'queued'>,
        usage: message.usage,
        stopReason: message.stopReason,
        model: message.model,
      }),
    condensed: (conversationId, messageId, condensed) =>
      post({ type: 'agentCondensed', conversationId, messageId, condensed }),
    condensing: (conversationId, messageId, running) =>
      post({ type: 'condensing', conversationId, messageId, running }),
    restored: (conversationId, messageId) => post({ type: 'agentRestored', conversationId, messageId }),
    agent: post,
  };
}

export type TextWriter = ((kind: 'text' | 'thinking', text: string) => void) & { flush(): void };

/**
 * Appends streamed text and thinking to the request's answer and posts them about once per frame (`batchMs`); the
 * request's flush sends what waits. What is posted is redacted of the known secrets as it streams: a key split
 * across two deltas is held back until it is whole (src/shared/streamRedaction.ts), so the page never shows it.
 */
export function answerWriter(
  out: ChatOutput,
  request: ChatRequest,
  batchMs: number,
  timers: Timers,
  secrets: KnownSecrets = () => [],
): TextWriter {
  const { conversation, message } = request;
  const batcher = new DeltaBatcher(
    ({ text, thinking }) => out.delta(conversation.id, message.id, text, thinking),
    batchMs,
    timers,
  );
  const shown = { text: new StreamRedactor(secrets), thinking: new StreamRedactor(secrets) };
  const flush = (): void => {
    batcher.push('text', shown.text.end());
    batcher.push('thinking', shown.thinking.end());
    batcher.flush();
  };
  request.flush = flush;
  const write = (kind: 'text' | 'thinking', text: string): void => {
    if (kind === 'text') message.text += text;
    else message.thinking = (message.thinking ?? '') + text;
    batcher.push(kind, shown[kind].push(text));
  };
  return Object.assign(write, { flush });
}
