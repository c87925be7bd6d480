// A stopped answer is priced with the output that streamed (issue 35 item 2): the gateway reports output tokens only
// in its last event, so message_start's placeholder of 1 must not be what the ledger records and the footer prices.
import { strict as assert } from 'node:assert';
import { createGatewayClient, type UsageRecord } from '../../../src/gateway';
import { chatSession } from './chatSessionFixture';
import { waitUntil } from '../../support/poll';
import { useEmulator } from '../emulator/helpers';

describe('chat: a stopped answer is recorded and priced with its estimated output (emulator)', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  it('the ledger record carries the estimated output (marked) and the cost shown is priced from it', async () => {
    const records: UsageRecord[] = [];
    const t = chatSession(emulator(), {
      getClient: async (onRecorded) =>
        createGatewayClient({
          baseUrl: emulator().url,
          apiKey: 'mg-demo-key-0001',
          maxRetries: 0,
          // What the extension's ledger does: record the response, price it, tell the chat that figure.
          onUsage: (r) => {
            records.push(r);
            const out = r.usage?.output_tokens ?? 0;
            onRecorded?.(r, { amount: out / 1000, source: 'gateway', estimate: true });
          },
        }),
      model: 'claude-demo-sonnet',
    });
    emulator().setFaults('mg-demo-key-0001', { tokensPerSecond: 50 });
    await t.s.load();
    t.s.send('Tell me a long story [[tokens=4000]]');
    await waitUntil(() => t.of('streamDelta').length >= 3, 'some deltas');
    t.s.stop();
    await waitUntil(() => t.of('streamFinished').length === 1, 'finish');
    const usage = t.of('streamFinished')[0].usage!;
    assert.equal(usage.estimated, true);
    assert.ok(usage.output > 1);
    assert.equal(records.length, 1);
    assert.equal(records[0].outputEstimated, true, 'the ledger marks it estimated');
    assert.equal(records[0].usage!.output_tokens, usage.output, 'recorded with the output the footer shows');
    assert.equal(usage.cost?.amount, usage.output / 1000, 'priced from it, not from 1 output token');
  });
});
