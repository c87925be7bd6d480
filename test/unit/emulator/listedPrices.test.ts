// The demo's figures agree (issue 45, item 7): the emulator charges each reply its tokens at the prices its model list
// publishes, so the answer's "gateway price" estimate (resolveCost over the listed pricing), Show Usage's sum of those
// and the balance the gateway reports are the same amounts. Every chat model of npm start's demo key (demo-start),
// in Ask and with prompt caching; a code-completion fill too.
import * as assert from 'node:assert/strict';
import { createGatewayClient, type ModelInfo } from '../../../src/gateway';
import { gatewayPricesOf, resolveCost, sumCosts, tokenCountsOf } from '../../../src/gateway/pricing';
import { classifyModel } from '../../../src/catalog/classify';
import { defaultConfig, startEmulator, type Emulator } from '../../../src/emulator';

const KEY = 'mg-demo-start-0012';

describe("the demo's listed prices are what it charges", () => {
  let emu: Emulator;
  before(async () => {
    const config = defaultConfig();
    config.messages.tokensPerSecond = 0;
    emu = await startEmulator({ config });
  });
  after(() => emu.close());

  it("every chat model: the answer's gateway-price estimate, their sum (Show Usage) and the balance used agree", async () => {
    const client = createGatewayClient({ baseUrl: emu.url, apiKey: KEY, maxRetries: 0 });
    const list: ModelInfo[] = await client.listModels();
    const chat = list.filter((m) => classifyModel(m) === 'chat');
    assert.ok(chat.length >= 5, chat.map((m) => m.id).join());
    const estimates = [];
    const system = [
      { type: 'text' as const, text: 'Long rules. '.repeat(600), cache_control: { type: 'ephemeral' as const } },
    ];
    for (const entry of chat) {
      for (const request of [
        { model: entry.id, max_tokens: 300, messages: [{ role: 'user' as const, content: 'Hello there' }] },
        // The same cached prefix twice: a cache write, then a cache read (priced at 1.25× and 0.1× of input).
        { model: entry.id, max_tokens: 100, system, messages: [{ role: 'user' as const, content: 'one' }] },
        { model: entry.id, max_tokens: 100, system, messages: [{ role: 'user' as const, content: 'two' }] },
      ]) {
        const before = emu.requests().length;
        const answer = await client.streamMessage(request).finalMessage();
        const estimate = resolveCost({ tokens: tokenCountsOf(answer.usage), gatewayPrices: gatewayPricesOf(entry) });
        assert.ok(estimate?.source === 'gateway', `${entry.id}: the list prices it`);
        const charged = emu
          .requests()
          .slice(before)
          .reduce((sum, r) => sum + (r.charged ?? 0), 0);
        assert.ok(
          Math.abs(estimate.amount - charged) < 1e-6,
          `${entry.id}: estimate ${estimate.amount}, charged ${charged}`,
        );
        estimates.push(estimate);
      }
    }
    const shown = sumCosts(estimates)!.amount;
    const used = 100 - emu.balance(KEY)!;
    assert.ok(Math.abs(shown - used) < 1e-5, `Show Usage ${shown}, balance used ${used}`);
  });
});
