import { strict as assert } from 'node:assert';
import {
  appendMessage,
  createConversation,
  deriveTitle,
  effectiveSettings,
  searchConversations,
  truncateFrom,
  UNTITLED,
} from '../../../src/chat/session/conversation';
import type { ChatMessage } from '../../../src/shared/protocol/chat';

const m = (id: string, role: 'user' | 'assistant', text: string): ChatMessage => ({
  id,
  role,
  text,
  status: 'complete',
  createdAt: 0,
});

describe('chat conversation model', () => {
  it('derives a one-line title without markdown, directives or control characters', () => {
    assert.equal(deriveTitle('  How do I **sort** a `Map` in\nTypeScript?  '), 'How do I sort a Map in TypeScript?');
    assert.equal(deriveTitle('```ts\nconst x = 1\n```\nExplain this'), 'Explain this');
    assert.equal(deriveTitle('[[tokens=5]] hi'), 'hi');
    assert.equal(deriveTitle('see [the docs](https://x.y/z)'), 'see the docs');
    assert.equal(deriveTitle('a\u202eb\u200bc'), 'a b c');
    assert.equal(deriveTitle('   '), UNTITLED);
  });

  it('cuts long titles at a word boundary with an ellipsis', () => {
    const title = deriveTitle('word '.repeat(40));
    assert.ok(title.length <= 61, title);
    assert.ok(title.endsWith('…'));
    assert.ok(!title.includes('  '));
  });

  it('titles from the first question only', () => {
    const c = createConversation('c1', 1);
    appendMessage(c, m('1', 'user', 'First question'), 2);
    appendMessage(c, m('2', 'assistant', 'answer'), 3);
    appendMessage(c, m('3', 'user', 'Second question'), 4);
    assert.equal(c.title, 'First question');
    assert.equal(c.updatedAt, 4);
  });

  it('truncates from a message id, and refuses unknown ids', () => {
    const c = createConversation('c1', 1);
    for (const [i, role] of (['user', 'assistant', 'user', 'assistant'] as const).entries())
      appendMessage(c, m(String(i), role, `t${i}`), i);
    assert.equal(truncateFrom(c, 'nope'), false);
    assert.equal(c.messages.length, 4);
    assert.equal(truncateFrom(c, '2'), true);
    assert.deepEqual(
      c.messages.map((x) => x.id),
      ['0', '1'],
    );
  });

  it('applies per-conversation overrides over the defaults', () => {
    const c = createConversation('c1', 1);
    const defaults = { model: 'a', maxTokens: 100, systemPrompt: 'sys' };
    assert.deepEqual(effectiveSettings(c, defaults), defaults);
    c.overrides = { maxTokens: 5, systemPrompt: '' };
    assert.deepEqual(effectiveSettings(c, defaults), { model: 'a', maxTokens: 5, systemPrompt: '' });
  });

  it('searches titles and message text, every word, newest first', () => {
    const a = createConversation('a', 1);
    appendMessage(a, m('1', 'user', 'Rust lifetimes question'), 10);
    const b = createConversation('b', 1);
    appendMessage(b, m('2', 'user', 'Python'), 20);
    appendMessage(b, m('3', 'assistant', 'About rust and python interop'), 30);
    assert.deepEqual(
      searchConversations([a, b], 'rust').map((c) => c.id),
      ['b', 'a'],
    );
    assert.deepEqual(
      searchConversations([a, b], 'RUST lifetimes').map((c) => c.id),
      ['a'],
    );
    assert.deepEqual(searchConversations([a, b], 'haskell'), []);
    assert.deepEqual(
      searchConversations([a, b], '  ').map((c) => c.id),
      ['b', 'a'],
    );
  });
});
