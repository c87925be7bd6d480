// One simulated window over a real storage folder: the real stores a window's extension host holds (history,
// images, agent turn records, usage ledger), built as the extension builds them, and what SessionController.load
// and a deletion do with them. Used by the property test and by the worker it kills mid-write.
import * as path from 'node:path';
import { turnIdsOf } from '../../../src/chat/agent/agentPort';
import { appendMessage, type Conversation } from '../../../src/chat/session/conversation';
import { ConversationStore } from '../../../src/chat/store/conversationStore';
import { imageHashes, ImageStore } from '../../../src/chat/store/imageStore';
import type { TurnStore } from '../../../src/chat/store/turnStore';
import { TurnTranscripts } from '../../../src/chat/store/turnTranscripts';
import type { ChatMessage } from '../../../src/shared/protocol/chat';
import { historyStorageAt, imageStorageAt } from '../../../src/chat/host/historyFiles';
import type { LedgerEntry } from '../../../src/shared/usageLedger';
import { LedgerStore } from '../../../src/usage/ledgerStore';

export const NOW = Date.parse('2026-12-06T12:00:00Z');

/** The adapters a window's extension host builds (src/chat/host/historyFiles.ts), over the test's folders. */
export const historyStorage = historyStorageAt;
export const imageStorage = imageStorageAt;

/** globalState: one for the machine (VS Code passes every window's update to the others). */
export class SharedMemento implements TurnStore {
  readonly values = new Map<string, unknown>();
  get = (key: string): unknown => structuredClone(this.values.get(key));
  update = async (key: string, value: unknown): Promise<void> => void this.values.set(key, structuredClone(value));
}

export const folders = (root: string) => ({
  chat: path.join(root, 'chat'),
  images: path.join(root, 'chat', 'images'),
  ledger: root,
});

export class Window {
  store!: ConversationStore;
  images!: ImageStore;
  transcripts!: TurnTranscripts;
  ledger!: LedgerStore;
  readonly logs: string[] = [];

  constructor(
    private readonly root: string,
    private readonly state: TurnStore,
    private readonly newId: () => string,
  ) {}

  /** A window opened (or reloaded): new instances, loaded, and the load's pruning (SessionController.load). */
  async open(): Promise<void> {
    const dirs = folders(this.root);
    const log = (m: string) => this.logs.push(m);
    this.store = new ConversationStore(
      historyStorage(dirs.chat, log),
      this.newId,
      () => NOW,
      (e) => log(String(e)),
      undefined,
      log,
    );
    this.images = new ImageStore(imageStorage(dirs.images, log));
    this.transcripts = new TurnTranscripts(this.state);
    this.ledger = new LedgerStore(dirs.ledger, log, () => NOW);
    await this.store.load();
    const prune = async (all: Conversation[]) => {
      const messages = all.flatMap((c) => c.messages);
      this.transcripts.keepOnly(turnIdsOf(messages));
      await this.images.removeOrphans(imageHashes(messages), Date.now());
    };
    // As SessionController.load does it (before issue 42 it pruned to the conversations the load had listed).
    const store = this.store as ConversationStore & { withAllOnDisk?: ConversationStore['withAllOnDisk'] };
    if (store.withAllOnDisk) await store.withAllOnDisk(prune);
    else await prune(this.store.all());
  }

  /**
   * A question (with an image unless `image` is false) and an agent answer, saved; then the turn's record, as a turn
   * stores it when it ends (its answer was saved while it streamed).
   */
  async answer(conversation: Conversation, tag: string, image = true): Promise<ChatMessage[]> {
    const bytes = new TextEncoder().encode(`image ${tag}`);
    const hash = image ? await this.images.put(bytes) : '';
    const question: ChatMessage = {
      id: `q-${tag}`,
      role: 'user',
      text: `question ${tag} ${'x'.repeat(2000)}`,
      status: 'complete',
      createdAt: NOW,
      attachments: image
        ? [
            {
              id: `i-${tag}`,
              kind: 'image',
              path: 'a.png',
              languageId: '',
              text: '',
              image: {
                mediaType: 'image/png',
                width: 1,
                height: 1,
                bytes: bytes.length,
                hash,
                thumbnail: 'data:image/png;base64,AA==',
              },
            },
          ]
        : [],
    };
    const turnId = `t-${tag}`;
    const reply: ChatMessage = {
      id: `a-${tag}`,
      role: 'assistant',
      text: `answer ${tag}`,
      status: 'complete',
      createdAt: NOW,
      agent: { turnId, tools: [], steps: [] },
    };
    appendMessage(conversation, question, NOW);
    appendMessage(conversation, reply, NOW);
    this.store.save(conversation);
    await this.store.flushed();
    this.transcripts.keep(turnId, [{ role: 'user', content: tag }]);
    return [question, reply];
  }

  /** A deletion as the session does it: the conversation, its turn records and its own images. */
  async remove(conversation: Conversation): Promise<void> {
    this.store.delete(conversation.id);
    this.transcripts.forget(turnIdsOf(conversation.messages));
    await this.images.release(
      imageHashes(conversation.messages),
      imageHashes(this.store.all().flatMap((c) => c.messages)),
    );
  }
}

export const ledgerEntry = (key: string, id: number): LedgerEntry => ({
  t: new Date(NOW).toISOString(),
  key,
  model: 'm',
  route: 'POST /v1/messages',
  dialect: 'messages',
  kind: 'chat',
  input: id,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
});
