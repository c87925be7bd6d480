// A stopped answer is priced with the output that streamed (issue 35 item 2): the gateway reports output tokens only
// in its last event, so message_start's placeholder of 1 must not be what the footer's cost is computed from.
import { strict as assert } from 'node:assert';
import { createGatewayClient, type UsageRecord } from '../../../src/gateway';
import { chatSession, waitUntil } from './chatSessionFixture';
import { useEmulator } from '../emulator/helpers';

describe('chat: a stopped answer is priced with its estimated output (emulator)', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  it('the cost is computed from the estimated output tokens, the same figure the footer shows', async () => {
    const priced: UsageRecord[] = [];
    const t = chatSession(emulator(), {
      getClient: async () =>
        createGatewayClient({ baseUrl: emulator().url, apiKey: 'mg-demo-key-0001', maxRetries: 0 }),
      model: 'claude-demo-sonnet',
      costOf: (record) => {
        priced.push(record);
        const out = record.usage?.output_tokens ?? 0;
        return { amount: out / 1000, currency: 'USD', source: 'gateway', estimate: true };
      },
    });
    emulator().setFaults('mg-demo-key-0001', { tokensPerSecond: 50 });
    await t.s.load();
    t.s.send('Tell me a long story [[tokens=4000]]');
    await waitUntil(() => t.of('streamDelta').length >= 3, 'some deltas');
    t.s.stop();
    await waitUntil(() => t.of('streamFinished').length === 1, 'finish');
    const usage = t.of('streamFinished')[0].usage!;
    assert.equal(usage.estimated, true);
    assert.ok(usage.outputTokens > 1);
    assert.equal(priced.length, 1);
    assert.equal(priced[0].usage!.output_tokens, usage.outputTokens, 'priced with the output the footer shows');
    assert.equal(usage.cost?.amount, usage.outputTokens / 1000);
  });
});
