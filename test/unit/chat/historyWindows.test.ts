// The chat history shared by windows: ConversationStores over one real folder (the extension's storage adapter, as
// each window's extension host holds its own) never replace each other's conversations, see what another window
// made or deleted, merge two windows' answers to one conversation by message id, and set a damaged file aside.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendMessage } from '../../../src/chat/session/conversation';
import { ConversationStore } from '../../../src/chat/store/conversationStore';
import { conversationFile, type HistoryStorage } from '../../../src/chat/store/history';
import { historyStorageAt } from '../../../src/chat/host/historyFiles';
import type { ChatMessage } from '../../../src/shared/protocol/chat';

/** The storage a window's extension host builds (historyFiles.ts, over a temporary folder). */
export const folderHistory = (dir: string, log: (m: string) => void = () => undefined): HistoryStorage =>
  historyStorageAt(dir, log);

const message = (id: string, role: ChatMessage['role'], text: string, createdAt: number): ChatMessage => ({
  id,
  role,
  text,
  status: 'complete',
  createdAt,
});

describe('chat history shared by windows', () => {
  let dir: string;
  let n = 0;
  const logs: string[] = [];
  const window = async () => {
    const store = new ConversationStore(
      folderHistory(dir, (m) => logs.push(m)),
      () => `c${n++}`,
      () => 1000 + n,
      (e) => logs.push(String(e)),
      undefined,
      (m) => logs.push(m),
    );
    await store.load();
    return store;
  };
  const talk = (store: ConversationStore, title: string) => {
    const c = store.create();
    appendMessage(c, message(`u-${title}`, 'user', title, 1), 2);
    store.save(c);
    return c;
  };
  const titles = (store: ConversationStore) =>
    store
      .summaries()
      .map((s) => s.title)
      .filter((t) => t !== 'New chat')
      .sort();
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-history-'));
    logs.length = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('"A talk" and "B talk" made in two windows are both listed by a third', async () => {
    const a = await window();
    const b = await window();
    talk(a, 'A talk');
    await a.flushed();
    talk(b, 'B talk');
    await b.flushed();
    assert.deepEqual(titles(await window()), ['A talk', 'B talk']);
    assert.deepEqual(logs, []);
  });

  it('a window sees what another made and deleted (refresh)', async () => {
    const a = await window();
    const b = await window();
    const made = talk(a, 'A talk');
    await a.flushed();
    assert.equal(await b.refresh(), true);
    assert.deepEqual(titles(b), ['A talk']);
    a.delete(made.id);
    await a.flushed();
    assert.equal(await b.refresh(), true);
    assert.deepEqual(titles(b), []);
    assert.equal(await b.refresh(), false, 'nothing new');
  });

  it('the same conversation answered in two windows keeps every message', async () => {
    const a = await window();
    const c = talk(a, 'Shared');
    await a.flushed();
    const b = await window();
    const inB = b.get(c.id)!;
    appendMessage(c, message('a1', 'assistant', 'from A', 10), 11);
    appendMessage(c, message('a2', 'user', 'more in A', 12), 13);
    appendMessage(inB, message('b1', 'assistant', 'from B', 14), 15);
    a.save(c);
    b.save(inB);
    await Promise.all([a.flushed(), b.flushed()]);
    const ids = (await window()).get(c.id)!.messages.map((m) => m.id);
    assert.deepEqual(ids, ['u-Shared', 'a1', 'a2', 'b1']);
    assert.deepEqual(
      inB.messages.map((m) => m.id),
      ids,
      'the window that merged shows the merge',
    );
  });

  it('a message deleted in one window stays deleted when the other saves', async () => {
    const a = await window();
    const c = talk(a, 'Shared');
    appendMessage(c, message('a1', 'assistant', 'answer', 10), 11);
    a.save(c);
    await a.flushed();
    const b = await window();
    c.messages.pop();
    a.save(c);
    await a.flushed();
    const inB = b.get(c.id)!;
    appendMessage(inB, message('b1', 'user', 'B asks', 20), 21);
    b.save(inB);
    await b.flushed();
    assert.deepEqual(
      (await window()).get(c.id)!.messages.map((m) => m.id),
      ['u-Shared', 'b1'],
    );
  });

  it('a conversation deleted in another window is not brought back by a save here', async () => {
    const a = await window();
    const c = talk(a, 'Gone');
    await a.flushed();
    const b = await window();
    b.delete(c.id);
    await b.flushed();
    appendMessage(c, message('a1', 'assistant', 'late', 10), 11);
    a.save(c);
    await a.flushed();
    assert.deepEqual(titles(await window()), []);
    assert.ok(logs.some((m) => m.includes('deleted in another window')));
  });

  it('a damaged conversation file is moved aside and named in the log, the others load', async () => {
    const a = await window();
    talk(a, 'Fine');
    await a.flushed();
    fs.writeFileSync(path.join(dir, conversationFile('broken')), '{"version":1,"conv');
    const b = await window();
    await b.flushed();
    assert.deepEqual(titles(b), ['Fine']);
    assert.ok(fs.readdirSync(dir).some((f) => f.startsWith('conversation-broken.json.corrupt-')));
    assert.ok(logs.some((m) => m.includes('conversation-broken.json') && m.includes('moved aside')));
  });

  it('follows the folder: a conversation made, then deleted, in another window is announced', async () => {
    const a = await window();
    const b = await window();
    let told = 0;
    const stop = b.follow(() => told++);
    await new Promise((r) => setTimeout(r, 50)); // the watcher starts
    talk(a, 'A talk');
    await a.flushed();
    for (let i = 0; i < 100 && told === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(told > 0);
    assert.deepEqual(titles(b), ['A talk']);
    const before = told;
    a.delete(a.all().find((c) => c.title === 'A talk')!.id);
    await a.flushed();
    for (let i = 0; i < 100 && told === before; i++) await new Promise((r) => setTimeout(r, 20));
    stop();
    assert.deepEqual(titles(b), [], 'the deletion is seen too');
  });
});
