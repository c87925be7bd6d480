import { strict as assert } from 'node:assert';
import { makeAttachment, ATTACHMENT_LIMIT } from '../../../src/chat/composer/attachments';
import { DeltaBatcher, type Timers } from '../../../src/chat/session/deltaBatcher';
import { validateExternalLink } from '../../../src/chat/session/links';
import { toErrorCard, ChatSetupError } from '../../../src/chat/session/errorCard';
import { GatewayError } from '../../../src/gateway/errors/errors';
import { adviseOnError } from '../../../src/gateway';

function manualTimers(): Timers & { fire(): void; pending(): number; clock: number } {
  let queue: Array<{ fn: () => void; handle: number }> = [];
  let next = 0;
  return {
    clock: 1000,
    now() {
      return this.clock;
    },
    setTimeout: (fn) => {
      const handle = next++;
      queue.push({ fn, handle });
      return handle;
    },
    clearTimeout: (handle) => {
      queue = queue.filter((t) => t.handle !== handle);
    },
    fire: () => {
      const due = queue;
      queue = [];
      for (const t of due) t.fn();
    },
    pending: () => queue.length,
  };
}

describe('chat helpers', () => {
  it('sends the first delta at once, then one message per interval, and flushes on demand', () => {
    const timers = manualTimers();
    const sent: Array<{ text: string; thinking: string }> = [];
    const batcher = new DeltaBatcher((d) => sent.push(d), 20, timers);
    batcher.push('text', 'first');
    assert.deepEqual(sent, [{ text: 'first', thinking: '' }], 'the first token does not wait');
    sent.length = 0;
    timers.clock += 5;
    batcher.push('thinking', 'hmm ');
    for (const t of ['a', 'b', 'c']) batcher.push('text', t);
    assert.equal(timers.pending(), 1, 'one timer for a burst');
    assert.equal(sent.length, 0);
    timers.clock += 15;
    timers.fire();
    assert.deepEqual(sent, [{ text: 'abc', thinking: 'hmm ' }]);
    batcher.push('text', 'd');
    batcher.flush();
    assert.deepEqual(sent[1], { text: 'd', thinking: '' });
    assert.equal(timers.pending(), 0);
    batcher.flush();
    assert.equal(sent.length, 2, 'nothing pending: nothing sent');
  });

  it('opens only plain http(s) links', () => {
    assert.equal(validateExternalLink('https://example.com/a?b=c#d')?.hostname, 'example.com');
    assert.ok(validateExternalLink('http://localhost:3000/'));
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>',
      'file:///etc/passwd',
      'vscode://x',
      'command:workbench.action.quit',
      'https://user:pw@example.com',
      'https://exa mple.com',
      'https://example.com/\nx',
      '//example.com',
      'example.com',
    ]) {
      assert.equal(validateExternalLink(href), undefined, href);
    }
  });

  it('makes attachments with 1-based lines and a size cap', () => {
    const a = makeAttachment('id', {
      path: 'a.ts',
      languageId: 'typescript',
      text: 'x',
      selection: { startLine: 0, endLine: 4 },
    });
    assert.deepEqual([a.kind, a.startLine, a.endLine], ['selection', 1, 5]);
    const big = makeAttachment('id', { path: 'b.js', languageId: '', text: 'y'.repeat(ATTACHMENT_LIMIT + 10) });
    assert.equal(big.kind, 'file');
    assert.equal(big.languageId, 'plaintext');
    assert.ok(big.text.length < ATTACHMENT_LIMIT + 100 && big.text.includes('cut: 10 more'));
  });

  it('error cards: advice words plus status, request id and retry-after; no Retry after a timeout', () => {
    const advise = (e: unknown) => adviseOnError(e, { baseUrl: 'http://gw', surface: 'chat' });
    const rateLimited = toErrorCard(
      new GatewayError({
        kind: 'rate_limited',
        route: 'POST /v1/messages',
        message: 'x',
        status: 429,
        retryAfterMs: 3000,
        requestId: 'req_9',
      }),
      advise,
    );
    assert.equal(rateLimited.status, 429);
    assert.equal(rateLimited.retryAfterMs, 3000);
    assert.equal(rateLimited.requestId, 'req_9');
    const timeout = toErrorCard(
      new GatewayError({ kind: 'timeout', route: 'POST /v1/messages', message: 'x', outcomeUnknown: true }),
      advise,
    );
    assert.equal(timeout.outcomeUnknown, true);
    assert.ok(!timeout.actions.includes('retry'));
    assert.ok(
      toErrorCard(
        new GatewayError({ kind: 'auth', route: 'POST /v1/messages', message: 'x', status: 401 }),
        advise,
      ).actions.includes('replaceKey'),
    );
    assert.deepEqual(toErrorCard(new ChatSetupError('no key', ['replaceKey']), advise).actions, ['replaceKey']);
    assert.deepEqual(toErrorCard(new Error('boom'), advise).actions, ['showLog']);
  });
});
