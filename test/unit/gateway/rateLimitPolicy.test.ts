// The one 429 policy (src/gateway/rateLimitPolicy.ts): each caller's waits and caps, what counts as a 429 before any
// content (a real GatewayError, never a look-alike nor a cut stream), and the callers that read it: the chat's
// request slot, the image queue and the completions' hold-off.
import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors/errors';
import {
  holdOffAfter,
  isRateLimited,
  RATE_LIMIT_PROFILES,
  rateLimitWait,
  retryAfterOf,
} from '../../../src/gateway/rateLimitPolicy';
import { RequestSlot } from '../../../src/chat/session/requestSlot';
import type { Conversation } from '../../../src/chat/session/conversation';
import type { ChatMessage } from '../../../src/shared/protocol/chat';

const limited = (retryAfterMs?: number, extra: Partial<ConstructorParameters<typeof GatewayError>[0]> = {}) =>
  new GatewayError({
    kind: 'rate_limited',
    route: 'POST /v1/messages',
    status: 429,
    retryAfterMs,
    message: '429',
    ...extra,
  });

/** How many times a caller sends again after a 429 with `retryAfterMs`, and the waits. */
function waits(profile: (typeof RATE_LIMIT_PROFILES)['chat'], retryAfterMs?: number): Array<number | undefined> {
  const out: Array<number | undefined> = [];
  for (let attempt = 1; attempt <= 7; attempt++) out.push(rateLimitWait(limited(retryAfterMs), attempt, profile));
  return out;
}

describe('the 429 policy', () => {
  it('chat waits twice, the agent five times, completions never; 10 s when no Retry-After came', () => {
    const u = undefined;
    assert.deepEqual(waits(RATE_LIMIT_PROFILES.chat, 1000), [1000, 1000, u, u, u, u, u]);
    assert.deepEqual(waits(RATE_LIMIT_PROFILES.chat), [10_000, 10_000, u, u, u, u, u]);
    assert.deepEqual(waits(RATE_LIMIT_PROFILES.agent, 1000), [1000, 1000, 1000, 1000, 1000, u, u]);
    assert.deepEqual(waits(RATE_LIMIT_PROFILES.completions, 1000), [u, u, u, u, u, u, u]);
    assert.deepEqual(waits(RATE_LIMIT_PROFILES.client, 1000), [1000, 1000, u, u, u, u, u]);
  });

  it('sits through at most 5 minutes in the chat and the agent, a minute in the client; longer ends the request', () => {
    assert.equal(rateLimitWait(limited(300_000), 1, RATE_LIMIT_PROFILES.agent), 300_000);
    assert.equal(rateLimitWait(limited(300_001), 1, RATE_LIMIT_PROFILES.agent), undefined);
    assert.equal(rateLimitWait(limited(300_001), 1, RATE_LIMIT_PROFILES.chat), undefined);
    assert.equal(rateLimitWait(limited(60_001), 1, RATE_LIMIT_PROFILES.client), undefined);
  });

  it('reads only a GatewayError refused before any content: not a look-alike, not a cut stream', () => {
    assert.equal(isRateLimited(limited(5)), true);
    assert.equal(isRateLimited(Object.assign(new Error('429'), { kind: 'rate_limited', retryAfterMs: 5 })), false);
    assert.equal(isRateLimited({ kind: 'rate_limited', retryAfterMs: 5 }), false);
    const cut = limited(5, { cut: { receivedBytes: 10 } as never, outcomeUnknown: true });
    assert.equal(isRateLimited(cut), false);
    assert.equal(retryAfterOf(cut), undefined);
    assert.equal(
      rateLimitWait(
        new GatewayError({ kind: 'server', route: 'r', status: 500, message: 'x' }),
        1,
        RATE_LIMIT_PROFILES.agent,
      ),
      undefined,
    );
  });

  it('completions keep away for the Retry-After, 30 s without one, at most 10 minutes', () => {
    assert.equal(holdOffAfter(limited(60_000), RATE_LIMIT_PROFILES.completions), 60_000);
    assert.equal(holdOffAfter(limited(), RATE_LIMIT_PROFILES.completions), 30_000);
    assert.equal(holdOffAfter(limited(3_600_000), RATE_LIMIT_PROFILES.completions), 600_000);
    assert.equal(holdOffAfter(new Error('x'), RATE_LIMIT_PROFILES.completions), undefined);
  });

  describe("the chat's request slot", () => {
    const slotWith = () => {
      const scheduled: number[] = [];
      const slot = new RequestSlot({
        timers: {
          now: () => 0,
          setTimeout: (_fn: () => void, ms: number) => scheduled.push(ms),
          clearTimeout: () => undefined,
        },
        now: () => 0,
        onBusy: () => undefined,
        countdown: () => undefined,
      });
      const conversation = { id: 'c', messages: [] } as unknown as Conversation;
      const message = { id: 'm', role: 'assistant', text: '', status: 'streaming' } as unknown as ChatMessage;
      return { slot, scheduled, request: slot.begin(conversation, message) };
    };

    it("waits a 429's Retry-After in the slot, then sends again", () => {
      const { slot, scheduled, request } = slotWith();
      assert.equal(
        slot.waitIfRateLimited(request, limited(2000), () => undefined),
        true,
      );
      assert.deepEqual(scheduled, [2000]);
    });

    it('does not hold an answer for a Retry-After beyond the 5 minutes the agent waits: its card offers Retry', () => {
      const { slot, scheduled, request } = slotWith();
      assert.equal(
        slot.waitIfRateLimited(request, limited(3_600_000), () => undefined),
        false,
      );
      assert.deepEqual(scheduled, []);
      assert.equal(slot.busy, true, 'the request still holds the slot until it ends');
    });
  });
});
