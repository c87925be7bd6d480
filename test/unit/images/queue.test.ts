import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors/errors';
import { RequestQueue } from '../../../src/images/queue';

describe('images/queue', () => {
  it('runs one request at a time, in order', async () => {
    const queue = new RequestQueue();
    const log: string[] = [];
    let inFlight = 0;
    const job = (name: string) =>
      queue.run(async () => {
        inFlight++;
        assert.equal(inFlight, 1);
        log.push(`start ${name}`);
        await new Promise((r) => setImmediate(r));
        log.push(`end ${name}`);
        inFlight--;
        return name;
      });
    assert.deepEqual(await Promise.all([job('a'), job('b'), job('c')]), ['a', 'b', 'c']);
    assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('after a 429 with Retry-After, the next request waits that long (virtual clock)', async () => {
    let clock = 1000;
    const slept: number[] = [];
    const queue = new RequestQueue(
      () => clock,
      async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    );
    await assert.rejects(
      queue.run(() =>
        Promise.reject(
          new GatewayError({
            kind: 'rate_limited',
            route: 'POST /v1/images/generations',
            status: 429,
            retryAfterMs: 5000,
            message: '429',
          }),
        ),
      ),
    );
    assert.equal(queue.pendingPauseMs(), 5000);
    assert.equal(await queue.run(async () => 'ok'), 'ok');
    assert.deepEqual(slept, [5000]);
  });

  it('a failure does not block later requests', async () => {
    const queue = new RequestQueue();
    await assert.rejects(queue.run(() => Promise.reject(new Error('boom'))));
    assert.equal(await queue.run(async () => 1), 1);
  });
});
