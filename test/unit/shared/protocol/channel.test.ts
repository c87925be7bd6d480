// The guard builder of the one webview channel (src/shared/protocol/channel.ts): strict in both directions (unknown
// type, missing, extra or ill-typed field → rejected, with a reason that names our fields but never the content).
import * as assert from 'node:assert/strict';
import {
  arr,
  bool,
  guard,
  id,
  int,
  none,
  nullable,
  obj,
  oneOf,
  opt,
  str,
  type Protocol,
} from '../../../../src/shared/protocol/channel';
import { chatGuard, type ChatSnapshot } from '../../../../src/shared/protocol/chat';
import { imagesGuard } from '../../../../src/shared/protocol/images';

type TestShapes = {
  toWebview: { state: { count: number; items: Array<{ name: string; tag?: string }>; until: number | null } };
  toHost: { clicked: { button: 'a' | 'b' } };
  requests: {
    lookup: { params: { query: string }; result: string[] };
    save: { params: { on: boolean }; result: undefined };
  };
};

const protocol: Protocol<TestShapes> = {
  name: 'test',
  toWebview: {
    state: {
      count: int(0, 10),
      items: arr(obj<{ name: string; tag?: string }>({ name: str(20), tag: opt(str(5)) }), 3),
      until: nullable(int(0, 1e15)),
    },
  },
  toHost: { clicked: { button: oneOf(['a', 'b'] as const) } },
  requests: {
    lookup: { params: { query: str(10) }, result: arr(str(100), 10), timeoutMs: 50 },
    save: { params: { on: bool }, result: none },
  },
};
const g = guard(protocol);

describe('webview channel: the guard builder', () => {
  it('accepts exactly the declared messages in each direction, and the channel messages', () => {
    assert.ok(g.toHost({ type: 'ready' }).ok);
    assert.ok(g.toHost({ type: 'clicked', button: 'a' }).ok);
    assert.ok(g.toHost({ type: 'lookup', requestId: 'r1', query: 'x' }).ok);
    assert.ok(
      g.toWebview({ type: 'state', count: 1, items: [{ name: 'n' }, { name: 'm', tag: 't' }], until: null }).ok,
    );
    assert.ok(g.toWebview({ type: 'strings', strings: { 'a.b': 'text' } }).ok);
    assert.ok(g.toWebview({ type: 'reply', requestId: 'r1', result: ['x'] }).ok);
    assert.ok(g.toWebview({ type: 'reply', requestId: 'r1', error: 'refused' }).ok);
  });

  it('rejects a message sent the wrong way: each direction knows only its own types', () => {
    assert.equal(g.toWebview({ type: 'clicked', button: 'a' }).ok, false);
    assert.equal(g.toWebview({ type: 'ready' }).ok, false);
    assert.equal(g.toWebview({ type: 'lookup', requestId: 'r1', query: 'x' }).ok, false);
    assert.equal(g.toHost({ type: 'state', count: 1, items: [], until: null }).ok, false);
    assert.equal(g.toHost({ type: 'strings', strings: {} }).ok, false);
    assert.equal(g.toHost({ type: 'reply', requestId: 'r1', result: [] }).ok, false);
  });

  it('rejects unknown types, prototype names and non-objects in both directions', () => {
    for (const check of [g.toHost, g.toWebview]) {
      for (const value of [
        null,
        undefined,
        0,
        'ready',
        [],
        [{ type: 'ready' }],
        {},
        { type: 'nope' },
        { type: '__proto__' },
        { type: 'toString' },
        { type: 'constructor' },
        { type: 1 },
      ]) {
        const verdict = check(value);
        assert.equal(verdict.ok, false, JSON.stringify(value));
      }
    }
  });

  it('rejects extra fields, at the top and inside nested objects, in both directions', () => {
    assert.equal(g.toHost({ type: 'ready', extra: 1 }).ok, false);
    assert.equal(g.toHost({ type: 'clicked', button: 'a', also: 'b' }).ok, false);
    assert.equal(g.toHost({ type: 'lookup', requestId: 'r1', query: 'x', admin: true }).ok, false);
    assert.equal(g.toWebview({ type: 'state', count: 1, items: [{ name: 'n', html: '<b>' }], until: null }).ok, false);
    assert.equal(g.toWebview({ type: 'strings', strings: {}, more: {} }).ok, false);
    assert.equal(g.toWebview({ type: 'reply', requestId: 'r1', result: [], error: 'x' }).ok, false);
  });

  it('rejects missing and ill-typed fields, in both directions', () => {
    assert.equal(g.toHost({ type: 'clicked' }).ok, false);
    assert.equal(g.toHost({ type: 'clicked', button: 'c' }).ok, false);
    assert.equal(g.toHost({ type: 'lookup', query: 'x' }).ok, false, 'a request without its id');
    assert.equal(g.toHost({ type: 'lookup', requestId: 'has space', query: 'x' }).ok, false);
    assert.equal(g.toHost({ type: 'lookup', requestId: 'r1', query: 'x'.repeat(11) }).ok, false);
    assert.equal(g.toHost({ type: 'save', requestId: 'r1', on: 'true' }).ok, false);
    assert.equal(g.toWebview({ type: 'state', count: 1.5, items: [], until: null }).ok, false);
    assert.equal(
      g.toWebview({ type: 'state', count: 1, items: [], until: undefined }).ok,
      false,
      'null is not undefined',
    );
    assert.equal(
      g.toWebview({
        type: 'state',
        count: 1,
        items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }],
        until: null,
      }).ok,
      false,
    );
    assert.equal(g.toWebview({ type: 'state', count: 1, items: [{ name: 'a', tag: 5 }], until: null }).ok, false);
    assert.equal(g.toWebview({ type: 'strings', strings: { 'a.b': 5 } }).ok, false);
    assert.equal(g.toWebview({ type: 'strings', strings: [] }).ok, false);
    assert.equal(g.toWebview({ type: 'reply', requestId: 5, result: [] }).ok, false);
  });

  it("says where a message went wrong with our field names, never the sender's content", () => {
    const secret = 'sk-live-DO-NOT-LOG';
    const reasons = [
      g.toHost({ type: 'clicked', button: secret }),
      g.toHost({ type: 'clicked', button: 'a', [secret]: 1 }),
      g.toHost({ type: secret }),
      g.toWebview({ type: 'state', count: 1, items: [{ name: 'ok' }, { name: secret.repeat(3) }], until: null }),
    ].map((v) => (v.ok ? 'accepted' : v.reason));
    for (const reason of reasons) assert.ok(!reason.includes(secret) && !reason.includes('DO-NOT'), reason);
    assert.deepEqual(reasons, [
      "'clicked': button: invalid",
      "'clicked': unexpected field",
      'unknown message type',
      "'state': items.1.name: invalid",
    ]);
  });

  it("checks a reply's result against what its request declares", () => {
    assert.ok(g.result('lookup', ['a', 'b']).ok);
    assert.equal(g.result('lookup', 'a').ok, false);
    assert.equal(g.result('lookup', [1]).ok, false);
    assert.ok(g.result('save', undefined).ok);
    assert.equal(g.result('save', { saved: true }).ok, false);
  });

  it('refuses a protocol that declares a type twice or takes a channel message name', () => {
    assert.throws(() => guard({ ...protocol, toHost: { ...protocol.toHost, lookup: {} } } as never), /declared twice/);
    assert.throws(
      () => guard({ ...protocol, toWebview: { ...protocol.toWebview, reply: {} } } as never),
      /channel message/,
    );
  });
});

describe('webview channel: chat and images host messages are checked too', () => {
  const snapshot: ChatSnapshot = {
    conversations: [{ id: 'c1', title: 'T', updatedAt: 1, messageCount: 1, mode: 'agent' }],
    activeId: 'c1',
    messages: [
      {
        id: 'm1',
        role: 'assistant',
        text: 'hi',
        status: 'complete',
        createdAt: 1,
        stopReason: null,
        usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
        agent: {
          turnId: 't',
          tools: [
            {
              id: 'x',
              step: 1,
              name: 'read',
              summary: 'a.txt',
              status: 'asking',
              ask: { kind: 'approve', reason: 'r', paths: ['a'] },
            },
          ],
          steps: [],
        },
      },
    ],
    settings: { model: '', maxTokens: 1, systemPrompt: '' },
    models: [{ id: 'm' }],
    busy: false,
    attachments: [],
    agent: { ok: false, reason: 'Restricted Mode' },
    changes: [{ id: 'c', kind: 'edit', path: 'a', added: 1, removed: 0 }],
  };

  it('chat: accepts a full snapshot and the deltas, refuses a snapshot with a stray field or a wrong status', () => {
    assert.ok(chatGuard.toWebview({ type: 'snapshot', snapshot }).ok);
    assert.ok(chatGuard.toWebview({ type: 'streamDelta', conversationId: 'c1', messageId: 'm1', text: 'x' }).ok);
    assert.ok(chatGuard.toWebview({ type: 'focusInput' }).ok);
    assert.ok(chatGuard.toWebview({ type: 'agentWait', conversationId: 'c1', messageId: 'm1', until: null }).ok);
    assert.ok(chatGuard.toWebview({ type: 'agentAvailability', availability: { ok: true } }).ok);
    assert.equal(chatGuard.toWebview({ type: 'agentAvailability', availability: { ok: true, reason: 'x' } }).ok, false);
    const stray = { ...snapshot, messages: [{ ...snapshot.messages[0], html: '<img src=x onerror=alert(1)>' }] };
    const verdict = chatGuard.toWebview({ type: 'snapshot', snapshot: stray });
    assert.deepEqual(verdict, { ok: false, reason: "'snapshot': snapshot.messages.0: unexpected field" });
    assert.equal(
      chatGuard.toWebview({ type: 'streamFinished', conversationId: 'c1', messageId: 'm1', status: 'streaming' }).ok,
      false,
    );
    assert.equal(
      chatGuard.toWebview({ type: 'requestFailed', requestId: 'r', message: 'x' }).ok,
      false,
      'replaced by the channel reply',
    );
  });

  it('images: accepts the panel messages, refuses a task with an unknown state', () => {
    const task = { localId: 'L', prompt: 'p', model: 'm', state: 'pending', submittedAt: 'now' };
    assert.ok(imagesGuard.toWebview({ type: 'task', task }).ok);
    assert.equal(imagesGuard.toWebview({ type: 'task', task: { ...task, state: 'deleted' } }).ok, false);
    assert.ok(imagesGuard.result('submit', { ok: true, message: 'Saved a.png' }).ok);
    assert.equal(imagesGuard.result('submit', { ok: 'yes' }).ok, false);
  });

  it('a request id is checked like every id the webview names', () => {
    assert.ok(id('r1-x.y:z_'));
    assert.equal(id('../r'), false);
  });
});
