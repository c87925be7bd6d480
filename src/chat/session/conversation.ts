// The conversation model: plain data and pure functions over it (no `vscode` import).
import type { ChatMessage, ChatMode, ConversationSettings, ConversationSummary } from '../../shared/protocol/chat';
import { english, type Localizer } from '../../shared/l10n';

export interface Conversation {
  id: string;
  title: string;
  /** True once the user (or the first question) gave it a title; later questions keep it. */
  titled: boolean;
  createdAt: number;
  updatedAt: number;
  /** Overrides of the settings defaults; absent fields follow the settings. */
  overrides: Partial<ConversationSettings>;
  messages: ChatMessage[];
  /** Ask (absent) or Agent: chosen per conversation in the composer, kept in its history. */
  mode?: ChatMode;
}

export const UNTITLED = 'New chat';
const TITLE_MAX = 60;

/** A short, single-line title from the first question: no markdown noise, cut at a word boundary. */
export function deriveTitle(text: string): string {
  const cleaned = text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/\[\[[^\]]*\]\]/g, ' ')
    .replace(/[`*_#>~|]+/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!cleaned) return UNTITLED;
  if (cleaned.length <= TITLE_MAX) return cleaned;
  const cut = cleaned.slice(0, TITLE_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function createConversation(id: string, now: number): Conversation {
  return { id, title: UNTITLED, titled: false, createdAt: now, updatedAt: now, overrides: {}, messages: [] };
}

/** Effective settings: the conversation's overrides over the defaults. */
export function effectiveSettings(conversation: Conversation, defaults: ConversationSettings): ConversationSettings {
  return {
    model: conversation.overrides.model ?? defaults.model,
    maxTokens: conversation.overrides.maxTokens ?? defaults.maxTokens,
    systemPrompt: conversation.overrides.systemPrompt ?? defaults.systemPrompt,
  };
}

/** Adds a message; the first user question titles an untitled conversation. */
export function appendMessage(conversation: Conversation, message: ChatMessage, now: number): void {
  conversation.messages.push(message);
  conversation.updatedAt = now;
  if (!conversation.titled && message.role === 'user') {
    conversation.title = deriveTitle(message.text);
    conversation.titled = conversation.title !== UNTITLED;
  }
}

/** Removes the message with this id and every later one; returns false when the id is unknown. */
export function truncateFrom(conversation: Conversation, messageId: string): boolean {
  const index = conversation.messages.findIndex((m) => m.id === messageId);
  if (index < 0) return false;
  conversation.messages.length = index;
  return true;
}

export function findMessage(conversation: Conversation, messageId: string): ChatMessage | undefined {
  return conversation.messages.find((m) => m.id === messageId);
}

/** The list entry of a conversation; one not yet titled is called "New chat" in the user's language (`l10n`). */
export function summarize(conversation: Conversation, l10n: Localizer = english): ConversationSummary {
  const title = !conversation.titled && conversation.title === UNTITLED ? l10n.t('New chat') : conversation.title;
  return {
    id: conversation.id,
    title,
    updatedAt: conversation.updatedAt,
    messageCount: conversation.messages.length,
    ...(conversation.mode === 'agent' || conversation.mode === 'plan' ? { mode: conversation.mode } : {}),
  };
}

/** Newest first. */
export function sortByRecent<T extends { updatedAt: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => b.updatedAt - a.updatedAt);
}

/** Conversations whose title or any message contains every word of the query (case-insensitive). */
export function searchConversations(conversations: Conversation[], query: string): Conversation[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return sortByRecent(conversations);
  const matches = conversations.filter((c) => {
    const haystack = [c.title, ...c.messages.map((m) => m.text)].join('\n').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
  return sortByRecent(matches);
}
