import { strict as assert } from 'node:assert';
import { isWebviewToHostMessage, LIMITS } from '../../../src/shared/protocol/chat';

describe('chat protocol guard', () => {
  const ok = (m: unknown) => assert.equal(isWebviewToHostMessage(m), true, JSON.stringify(m));
  const bad = (m: unknown) => assert.equal(isWebviewToHostMessage(m), false, JSON.stringify(m)?.slice(0, 200));

  it('accepts every well-formed message type', () => {
    ok({ type: 'ready', requestId: 'r1' });
    ok({ type: 'send', requestId: 'r1', text: 'hello' });
    ok({ type: 'stop', requestId: 'r1' });
    ok({ type: 'regenerate', requestId: 'r1', messageId: 'm-1' });
    ok({ type: 'editAndResend', requestId: 'r1', messageId: 'm-1', text: 'x' });
    ok({ type: 'continue', requestId: 'r1', messageId: 'm-1' });
    ok({ type: 'newConversation', requestId: 'r1' });
    ok({ type: 'selectConversation', requestId: 'r1', conversationId: 'c1' });
    ok({ type: 'deleteConversation', requestId: 'r1', conversationId: 'c1' });
    ok({ type: 'searchConversations', requestId: 'r1', query: '' });
    ok({ type: 'setModel', requestId: 'r1', model: 'claude-demo-haiku' });
    ok({ type: 'setMaxTokens', requestId: 'r1', maxTokens: 256 });
    ok({ type: 'setSystemPrompt', requestId: 'r1', systemPrompt: 'Be brief.' });
    ok({ type: 'removeAttachment', requestId: 'r1', attachmentId: 'a1' });
    ok({ type: 'copy', requestId: 'r1', text: 'x' });
    ok({ type: 'insertCode', requestId: 'r1', code: 'x', languageId: 'typescript' });
    ok({ type: 'openCodeInEditor', requestId: 'r1', code: 'x' });
    ok({ type: 'openLink', requestId: 'r1', href: 'https://example.com' });
    ok({ type: 'errorAction', requestId: 'r1', messageId: 'm1', action: 'replaceKey' });
  });

  it('rejects non-objects, unknown types and missing or bad request ids', () => {
    for (const v of [null, undefined, 1, 'send', [], { type: 'nope', requestId: 'r' }, { type: 'send', text: 'x' }, { type: 'send', requestId: '', text: 'x' },
      { type: 'send', requestId: 'has space', text: 'x' }, { type: 'send', requestId: 'r'.repeat(129), text: 'x' }, { type: 'toString', requestId: 'r' },
      { type: '__proto__', requestId: 'r' }, { type: 'constructor', requestId: 'r' }]) bad(v);
  });

  it('rejects wrong field types, extra fields and out-of-range values', () => {
    bad({ type: 'send', requestId: 'r', text: 5 });
    bad({ type: 'send', requestId: 'r', text: 'x', extra: true });
    bad({ type: 'send', requestId: 'r', text: 'x'.repeat(LIMITS.text + 1) });
    bad({ type: 'editAndResend', requestId: 'r', messageId: 'm', text: '' });
    bad({ type: 'regenerate', requestId: 'r', messageId: '../../etc/passwd' });
    bad({ type: 'setMaxTokens', requestId: 'r', maxTokens: 0 });
    bad({ type: 'setMaxTokens', requestId: 'r', maxTokens: 1.5 });
    bad({ type: 'setMaxTokens', requestId: 'r', maxTokens: '100' });
    bad({ type: 'setMaxTokens', requestId: 'r', maxTokens: Number.NaN });
    bad({ type: 'errorAction', requestId: 'r', messageId: 'm', action: 'deleteEverything' });
    bad({ type: 'insertCode', requestId: 'r', code: 'x', languageId: 'type script' });
    bad({ type: 'openLink', requestId: 'r', href: '' });
    bad({ type: 'selectConversation', requestId: 'r' });
  });
});
