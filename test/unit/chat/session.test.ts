// The session controller against the real emulator over real sockets, with the real gateway client.
import { strict as assert } from 'node:assert';
import { createGatewayClient } from '../../../src/gateway';
import type { DialectSource } from '../../../src/gateway/types';
import { chatSession } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';
import { MAX_RATE_LIMIT_WAITS } from '../../../src/chat/session/requestSlot';
import { useEmulator } from '../emulator/helpers';
import { textTokens } from '../../../src/shared/tokenEstimate';
import { defaultConfig, startEmulator } from '../../../src/emulator';

describe('chat session controller (emulator)', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  function session(key = 'mg-demo-key-0001', timeoutMs = 10_000, maxRetries = 0) {
    const t = chatSession(emulator(), {
      getClient: async () => createGatewayClient({ baseUrl: emulator().url, apiKey: key, maxRetries, timeoutMs }),
      model: 'claude-demo-sonnet',
      defaultRetryMs: 200,
    });
    return { ...t, finished: () => t.of('streamFinished') };
  }

  /** POST /v1/messages the emulator received in this test. */
  const messageRequests = () =>
    emulator()
      .requests()
      .filter((r) => r.route?.includes('messages')).length;

  /** Sends `text` into one 429 (Retry-After 1 s) and waits for the countdown card; `maxRetries`: the client's own. */
  async function sendIntoOne429(text: string, maxRetries = 0) {
    const t = session('mg-demo-key-0001', 10_000, maxRetries);
    emulator().setFaults('mg-demo-key-0001', { status: 429, count: 1, retryAfter: 1 });
    await t.s.load();
    t.s.send(text);
    await waitUntil(() => t.of('errorCard').some((c) => c.card?.queuedUntil !== undefined), 'the countdown card');
    return t;
  }

  // One cost per response (issue 33): the chat shows the cost the usage ledger recorded, for the route actually
  // called; it used to price the usage again as 'POST /v1/messages', also over chat-completions.
  for (const route of ['POST /v1/messages', 'POST /v1/chat/completions']) {
    it(`an answer carries the cost the ledger recorded for it, once, with the route called (${route})`, async () => {
      const config = defaultConfig();
      config.dialect = 'litellm';
      const gateway = await startEmulator({ config });
      const chat = route === 'POST /v1/chat/completions';
      const dialects: DialectSource = { knowledge: () => ({ override: 'chat-completions' }), learned: () => undefined };
      try {
        const records: Array<{ route: string; model: string }> = [];
        const priced = { amount: 0.002, source: 'billed' as const, estimate: false };
        const t = chatSession(gateway, {
          getClient: async (onRecorded) =>
            createGatewayClient({
              baseUrl: gateway.url,
              apiKey: 'mg-demo-key-0001',
              maxRetries: 0,
              ...(chat ? { dialects } : {}),
              // What the extension's ledger does: record the response, price it once, tell the chat that figure.
              onUsage: (r) => {
                records.push({ route: r.route, model: r.model });
                onRecorded?.(r, priced);
              },
            }),
          model: 'claude-demo-sonnet',
        });
        await t.s.load();
        t.s.send('Hello [[tokens=20]]');
        await waitUntil(() => t.of('streamFinished').length === 1, 'finish');
        assert.equal(records.length, 1, 'one ledger record per response');
        assert.equal(records[0].route, route);
        assert.deepEqual(t.of('streamFinished')[0].usage?.cost, priced);
      } finally {
        await gateway.close();
      }
    });
  }

  it('streams an answer as batched deltas and finishes with usage and stop reason', async () => {
    const { s, of, finished } = session();
    await s.load();
    assert.equal(s.send('Hello **world** [[tokens=300]]'), undefined);
    await waitUntil(() => finished().length === 1, 'finish');
    const answer = s.store.active.messages[1];
    const deltas = of('streamDelta');
    assert.equal(deltas.map((d) => d.text ?? '').join(''), answer.text, 'deltas add up to the answer');
    assert.ok(deltas.length > 1 && deltas.length < 300, `batched: ${deltas.length} deltas`);
    assert.equal(finished()[0].status, 'complete');
    assert.ok(finished()[0].usage && finished()[0].usage!.output > 0);
    assert.equal(finished()[0].usage?.estimated, undefined, 'a finished answer has the counts the gateway reported');
    assert.ok(typeof finished()[0].stopReason === 'string');
    assert.equal(s.store.active.title, 'Hello world');
    assert.equal(s.busy, false);
  });

  it('stop closes the request at the emulator and keeps the partial answer marked stopped', async () => {
    const { s, of, finished } = session();
    emulator().setFaults('mg-demo-key-0001', { tokensPerSecond: 50 });
    await s.load();
    s.send('Tell me a long story [[tokens=5000]]');
    await waitUntil(() => of('streamDelta').length >= 2, 'some deltas');
    assert.ok(s.send('again') !== undefined, 'no second request while one runs');
    s.stop();
    await waitUntil(() => finished().length === 1, 'finish');
    assert.equal(finished()[0].status, 'stopped');
    const answer = s.store.active.messages[1];
    assert.ok(answer.text.length > 0 && answer.status === 'stopped');
    // The gateway reports output tokens only at the end (message_delta): what streamed is counted, as an estimate.
    const usage = finished()[0].usage;
    assert.equal(usage?.estimated, true, JSON.stringify(usage));
    assert.equal(usage?.output, textTokens(answer.text), 'the one token estimate of what streamed');
    assert.deepEqual(answer.usage, usage, 'the stored answer keeps the same figures');
    await waitUntil(
      () =>
        emulator()
          .requests()
          .some((r) => r.aborted === true),
      'emulator sees the abort',
    );
    assert.equal(messageRequests(), 1);
  });

  it('model picker: catalog models, a free-typed id is kept with a warning, the default is the first chat model', async () => {
    const { s, of } = session();
    await s.load();
    s.setModels([{ id: 'claude-demo-haiku' }, { id: 'claude-demo-sonnet' }]);
    s.setSettings({ model: '' });
    assert.equal(s.snapshot().settings.model, 'claude-demo-haiku');
    s.setSettings({ model: 'my-own-model' });
    const last = of('settings').pop()!;
    assert.equal(last.settings.model, 'my-own-model');
    assert.match(last.warning ?? '', /not in the model list/);
    s.setSettings({ model: 'claude-demo-sonnet' });
    assert.equal(of('settings').pop()!.warning, undefined);
  });

  it("a key switch: the conversation's model the new key's list does not name falls back and is said; no request goes out on it", async () => {
    let key = 'mg-demo-key-0001';
    const t = chatSession(emulator(), {
      getClient: async () => createGatewayClient({ baseUrl: emulator().url, apiKey: key, maxRetries: 0 }),
      model: '',
    });
    await t.s.load();
    const demo = { id: 'demo|1', ids: new Set(['claude-demo-sonnet', 'claude-demo-haiku', 'gpt-image-demo']) };
    t.s.setModels([{ id: 'claude-demo-sonnet' }, { id: 'claude-demo-haiku' }], undefined, demo);
    t.s.setSettings({ model: 'claude-demo-haiku' });
    // Gateway: switch key to the emulator's alt key, whose list names neither demo model.
    key = 'mg-alt-key-0005';
    const alt = { id: 'alt|2', ids: new Set(['claude-alt-opus', 'flux-demo-schnell']) };
    t.s.setModels([{ id: 'claude-alt-opus' }], undefined, alt);
    const shown = t.of('settings').pop()!;
    assert.equal(shown.settings.model, 'claude-alt-opus');
    assert.match(
      shown.warning ?? '',
      /"claude-demo-haiku" is not in the model list of the active key.*"claude-alt-opus"/,
    );
    assert.equal(t.s.store.active.overrides.model, undefined, 'the first start of this list picks it: no own model');
    t.s.send('Hello');
    await waitUntil(() => t.of('streamFinished').length === 1, 'finish');
    assert.equal(t.of('streamFinished')[0].status, 'complete');
    const sent = emulator()
      .requests()
      .filter((r) => r.route?.includes('messages'));
    assert.deepEqual(
      sent.map((r) => `${r.keyName} ${r.model} ${r.status}`),
      ['alt claude-alt-opus 200'],
    );
    // The same list shown again (a settings change): a model typed since is the user's, kept with the old warning.
    t.s.setSettings({ model: 'my-own-model' });
    t.s.setModels([{ id: 'claude-alt-opus' }], undefined, alt);
    assert.equal(t.of('settings').pop()!.settings.model, 'my-own-model');
    // A list that is not the key's own (no list route: declared ids) moves nothing either.
    t.s.setModels([{ id: 'claude-alt-opus' }], undefined, undefined);
    assert.equal(t.of('settings').pop()!.settings.model, 'my-own-model');
  });

  it('a snapshot taken mid-stream (view shown again) plus the later deltas give the answer exactly once', async () => {
    const { s, posted, finished } = session();
    emulator().setFaults('mg-demo-key-0001', { tokensPerSecond: 200 });
    await s.load();
    s.send('Snapshot me [[tokens=300]]');
    await waitUntil(() => posted.filter((m) => m.type === 'streamDelta').length >= 3, 'some deltas');
    const snap = JSON.parse(JSON.stringify(s.snapshot())) as ReturnType<typeof s.snapshot>;
    const from = posted.length;
    await waitUntil(() => finished().length === 1, 'finish');
    const answer = snap.messages[1];
    assert.equal(answer.status, 'streaming');
    const later = posted
      .slice(from)
      .filter((m) => m.type === 'streamDelta')
      .map((m) => (m as { text?: string }).text ?? '')
      .join('');
    assert.equal(answer.text + later, s.store.active.messages[1].text);
  });

  it('a stream cut mid-way keeps the partial text as cut off, with an error card', async () => {
    const { s, finished, of } = session();
    emulator().setFaults('mg-demo-key-0001', { dropAfterEvents: 8 });
    await s.load();
    s.send('Cut me [[tokens=400]]');
    await waitUntil(() => finished().length === 1, 'finish');
    assert.equal(finished()[0].status, 'cutOff');
    assert.ok(s.store.active.messages[1].text.length > 0);
    assert.equal(finished()[0].usage?.estimated, true);
    assert.equal(finished()[0].usage?.output, textTokens(s.store.active.messages[1].text));
    assert.ok(of('errorCard')[0].card);
  });

  it('429 queues with a countdown and sends again by itself, one request at a time', async () => {
    const { s, finished, of } = await sendIntoOne429('rate limited [[tokens=20]]');
    const card = of('errorCard').find((c) => c.card)!.card!;
    assert.equal(card.retryAfterMs, 1000);
    assert.ok(s.busy);
    assert.ok(s.send('another') !== undefined, 'no concurrent send while queued');
    await waitUntil(() => finished().length === 1, 'finish', 8000);
    assert.equal(finished()[0].status, 'complete');
    assert.equal(messageRequests(), 2);
  });

  // The extension's clients retry a 429 themselves (maxRetries 2): that wait, too, shows the countdown at once.
  it('a single 429 retried by the client shows the countdown card during the wait, clears it, then answers', async () => {
    const { s, finished, of } = await sendIntoOne429('rate limited once [[tokens=20]]', 2);
    const card = of('errorCard').find((c) => c.card)!.card!;
    assert.equal(card.kind, 'rate_limited');
    assert.ok(card.retryAfterMs! > 0 && card.retryAfterMs! <= 1000, `wait ${card.retryAfterMs}`);
    assert.ok(!card.actions.includes('retry'), 'no Retry button racing the automatic send');
    await waitUntil(() => finished().length === 1, 'finish', 8000);
    assert.equal(finished()[0].status, 'complete');
    assert.equal(of('errorCard').at(-1)!.card, null, 'the card is cleared once the request went out');
    assert.equal(s.store.active.messages[1].error, undefined);
    assert.equal(messageRequests(), 2);
  });

  it("stop during the client's own 429 wait sends nothing more", async () => {
    const { s, finished } = await sendIntoOne429('rate limited, then stopped', 2);
    s.stop();
    await waitUntil(() => finished().length === 1, 'finish');
    assert.equal(finished()[0].status, 'stopped');
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(messageRequests(), 1);
  });

  it('stop cancels a queued request (nothing is sent later)', async () => {
    const { s, finished } = await sendIntoOne429('queued then stopped');
    s.stop();
    assert.equal(finished()[0].status, 'stopped');
    await new Promise((r) => setTimeout(r, 1300));
    assert.equal(messageRequests(), 1);
  });

  // One owner of "wait and send again" (issue 33): the slot waits out a 429 and resends at most MAX_RATE_LIMIT_WAITS
  // times; a gateway still refusing after that ends the answer with its card and Retry (it used to queue forever).
  it('a 429 that persists is sent again at most twice, then ends with the rate-limited card and Retry', async () => {
    const t = session('mg-demo-key-0001', 10_000, 0);
    emulator().setFaults('mg-demo-key-0001', { status: 429, count: 3, retryAfter: 1 });
    await t.s.load();
    t.s.send('rate limited three times [[tokens=20]]');
    await waitUntil(() => t.finished().length === 1, 'finish', 10_000);
    assert.equal(t.finished()[0].status, 'error');
    assert.equal(messageRequests(), 1 + MAX_RATE_LIMIT_WAITS);
    const card = t.of('errorCard').at(-1)!.card!;
    assert.equal(card.kind, 'rate_limited');
    assert.ok(card.actions.includes('retry'), "Retry is the user's once the waits are used up");
    assert.equal(t.s.busy, false);
  });

  it('5xx shows Retry and is never resent automatically; Retry sends once', async () => {
    const { s, finished, of } = session();
    emulator().setFaults('mg-demo-key-0001', { status: 503, count: 1 });
    await s.load();
    s.send('server error');
    await waitUntil(() => finished().length === 1, 'finish');
    assert.equal(finished()[0].status, 'error');
    assert.ok(of('errorCard')[0].card!.actions.includes('retry'));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(messageRequests(), 1);
    const failed = s.store.active.messages[1];
    assert.equal(s.retry(failed.id), undefined);
    await waitUntil(() => finished().length === 2, 'second finish');
    assert.equal(finished()[1].status, 'complete');
  });

  it('401 offers Replace Key; low balance 403 offers Check Connection; timeout says outcome unknown without Retry', async () => {
    const revoked = session('mg-revoked-0004');
    await revoked.s.load();
    revoked.s.send('hi');
    await waitUntil(() => revoked.finished().length === 1, '401');
    assert.ok(revoked.of('errorCard')[0].card!.actions.includes('replaceKey'));

    const poor = session('mg-low-balance-0003');
    await poor.s.load();
    poor.s.send('hi');
    await waitUntil(() => poor.finished().length === 1, '403');
    assert.equal(poor.of('errorCard')[0].card!.status, 403);
    assert.ok(poor.of('errorCard')[0].card!.actions.includes('checkConnection'));

    emulator().setFaults('mg-demo-key-0001', { hang: true });
    const slow = session('mg-demo-key-0001', 300);
    await slow.s.load();
    slow.s.send('hi');
    await waitUntil(() => slow.finished().length === 1, 'timeout');
    const card = slow.of('errorCard')[0].card!;
    assert.equal(card.outcomeUnknown, true);
    assert.ok(!card.actions.includes('retry'));
  });

  it('max_tokens stop, then Continue appends to the same answer; regenerate and edit replace later turns', async () => {
    const { s, finished, of } = session();
    await s.load();
    s.setSettings({ maxTokens: 10 });
    s.send('long please [[tokens=200]]');
    await waitUntil(() => finished().length === 1, 'first');
    const answer = s.store.active.messages[1];
    assert.equal(answer.stopReason, 'max_tokens');
    const before = answer.text;
    assert.equal(s.continueAnswer(answer.id), undefined);
    await waitUntil(() => finished().length === 2, 'continued');
    assert.equal(s.store.active.messages.length, 2);
    assert.ok(answer.text.length > before.trimEnd().length && answer.text.startsWith(before.trimEnd()));

    assert.equal(s.regenerate(answer.id), undefined);
    await waitUntil(() => finished().length === 3, 'regenerated');
    assert.ok(of('messagesTruncated').some((t) => t.fromMessageId === answer.id));
    assert.equal(s.store.active.messages.length, 2);

    const question = s.store.active.messages[0];
    assert.equal(s.editAndResend(question.id, 'edited question'), undefined);
    await waitUntil(() => finished().length === 4, 'edited');
    assert.equal(s.store.active.messages.length, 2);
    assert.equal(s.store.active.messages[0].text, 'edited question');
    assert.ok(s.store.active.messages[1].text.includes('edited question'), 'the emulator quotes the new question');
  });
  it('an empty prompt is refused without a request; a 21 MB prompt gets a clean 413 card and keeps the question', async () => {
    const { s, of, finished } = session();
    await s.load();
    assert.equal(s.send('   \n  '), 'Nothing to send.');
    assert.equal(emulator().requests().length, 0, 'nothing was sent');
    const huge = 'x'.repeat(21 * 1024 * 1024);
    assert.equal(s.send(huge), undefined);
    await waitUntil(() => finished().length === 1, 'the 413', 20_000);
    const card = of('errorCard').find((c) => c.card)?.card;
    assert.ok(card, 'an error card');
    assert.equal(card.status, 413);
    assert.equal(s.store.active.messages[0].text.length, huge.length, 'the question is kept, whole');
  });
});
