// All conversations in memory, persisted through a HistoryStorage (pure: the host adapter does the I/O).
import type { ConversationSummary } from '../shared/protocol/chat';
import { createConversation, searchConversations, sortByRecent, summarize, type Conversation } from './conversation';
import {
  conversationFile,
  INDEX_FILE,
  parseConversation,
  parseIndex,
  serializeConversation,
  serializeIndex,
  type HistoryStorage,
} from './history';
import { english, type Localizer } from '../shared/l10n';

export class ConversationStore {
  private readonly conversations = new Map<string, Conversation>();
  private activeId = '';
  /** Until the history is read, the index is not written (it would list only what was read so far). */
  private loaded = false;
  /** Writes are chained so a slow write never lands after a newer one. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: HistoryStorage,
    private readonly newId: () => string,
    private readonly now: () => number,
    private readonly onWriteError: (error: unknown) => void = () => undefined,
    /** The words added to turns the window closed on (stored cards keep theirs). */
    private readonly l10n: Localizer = english,
  ) {}

  async load(): Promise<void> {
    const index = parseIndex(await this.storage.read(INDEX_FILE));
    // All files at once: each read is a round trip through VS Code's file service, and a slow load is a window in
    // which the view waits for its state.
    const texts = await Promise.all(index.conversations.map((entry) => this.storage.read(conversationFile(entry.id))));
    // From here on one synchronous step. A conversation made while the files were read (something asked for the
    // active one) is kept only if it holds messages; the index is written only now, so it never lists half the
    // history (written earlier and followed by a closed window, it would have lost the rest).
    const made = new Map(this.conversations);
    this.conversations.clear();
    index.conversations.forEach((entry, i) => {
      const conversation = parseConversation(texts[i], this.l10n);
      if (conversation && conversation.id === entry.id) this.conversations.set(conversation.id, conversation);
    });
    let keptMade = false;
    for (const [id, conversation] of made) {
      if (conversation.messages.length === 0 || this.conversations.has(id)) continue;
      this.conversations.set(id, conversation);
      keptMade = true;
    }
    const madeActive = keptMade && this.conversations.has(this.activeId) ? this.activeId : undefined;
    const indexActive = index.activeId && this.conversations.has(index.activeId) ? index.activeId : undefined;
    this.loaded = true;
    const recent = madeActive ?? indexActive ?? sortByRecent(this.all())[0]?.id;
    if (recent) this.activeId = recent;
    else this.create();
    if (keptMade) this.saveIndex();
  }

  get active(): Conversation {
    return this.conversations.get(this.activeId) ?? this.create();
  }

  get(id: string): Conversation | undefined {
    return this.conversations.get(id);
  }

  all(): Conversation[] {
    return [...this.conversations.values()];
  }

  summaries(): ConversationSummary[] {
    return sortByRecent(this.all()).map((c) => summarize(c, this.l10n));
  }

  search(query: string): ConversationSummary[] {
    return searchConversations(this.all(), query).map((c) => summarize(c, this.l10n));
  }

  /** A new empty conversation, made active. An already empty active conversation is reused. */
  create(): Conversation {
    const current = this.conversations.get(this.activeId);
    if (current && current.messages.length === 0) return current;
    const conversation = createConversation(this.newId(), this.now());
    this.conversations.set(conversation.id, conversation);
    this.activeId = conversation.id;
    this.saveIndex();
    return conversation;
  }

  select(id: string): Conversation | undefined {
    const conversation = this.conversations.get(id);
    if (!conversation) return undefined;
    this.activeId = id;
    this.saveIndex();
    return conversation;
  }

  /** Deletes; when it was the active one, the most recent other (or a new one) becomes active. */
  delete(id: string): boolean {
    if (!this.conversations.delete(id)) return false;
    this.enqueue(() => this.storage.remove(conversationFile(id)));
    if (this.activeId === id) {
      this.activeId = sortByRecent(this.all())[0]?.id ?? '';
      if (!this.activeId) this.create();
    }
    this.saveIndex();
    return true;
  }

  save(conversation: Conversation): void {
    if (!this.conversations.has(conversation.id)) return;
    const data = serializeConversation(conversation);
    this.enqueue(() => this.storage.write(conversationFile(conversation.id), data));
    this.saveIndex();
  }

  /** Resolves when every write so far has finished. */
  flushed(): Promise<void> {
    return this.writes;
  }

  private saveIndex(): void {
    if (!this.loaded) return;
    const data = serializeIndex(this.all(), this.activeId);
    this.enqueue(() => this.storage.write(INDEX_FILE, data));
  }

  private enqueue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch(this.onWriteError);
  }
}
