// The chat protocol's field tables, as the host's guard applies them to what the webview sends.
import { strict as assert } from 'node:assert';
import { chatGuard, LIMITS } from '../../../../src/shared/protocol/chat';

const isWebviewToHostMessage = (m: unknown): boolean => chatGuard.toHost(m).ok;

describe('chat protocol guard', () => {
  const ok = (m: unknown) => assert.equal(isWebviewToHostMessage(m), true, JSON.stringify(m));
  const bad = (m: unknown) => assert.equal(isWebviewToHostMessage(m), false, JSON.stringify(m)?.slice(0, 200));

  it('accepts every well-formed message type', () => {
    ok({ type: 'ready' });
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
    for (const v of [
      null,
      undefined,
      1,
      'send',
      [],
      { type: 'nope', requestId: 'r' },
      { type: 'send', text: 'x' },
      { type: 'send', requestId: '', text: 'x' },
      { type: 'send', requestId: 'has space', text: 'x' },
      { type: 'send', requestId: 'r'.repeat(129), text: 'x' },
      { type: 'toString', requestId: 'r' },
      { type: '__proto__', requestId: 'r' },
      { type: 'constructor', requestId: 'r' },
      { type: 'ready', requestId: 'r' },
      { type: 'hasOwnProperty', requestId: 'r' },
      { type: 'reply', requestId: 'r' },
      { type: 'strings', strings: {} },
    ])
      bad(v);
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

describe('chat protocol guard: Agent mode messages', () => {
  const ok = (m: unknown) => assert.equal(isWebviewToHostMessage(m), true, JSON.stringify(m));
  const bad = (m: unknown) => assert.equal(isWebviewToHostMessage(m), false, JSON.stringify(m)?.slice(0, 200));

  it('accepts mode, approval, change, changesAll and restore messages', () => {
    ok({ type: 'setMode', requestId: 'r1', mode: 'agent' });
    ok({ type: 'setMode', requestId: 'r1', mode: 'ask' });
    ok({ type: 'approval', requestId: 'r1', toolUseId: 'toolu_emu_0123456789abcdef01234567', approved: true });
    ok({ type: 'approval', requestId: 'r1', toolUseId: 'toolu_1', approved: false });
    for (const action of ['open', 'accept', 'reject'])
      ok({ type: 'change', requestId: 'r1', changeId: 'lq2x-1', action });
    ok({ type: 'changesAll', requestId: 'r1', action: 'accept' });
    ok({ type: 'changesAll', requestId: 'r1', action: 'reject' });
    ok({ type: 'restoreCheckpoint', requestId: 'r1', messageId: 'm-1' });
  });

  it('rejects unknown modes, non-boolean approvals, bad ids, unknown actions and extra fields', () => {
    bad({ type: 'setMode', requestId: 'r', mode: 'auto' });
    bad({ type: 'setMode', requestId: 'r', mode: 'Agent' });
    bad({ type: 'setMode', requestId: 'r' });
    bad({ type: 'approval', requestId: 'r', toolUseId: 't1', approved: 'true' });
    bad({ type: 'approval', requestId: 'r', toolUseId: 't1', approved: 1 });
    bad({ type: 'approval', requestId: 'r', toolUseId: 't1' });
    bad({ type: 'approval', requestId: 'r', toolUseId: 't 1', approved: true });
    // An approval carries no command or path: what runs is what the policy saw, never what the page says.
    bad({ type: 'approval', requestId: 'r', toolUseId: 't1', approved: true, command: 'rm -rf /' });
    bad({ type: 'approval', requestId: 'r', toolUseId: 't1', approved: true, autoApproveWrites: true });
    bad({ type: 'change', requestId: 'r', changeId: 'c1', action: 'write' });
    bad({ type: 'change', requestId: 'r', changeId: '../c1', action: 'accept' });
    bad({ type: 'change', requestId: 'r', changeId: 'c1', action: 'accept', text: 'new content' });
    bad({ type: 'changesAll', requestId: 'r', action: 'open' });
    bad({ type: 'restoreCheckpoint', requestId: 'r', messageId: 'x'.repeat(129) });
    bad({ type: 'restoreCheckpoint', requestId: 'r', turnId: 't1' });
  });
});
