// The context meter's figures (issue 35 item 13): the condenser's estimate of the next request against the model's
// input window, told to the view after each answer, and smaller once older turns are condensed.
import { strict as assert } from 'node:assert';
import { estimateTokens } from '../../../src/agent';
import { contextUse, historyCalibration } from '../../../src/chat/condense/contextMeter';
import { buildMessagesRequest, NO_IMAGES } from '../../../src/chat/ask/requestBuilder';
import type { ChatMessage } from '../../../src/shared/protocol/chat';
import { createGatewayClient } from '../../../src/gateway';
import { chatSession } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';
import { useEmulator } from '../emulator/helpers';

const settings = { model: 'm', maxTokens: 1000, systemPrompt: '' };
const m = (id: string, role: 'user' | 'assistant', text: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  role,
  text,
  status: 'complete',
  createdAt: 0,
  ...extra,
});

describe('context meter', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  it('the estimate the condenser uses, against the input window (window minus max tokens); a summary counts instead', () => {
    const history = [m('u1', 'user', 'x'.repeat(3000)), m('a1', 'assistant', 'y'.repeat(3000)), m('u2', 'user', 'q')];
    const use = contextUse(history, settings, NO_IMAGES, 11_000, 0.8);
    assert.equal(use.used, estimateTokens(buildMessagesRequest(history, settings, NO_IMAGES)));
    assert.equal(use.window, 11_000, 'the whole window when nothing else is named');
    assert.equal(use.condenseAt, 8_000, '0.8 of the window minus max tokens');
    const condensed = [
      ...history.slice(0, 2),
      m('u2', 'user', 'q'),
      m('a2', 'assistant', 'ok', {
        condensed: { through: 'a1', summary: 'short', tokens: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } },
      }),
    ];
    assert.ok(
      contextUse(condensed, settings, NO_IMAGES, 11_000, 0.8).used < use.used,
      'the summary stands for the turns it covers',
    );
    assert.equal(contextUse([], settings, NO_IMAGES, 11_000, 0.8).used, 0);
  });

  it('after an agent turn: its last request as the gateway reported it (input + cache read + cache write, and its output)', () => {
    const tokens = (input: number, extra: Partial<ChatMessage['usage']> = {}) => ({
      input,
      output: 60,
      cacheRead: 200,
      cacheWrite: 77,
      ...extra,
    });
    const agentAnswer = (last: ReturnType<typeof tokens>) =>
      m('a1', 'assistant', 'Done.', {
        usage: { input: 3_000, output: 120, cacheRead: 400, cacheWrite: 77 },
        agent: {
          turnId: 't1',
          tools: [],
          steps: [
            { step: 1, tokens: tokens(1_000) },
            { step: 2, tokens: last },
          ],
        },
      });
    // Issue 45: "~389 of 195,904 tokens" after a turn whose last request carried 2,277 input tokens.
    const history = [m('u1', 'user', 'Read src/text.js'), agentAnswer(tokens(2_000))];
    assert.equal(contextUse(history, settings, NO_IMAGES, 200_000, 0.8).used, 2_000 + 200 + 77 + 60);
    // A question waiting after it counts on top.
    const waiting = [...history, m('u2', 'user', 'x'.repeat(3000))];
    const more = contextUse(waiting, settings, NO_IMAGES, 200_000, 0.8).used;
    assert.ok(more > 2_337 + 900, `${more}`);
    // An estimated count (a stopped step) is no report: the estimate stands.
    const estimated = [m('u1', 'user', 'Read src/text.js'), agentAnswer(tokens(2_000, { estimated: true }))];
    assert.ok(contextUse(estimated, settings, NO_IMAGES, 200_000, 0.8).used < 100);
  });

  it('says whether Condense has anything to summarise: not while the conversation has two turns or fewer', () => {
    const turns = (n: number) =>
      Array.from({ length: n }, (_, i) => [m(`u${i}`, 'user', `q${i}`), m(`a${i}`, 'assistant', `a${i}`)]).flat();
    assert.equal(contextUse(turns(1), settings, NO_IMAGES, 11_000, 0.8).condensable, false);
    assert.equal(contextUse(turns(2), settings, NO_IMAGES, 11_000, 0.8).condensable, false);
    assert.equal(contextUse(turns(3), settings, NO_IMAGES, 11_000, 0.8).condensable, true);
  });

  it('names the same window with any max tokens; condensing starts at the threshold of the window minus max tokens', () => {
    const history = [m('u1', 'user', 'hello')];
    for (const maxTokens of [1024, 20_000]) {
      const use = contextUse(history, { ...settings, maxTokens }, NO_IMAGES, 200_000, 0.8, 200_000);
      assert.equal(use.window, 200_000);
      assert.equal(use.condenseAt, Math.round(0.8 * (200_000 - maxTokens)));
    }
  });

  it("is calibrated by the last answer's reported input tokens against our estimate of the request it answered", () => {
    const asked = [m('u1', 'user', 'x'.repeat(3000))];
    const plainAsked = estimateTokens(buildMessagesRequest(asked, settings, NO_IMAGES));
    const reported = Math.round(plainAsked * 0.8);
    const answer = (extra: Partial<ChatMessage> = {}) =>
      m('a1', 'assistant', 'y'.repeat(3000), {
        usage: { input: reported - 30, output: 900, cacheRead: 20, cacheWrite: 10 },
        ...extra,
      });
    const history = [...asked, answer(), m('u2', 'user', 'q')];
    const plain = estimateTokens(buildMessagesRequest(history, settings, NO_IMAGES));
    const ratio = reported / plainAsked;
    assert.equal(historyCalibration(history, settings, NO_IMAGES), ratio);
    assert.equal(contextUse(history, settings, NO_IMAGES, 11_000, 0.8).used, Math.ceil(plain * ratio));
    // The answer in progress has no count yet: the one before it calibrates.
    const streaming = [...history, m('a2', 'assistant', '', { status: 'streaming' })];
    assert.equal(historyCalibration(streaming, settings, NO_IMAGES), ratio);
    // Clamped: a report ten times our estimate counts twice.
    const tenfold = [...asked, answer({ usage: { input: plainAsked * 10, output: 1, cacheRead: 0, cacheWrite: 0 } })];
    assert.equal(historyCalibration(tenfold, settings, NO_IMAGES), 2);
    // No calibration (the heuristic as it is) after an estimated, unreported, agent, condensing or failed answer.
    const unusable: Array<Partial<ChatMessage>> = [
      { usage: { input: reported, output: 1, cacheRead: 0, cacheWrite: 0, estimated: true } },
      { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, notReported: true } },
      { usage: undefined },
      { status: 'stopped' },
      { agent: {} as ChatMessage['agent'] },
      { condensed: { through: 'u1', summary: 's', tokens: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } } },
    ];
    for (const extra of unusable)
      assert.equal(historyCalibration([...asked, answer(extra), m('u2', 'user', 'q')], settings, NO_IMAGES), undefined);
    assert.equal(historyCalibration([m('u1', 'user', 'hi')], settings, NO_IMAGES), undefined);
  });

  it('the view is told after an answer, for the open conversation', async () => {
    const t = chatSession(emulator(), {
      getClient: async () =>
        createGatewayClient({ baseUrl: emulator().url, apiKey: 'mg-demo-key-0001', maxRetries: 0 }),
      model: 'claude-demo-sonnet',
      contextWindow: () => 50_000,
    });
    await t.s.load();
    t.s.send('Hello [[tokens=20]]');
    await waitUntil(() => t.of('streamFinished').length === 1, 'finish');
    const last = t.of('context').at(-1)!;
    assert.equal(last.conversationId, t.s.store.active.id);
    assert.equal(last.window, 50_000, 'the window the model list names');
    assert.equal(last.condenseAt, Math.round(0.8 * (50_000 - 1024)));
    assert.ok(last.used > 0);
  });
});
