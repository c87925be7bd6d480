// All conversations in memory, persisted through a HistoryStorage (pure: the host adapter does the I/O).
// Every window of the machine has its own store over the same files. The conversation files are the truth: a load
// lists them (the index only adds the active one); a save reads the file again under the lock and merges what
// another window wrote (historyMerge.ts) before replacing it; the index is merged, never replaced; a refresh (the
// folder changed) brings in what other windows made, changed or deleted.
import type { ConversationSummary } from '../../shared/protocol/chat';
import {
  createConversation,
  searchConversations,
  sortByRecent,
  summarize,
  type Conversation,
} from '../session/conversation';
import {
  conversationFile,
  conversationIdOf,
  INDEX_FILE,
  parseConversation,
  parseIndex,
  serializeConversation,
  serializeIndex,
  type HistoryStorage,
} from './history';
import { mergeConversation, type ConversationBase } from './historyMerge';
import { english, type Localizer } from '../../shared/l10n';

/** Folder events come in bursts (a write is a temp file and a rename): one refresh after they settle. */
const REFRESH_DELAY_MS = 100;

export class ConversationStore {
  private readonly conversations = new Map<string, Conversation>();
  private activeId = '';
  /** Until the history is read, the index is not written (it would list only what was read so far). */
  private loaded = false;
  /** Writes are chained so a slow write never lands after a newer one. */
  private writes: Promise<void> = Promise.resolve();
  /** Per conversation on disk: what this window last read or wrote, and the file's version then. */
  private readonly bases = new Map<string, ConversationBase>();
  private readonly versions = new Map<string, string | undefined>();
  /** Deleted here: not taken back from a listing made before the file was removed. */
  private readonly deletedHere = new Set<string>();
  /** Saves and an index write waiting in the chain (one each is enough: they write the latest state). */
  private readonly pendingSaves = new Set<string>();
  private indexPending = false;
  /** Told when another window's change reached the conversations here (set by follow). */
  private notify: () => void = () => undefined;

  constructor(
    private readonly storage: HistoryStorage,
    private readonly newId: () => string,
    private readonly now: () => number,
    private readonly onWriteError: (error: unknown) => void = () => undefined,
    /** The words added to turns the window closed on (stored cards keep theirs). */
    private readonly l10n: Localizer = english,
    /** Told when a file could not be read and was moved aside. */
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  async load(): Promise<void> {
    const index = await this.readIndex();
    // The files are the truth: every conversation file there is (another window's too), whatever the index says.
    const listed = this.storage.names
      ? await this.storage.names()
      : this.storage.list
        ? (await this.storage.list()).map((f) => f.name)
        : undefined;
    const ids = listed
      ? listed.map(conversationIdOf).filter((id): id is string => id !== undefined)
      : index.conversations.map((entry) => entry.id);
    // All files at once, each read with its version (one open): a slow load is a window in which the view waits.
    const reads = await Promise.all(
      ids.map((id) =>
        this.storage.readVersioned
          ? this.storage.readVersioned(conversationFile(id))
          : this.storage
              .read(conversationFile(id))
              .then((text) => (text === undefined ? undefined : { text, version: undefined })),
      ),
    );
    const texts = reads.map((r) => r?.text);
    // From here on one synchronous step. A conversation made while the files were read (something asked for the
    // active one) is kept only if it holds messages; the index is written only now, so it never lists half the
    // history (written earlier and followed by a closed window, it would have lost the rest).
    const made = new Map(this.conversations);
    this.conversations.clear();
    const unreadable: string[] = [];
    ids.forEach((id, i) => {
      const conversation = parseConversation(texts[i], this.l10n);
      if (conversation && conversation.id === id) {
        this.conversations.set(id, conversation);
        this.bases.set(id, serializeConversation(conversation));
        this.versions.set(id, reads[i]?.version);
      } else if (texts[i] !== undefined) unreadable.push(id);
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
    for (const id of unreadable) this.enqueue(() => this.setAside(conversationFile(id)));
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
    this.deletedHere.add(id);
    this.enqueue(() =>
      this.locked(async () => {
        await this.storage.remove(conversationFile(id));
        this.bases.delete(id);
        this.versions.delete(id);
      }),
    );
    this.pickActiveIfGone();
    this.saveIndex();
    return true;
  }

  save(conversation: Conversation): void {
    if (!this.conversations.has(conversation.id)) return;
    if (this.storage.locked) {
      // Shared storage: read, merge and write at the time of the write (one pending save per conversation).
      if (this.pendingSaves.has(conversation.id)) return;
      this.pendingSaves.add(conversation.id);
      this.enqueue(() => {
        this.pendingSaves.delete(conversation.id); // a save asked from here on writes again
        return this.locked(() => this.writeMerged(conversation));
      });
    } else {
      const data = serializeConversation(conversation);
      this.enqueue(() => this.storage.write(conversationFile(conversation.id), data));
    }
    this.saveIndex();
  }

  /** Resolves when every write so far has finished. */
  flushed(): Promise<void> {
    return this.writes;
  }

  /**
   * Reads what other windows made, changed or deleted since this window last looked (shared storage only); true
   * when the conversations here changed. `names`: only these files changed (the watcher said so; one stat each
   * instead of a stat of every file). Runs in the chain of writes, so never between a read and its write.
   */
  refresh(names?: readonly string[]): Promise<boolean> {
    let changed = false;
    this.enqueue(async () => {
      changed = await this.readChanges(false, names);
    });
    return this.writes.then(() => changed);
  }

  /**
   * Runs `prune` holding the history's lock, after reading every change on disk: `all` is then every conversation a
   * file names (and those made here), and no window can save a new one before `prune` ends. Pruning of turn records
   * and images goes through here, so it removes only what no conversation on disk names.
   */
  withAllOnDisk(prune: (all: Conversation[]) => Promise<void> | void): Promise<void> {
    const run = async () => {
      await this.readChanges(true);
      await prune(this.all());
    };
    this.enqueue(() => this.locked(run));
    return this.writes;
  }

  /**
   * Follows the storage: `onChange` is called after a refresh that changed something. Returns the function that
   * stops it (without a watchable storage: nothing to follow).
   */
  follow(onChange: () => void): () => void {
    this.notify = onChange;
    if (!this.storage.watch) return () => undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The files the events named since the last refresh; undefined: an event without a name (look at them all).
    let named: Set<string> | undefined = new Set();
    const stopWatching = this.storage.watch((name) => {
      if (name === undefined) named = undefined;
      else if (conversationIdOf(name) !== undefined) named?.add(name);
      else if (named) return; // the index, a temporary file, an image: nothing to read
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        const names = named ? [...named] : undefined;
        named = new Set();
        void this.refresh(names).then((changed) => changed && onChange(), this.onWriteError);
      }, REFRESH_DELAY_MS);
    });
    return () => {
      if (timer) clearTimeout(timer);
      stopWatching();
    };
  }

  /** `underLock`: the caller holds the lock already (it is not taken again to set a damaged file aside). */
  private async readChanges(underLock = false, names?: readonly string[]): Promise<boolean> {
    if (!this.storage.list || !this.loaded) return false;
    const onDisk = new Map<string, string>();
    // The files looked at: those named, or all of them.
    let scope: Set<string> | undefined;
    if (names && this.storage.version) {
      scope = new Set();
      for (const name of names) {
        const id = conversationIdOf(name);
        if (id === undefined) continue;
        scope.add(id);
        const version = await this.storage.version(name);
        if (version !== undefined) onDisk.set(id, version);
      }
    } else
      for (const f of await this.storage.list()) {
        const id = conversationIdOf(f.name);
        if (id !== undefined) onDisk.set(id, f.version);
      }
    let changed = false;
    for (const id of [...this.conversations.keys()]) {
      // Seen on disk before and gone now: deleted in another window.
      if ((!scope || scope.has(id)) && !onDisk.has(id) && this.bases.has(id)) {
        this.forgetDeleted(id);
        changed = true;
      }
    }
    for (const [id, version] of onDisk) {
      if (this.deletedHere.has(id) || this.versions.get(id) === version) continue;
      const text = await this.storage.read(conversationFile(id));
      const theirs = parseConversation(text, this.l10n);
      if (!theirs || theirs.id !== id) {
        const aside = () => this.setAside(conversationFile(id));
        if (text !== undefined) await (underLock ? aside() : this.locked(aside));
        continue;
      }
      const mine = this.conversations.get(id);
      if (mine) changed = mergeConversation(mine, theirs, this.bases.get(id)) || changed;
      else {
        this.conversations.set(id, theirs);
        changed = true;
      }
      this.bases.set(id, serializeConversation(theirs));
      this.versions.set(id, version);
    }
    if (changed) this.pickActiveIfGone();
    return changed;
  }

  /** The save of one conversation: another window's changes merged in, then the file replaced (under the lock). */
  private async writeMerged(conversation: Conversation): Promise<void> {
    if (!this.conversations.has(conversation.id)) return; // deleted while the save waited
    const name = conversationFile(conversation.id);
    const version = await this.storage.version?.(name);
    if (version === undefined && this.bases.has(conversation.id)) {
      // It was on disk and another window deleted it: the deletion stands (writing would bring it back).
      this.forgetDeleted(conversation.id);
      this.log(`conversation ${conversation.id} was deleted in another window; its changes here were not saved`);
      this.notify();
      return;
    }
    if (version !== undefined && version !== this.versions.get(conversation.id)) {
      const theirs = parseConversation(await this.storage.read(name), this.l10n);
      if (theirs?.id === conversation.id && mergeConversation(conversation, theirs, this.bases.get(conversation.id)))
        this.notify();
    }
    const data = serializeConversation(conversation);
    await this.storage.write(name, data);
    this.bases.set(conversation.id, data);
    this.versions.set(conversation.id, await this.storage.version?.(name));
  }

  private forgetDeleted(id: string): void {
    this.deletedHere.add(id); // and left out of the index from here on
    this.conversations.delete(id);
    this.bases.delete(id);
    this.versions.delete(id);
    this.pickActiveIfGone();
  }

  private pickActiveIfGone(): void {
    if (this.conversations.has(this.activeId)) return;
    this.activeId = sortByRecent(this.all())[0]?.id ?? '';
    if (!this.activeId) this.create();
  }

  private async readIndex(): Promise<ReturnType<typeof parseIndex>> {
    const text = await this.storage.read(INDEX_FILE);
    const index = parseIndex(text);
    if (text !== undefined && !parses(text)) await this.locked(() => this.setAside(INDEX_FILE));
    return index;
  }

  private async setAside(name: string): Promise<void> {
    if (this.storage.moveAside) await this.storage.moveAside(name);
    else this.log(`${name} could not be read`);
  }

  private saveIndex(): void {
    if (!this.loaded) return;
    if (!this.storage.locked) {
      const data = serializeIndex(this.all(), this.activeId);
      this.enqueue(() => this.storage.write(INDEX_FILE, data));
      return;
    }
    if (this.indexPending) return;
    this.indexPending = true;
    this.enqueue(() =>
      this.locked(async () => {
        this.indexPending = false;
        await this.storage.write(INDEX_FILE, serializeIndex(await this.mergedIndex(), this.activeId));
      }),
    );
  }

  /**
   * Ours, plus the other windows' entries (not deleted here): the index never drops another window's conversation.
   * It is not the list (the files are, at load), so an entry whose file a third window deleted may stay in it.
   */
  private async mergedIndex(): Promise<Conversation[]> {
    const disk = parseIndex(await this.storage.read(INDEX_FILE));
    const theirs = disk.conversations
      .filter((e) => !this.conversations.has(e.id) && !this.deletedHere.has(e.id))
      .map((e) => ({ ...e, overrides: {}, messages: [] }));
    return [...this.all(), ...theirs];
  }

  private locked(fn: () => Promise<void>): Promise<void> {
    return this.storage.locked ? this.storage.locked(fn) : fn();
  }

  private enqueue(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch(this.onWriteError);
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
