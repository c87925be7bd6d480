// Soak: long fault runs against the emulator through the gateway core.
// - 429 storm: a burst of queued requests on a rate-limited key all complete, one request in flight at a time.
// - 300 streams under random faults (drops, mid-stream errors, 5xx, bare data lines): every outcome is a
//   finished message or a typed GatewayError, partial text is kept, and the emulator's billable counter
//   equals the number of requests sent (no POST was ever replayed).
import * as assert from 'node:assert/strict';
import { defaultConfig } from '../../src/emulator';
import { createGatewayClient, isGatewayError } from '../../src/gateway';
import { useEmulator } from '../support/emulatorLifecycle';

const KEY = 'mg-demo-key-0001';

describe('soak: faults through the gateway core', function () {
  this.timeout(0);
  const emulator = useEmulator(
    () => {
      const config = defaultConfig();
      config.keys.push({
        key: 'mg-storm-key',
        name: 'storm',
        group: 'default',
        balance: 1000,
        rateLimit: { requests: 5, windowMs: 1000 },
      });
      return config;
    },
    { resetBeforeEach: false },
  );

  it('429 storm: 40 queued model-list reads all complete, never two in flight', async () => {
    const client = createGatewayClient({
      baseUrl: emulator().url,
      apiKey: 'mg-storm-key',
      maxRetries: 50,
      maxRetryWaitMs: 5000,
    });
    const results = await Promise.all(Array.from({ length: 40 }, () => client.listModels()));
    assert.equal(results.length, 40);
    for (const models of results) assert.ok(models.length > 0);
    const log = emulator()
      .requests()
      .filter((r) => r.route === 'models');
    const limited = log.filter((r) => r.status === 429).length;
    assert.ok(limited > 0, 'the storm really hit the rate limit');
    // After the first 429 the client queues: each request starts only after the previous one ended.
    const after429 = log
      .slice(log.findIndex((r) => r.status === 429) + 1)
      .sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
    for (let i = 1; i < after429.length; i++) {
      const previousEnd = Date.parse(after429[i - 1].time) + after429[i - 1].durationMs;
      assert.ok(Date.parse(after429[i].time) >= previousEnd - 2, `request ${i} started before request ${i - 1} ended`);
    }
  });

  it('300 streams under random faults: typed outcomes only, no replays', async () => {
    const client = createGatewayClient({ baseUrl: emulator().url, apiKey: KEY, timeoutMs: 10_000 });
    const faults = [
      null,
      { dropAfterEvents: 5 },
      { errorAfterEvents: 4, errorType: 'overloaded_error' },
      { status: 500, count: 1 },
      { status: 502, count: 1, htmlError: true },
      { noEventLines: true },
      { tokensPerSecond: 0 },
    ];
    const before = emulator().billableCount('messages');
    let finished = 0;
    let failed = 0;
    for (let i = 0; i < 300; i++) {
      emulator().setFaults(KEY, faults[i % faults.length]);
      const stream = client.streamMessage({
        model: 'claude-demo-haiku',
        max_tokens: 400,
        messages: [{ role: 'user', content: `soak ${i} [[tokens=60]]` }],
      });
      try {
        const message = await stream.finalMessage();
        assert.ok(message.content.length > 0);
        finished++;
      } catch (err) {
        assert.ok(isGatewayError(err), `typed error, got ${String(err)}`);
        if (err.partial) assert.equal(err.partial.role, 'assistant');
        failed++;
      }
    }
    emulator().setFaults(KEY, null);
    assert.equal(finished + failed, 300);
    assert.ok(finished > 0 && failed > 0, `both outcomes seen (${finished} finished, ${failed} failed)`);
    assert.equal(
      emulator().billableCount('messages') - before,
      300,
      'one billable request per stream: nothing replayed',
    );
  });
});
