import { strict as assert } from 'node:assert';
import { appendMessage, createConversation } from '../../../src/chat/session/conversation';
import { ConversationStore } from '../../../src/chat/store/conversationStore';
import { parseConversation, parseIndex, serializeConversation, serializeIndex } from '../../../src/chat/store/history';
import { storedChat, type ChatMessage } from '../../../src/shared/protocol/chat';
import { memoryHistoryStorage } from './chatSessionFixture';

describe('chat history format', () => {
  it('keeps mention attachments with their size and cut note; a stored field of the wrong type or shape is dropped', () => {
    const c = createConversation('c1', 1);
    appendMessage(
      c,
      {
        id: 'u',
        role: 'user',
        text: 'q',
        status: 'complete',
        createdAt: 1,
        attachments: [
          { id: 'a', kind: 'terminal', path: 'bash', languageId: 'console', text: 'out', tokens: 12, truncated: true },
          { id: 'b', kind: 'folder', path: 'src', languageId: 'plaintext', text: 'x/', tokens: '9', extra: 1 },
          { id: 'c', kind: 'url', path: 'u', languageId: 'plaintext', text: 'x' },
        ] as never,
      },
      2,
    );
    const back = parseConversation(serializeConversation(c));
    assert.deepEqual(back?.messages[0].attachments, [
      { id: 'a', kind: 'terminal', path: 'bash', languageId: 'console', text: 'out', tokens: 12, truncated: true },
      { id: 'b', kind: 'folder', path: 'src', languageId: 'plaintext', text: 'x/' },
    ]);
  });

  it('reads back every field of a chat message (the protocol table storedChat.messageFields), none dropped on reload', () => {
    const tokens = { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 };
    const cost = { amount: 0.5, source: 'billed' as const, estimate: false };
    // Required<…>: a field added to ChatMessage fails the build here until this message has it.
    const full: Required<ChatMessage> = {
      id: 'a',
      role: 'assistant',
      text: 'answer',
      thinking: 'why',
      attachments: [{ id: 'f', kind: 'file', path: 'a.ts', languageId: 'typescript', text: 'x' }],
      status: 'complete',
      model: 'm',
      usage: { ...tokens, cost },
      stopReason: 'end_turn',
      error: { title: 'T', detail: 'D', actions: [], requestId: 'r' },
      createdAt: 5,
      agent: { turnId: 't', tools: [], steps: [], end: { reason: 'done', message: 'Done.', retry: false } },
      instructions: { files: [{ name: 'AGENTS.md', path: '/w/AGENTS.md' }] },
      condensed: { through: 'q0', summary: 'S', tokens, cost },
    };
    const c = createConversation('c1', 1);
    appendMessage(c, full, 2);
    const back = parseConversation(serializeConversation(c))!.messages[0];
    assert.deepEqual(Object.keys(back).sort(), Object.keys(storedChat.messageFields).sort());
    assert.deepEqual(back, full);
  });

  it('round-trips a conversation with overrides, attachments, usage and error cards', () => {
    const c = createConversation('c1', 1);
    c.overrides = { model: 'm', maxTokens: 7 };
    appendMessage(
      c,
      {
        id: 'u',
        role: 'user',
        text: 'q',
        status: 'complete',
        createdAt: 1,
        attachments: [
          {
            id: 'a',
            kind: 'selection',
            path: 'x.ts',
            languageId: 'typescript',
            text: 'code',
            startLine: 1,
            endLine: 2,
          },
        ],
      },
      2,
    );
    appendMessage(
      c,
      {
        id: 'a1',
        role: 'assistant',
        text: 'partial',
        status: 'cutOff',
        createdAt: 2,
        usage: { input: 3, output: 4, cacheRead: 5, cacheWrite: 6, estimated: true },
        stopReason: null,
        error: { title: 'T', detail: 'D', actions: ['retry'], requestId: 'req_1' },
      },
      3,
    );
    const back = parseConversation(serializeConversation(c));
    assert.ok(back);
    assert.deepEqual(back.overrides, { model: 'm', maxTokens: 7 });
    assert.equal(back.messages[0].attachments?.[0].path, 'x.ts');
    assert.deepEqual(back.messages[1].usage, { input: 3, output: 4, cacheRead: 5, cacheWrite: 6, estimated: true });
    assert.equal(back.messages[1].status, 'cutOff');
    // Stored cards keep their words but offer no live actions (no resend after a reload).
    assert.deepEqual(back.messages[1].error, { title: 'T', detail: 'D', actions: [], requestId: 'req_1' });
  });

  it('keeps the cost of an answer and its source across a reload; a damaged cost is dropped, the tokens kept', () => {
    const c = createConversation('c1', 1);
    const cost = { amount: 0.0023, source: 'gateway' as const, estimate: true };
    appendMessage(
      c,
      {
        id: 'a',
        role: 'assistant',
        text: 'x',
        status: 'complete',
        createdAt: 1,
        usage: { input: 5, output: 6, cacheRead: 0, cacheWrite: 0, cost },
      },
      1,
    );
    appendMessage(
      c,
      {
        id: 'b',
        role: 'assistant',
        text: 'y',
        status: 'complete',
        createdAt: 2,
        usage: {
          input: 1,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
          cost: { amount: 1, source: 'free' as never, estimate: false },
        },
      },
      2,
    );
    const back = parseConversation(serializeConversation(c));
    assert.deepEqual(back?.messages[0].usage, { input: 5, output: 6, cacheRead: 0, cacheWrite: 0, cost });
    assert.deepEqual(back?.messages[1].usage, { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 });
  });

  // One token shape (issue 33): histories written before it name an answer's tokens inputTokens, cacheReadTokens, ….
  it('loads the token names of older histories into the one shape', () => {
    const stored = JSON.parse(serializeConversation(createConversation('c1', 1))) as {
      conversation: { messages: unknown[] };
    };
    const usage = { inputTokens: 5, outputTokens: 6, cacheReadTokens: 7, estimated: true, notReported: true };
    stored.conversation.messages = [{ id: 'a', role: 'assistant', text: 'x', status: 'complete', createdAt: 1, usage }];
    const back = parseConversation(JSON.stringify(stored));
    assert.deepEqual(back?.messages[0].usage, {
      input: 5,
      output: 6,
      cacheRead: 7,
      cacheWrite: 0,
      estimated: true,
      notReported: true,
    });
  });

  it('keeps where each tool card stands in the answer (text, card, text … survives a reload)', () => {
    const c = createConversation('c1', 1);
    const card = (id: string, textAt: number) => ({
      id,
      step: 1,
      name: 'read_file',
      summary: 'README.md',
      status: 'done' as const,
      textAt,
    });
    appendMessage(
      c,
      {
        id: 'a1',
        role: 'assistant',
        text: 'Step 1.\n\nStep 2.\n\nDone.',
        status: 'complete',
        createdAt: 1,
        agent: { turnId: 't1', tools: [card('c1', 7), card('c2', 16)], steps: [] },
      },
      2,
    );
    const back = parseConversation(serializeConversation(c));
    assert.deepEqual(
      back?.messages[0].agent?.tools.map((t) => t.textAt),
      [7, 16],
    );
    const damaged = JSON.parse(serializeConversation(c));
    damaged.conversation.messages[0].agent.tools[0].textAt = 'x';
    assert.equal(parseConversation(JSON.stringify(damaged))?.messages[0].agent?.tools[0].textAt, undefined);
  });

  it('turns answers that were streaming or queued when the window closed into cut-off ones', () => {
    const c = createConversation('c1', 1);
    appendMessage(c, { id: 'a', role: 'assistant', text: 'half', status: 'streaming', createdAt: 1 }, 1);
    appendMessage(c, { id: 'b', role: 'assistant', text: '', status: 'queued', createdAt: 1 }, 1);
    assert.deepEqual(
      parseConversation(serializeConversation(c))?.messages.map((m) => m.status),
      ['cutOff', 'cutOff'],
    );
  });

  it('drops what is damaged and keeps the rest', () => {
    assert.equal(parseConversation('{not json'), undefined);
    assert.equal(parseConversation(JSON.stringify({ version: 99, conversation: {} })), undefined);
    assert.equal(
      parseConversation(
        JSON.stringify({
          version: 1,
          conversation: { id: '../x', title: 't', createdAt: 1, updatedAt: 1, messages: [] },
        }),
      ),
      undefined,
    );
    const raw = {
      version: 1,
      conversation: {
        id: 'c',
        title: 't',
        createdAt: 1,
        updatedAt: 1,
        messages: [{ id: 'ok', role: 'user', text: 'x' }, { id: 'bad', role: 'system', text: 'x' }, 5],
      },
    };
    assert.deepEqual(
      parseConversation(JSON.stringify(raw))?.messages.map((m) => m.id),
      ['ok'],
    );
    const index = parseIndex(
      JSON.stringify({
        version: 1,
        activeId: 'a',
        conversations: [{ id: 'a', title: 't', createdAt: 1, updatedAt: 2 }, { id: 'b' }],
      }),
    );
    assert.deepEqual(
      index.conversations.map((c) => c.id),
      ['a'],
    );
    assert.deepEqual(parseIndex(undefined).conversations, []);
    assert.ok(serializeIndex([], undefined));
  });

  it('store: asked for the active conversation while the history loads, it writes no half index and loses nothing', async () => {
    const storage = memoryHistoryStorage();
    let n = 0;
    const before = new ConversationStore(
      storage,
      () => `old${n++}`,
      () => 1000 + n,
    );
    await before.load();
    for (const text of ['One', 'Two', 'Three']) {
      const c = before.create();
      appendMessage(c, { id: `u-${text}`, role: 'user', text, status: 'complete', createdAt: 1 }, 5);
      before.save(c);
    }
    await before.flushed();
    const indexBefore = storage.files.get('index.json');

    // Reads that wait until released: the store is asked for its active conversation in the middle of the load.
    const gates: Array<() => void> = [];
    const slow = {
      ...storage,
      read: async (name: string) => {
        await new Promise<void>((resolve) => gates.push(resolve));
        return storage.read(name);
      },
    };
    const store = new ConversationStore(
      slow,
      () => 'made-during-load',
      () => 2000,
    );
    const loading = store.load();
    gates.shift()?.(); // the index
    await new Promise((r) => setImmediate(r));
    const early = store.active;
    await new Promise((r) => setImmediate(r));
    assert.equal(storage.files.get('index.json'), indexBefore, 'no index was written while loading');
    while (gates.length) gates.shift()?.();
    await loading;
    await store.flushed();
    assert.deepEqual(
      store
        .summaries()
        .map((s) => s.title)
        .sort(),
      ['One', 'Three', 'Two'],
    );
    assert.notEqual(store.active.id, early.id, 'the empty conversation made during the load is not kept');
    assert.equal(storage.files.get('index.json'), indexBefore, 'nothing to write: the history is as it was');
  });

  it('store: persists, reloads, keeps the active conversation and deletes files', async () => {
    const storage = memoryHistoryStorage();
    let n = 0;
    const store = new ConversationStore(
      storage,
      () => `id${n++}`,
      () => 1000 + n,
    );
    await store.load();
    const first = store.active;
    appendMessage(first, { id: 'u1', role: 'user', text: 'Hello there', status: 'complete', createdAt: 1 }, 5);
    store.save(first);
    const second = store.create();
    appendMessage(second, { id: 'u2', role: 'user', text: 'Second', status: 'complete', createdAt: 1 }, 6);
    store.save(second);
    assert.equal(store.create(), store.create(), 'an empty active conversation is reused');
    store.select(first.id);
    await store.flushed();

    const reloaded = new ConversationStore(
      storage,
      () => 'new',
      () => 0,
    );
    await reloaded.load();
    assert.equal(reloaded.active.id, first.id);
    assert.deepEqual(
      reloaded
        .summaries()
        .map((s) => s.title)
        .sort(),
      ['Hello there', 'Second'],
      'empty conversations are not kept',
    );
    assert.deepEqual(
      reloaded.search('second').map((s) => s.id),
      [second.id],
    );
    reloaded.delete(first.id);
    await reloaded.flushed();
    assert.equal(storage.files.has(`conversation-${first.id}.json`), false);
    assert.notEqual(reloaded.active.id, first.id);
  });
});
