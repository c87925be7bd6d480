// onUsage: one record per billable response that got an answer, with the billed cost where the gateway states it
// (LiteLLM's x-litellm-response-cost header, OpenRouter's usage.cost). Real sockets against the emulator.
import assert from 'node:assert/strict';
import { createGatewayClient, type MessagesRequest, type UsageRecord } from '../../../src/gateway';
import type { DialectSource } from '../../../src/gateway/types';
import { gatewayPricesOf, resolveCost, tokenCountsOf } from '../../../src/gateway/pricing';
import { defaultConfig, startEmulator, type Emulator } from '../../../src/emulator';
import { DEMO } from '../emulator/helpers';

/** What the emulator charges for a claude-demo-haiku reply: its tokens at the 1 / 5 per million its list publishes. */
const listed = (u: { input_tokens: number; output_tokens: number }): number =>
  Math.round(u.input_tokens * 1 + u.output_tokens * 5) / 1e6;

const REQUEST: MessagesRequest = {
  model: 'claude-demo-haiku',
  max_tokens: 64,
  messages: [{ role: 'user', content: 'hi' }],
};

describe('gateway client: usage records and billed cost', () => {
  const started: Emulator[] = [];
  after(async () => Promise.all(started.map((e) => e.close())));
  async function setup(
    dialect: string,
    dialects?: DialectSource,
  ): Promise<{ emu: Emulator; records: UsageRecord[]; client: ReturnType<typeof createGatewayClient> }> {
    const config = defaultConfig();
    config.dialect = dialect;
    config.messages.tokensPerSecond = 0;
    const emu = await startEmulator({ config });
    started.push(emu);
    const records: UsageRecord[] = [];
    const client = createGatewayClient({ baseUrl: emu.url, apiKey: DEMO, dialects, onUsage: (r) => records.push(r) });
    return { emu, records, client };
  }

  it('LiteLLM: the cost header becomes usage.cost of the streamed and the whole message, one record each', async () => {
    const { records, client } = await setup('litellm');
    const streamed = await client.streamMessage(REQUEST).finalMessage();
    assert.equal(streamed.usage.cost, listed(streamed.usage));
    const whole = await client.createMessage(REQUEST);
    assert.equal(whole.usage.cost, listed(whole.usage));
    assert.equal(records.length, 2);
    assert.deepEqual(
      records.map((r) => [r.route, r.model, r.usage?.cost]),
      [
        ['POST /v1/messages', 'claude-demo-haiku', listed(streamed.usage)],
        ['POST /v1/messages', 'claude-demo-haiku', listed(whole.usage)],
      ],
    );
  });

  it("a request's usageKind is in its record (streamed and whole); without one the record says none", async () => {
    const { records, client } = await setup('new-api');
    await client.streamMessage(REQUEST, { usageKind: 'agent' }).finalMessage();
    await client.createMessage(REQUEST, { usageKind: 'chat' });
    await client.streamMessage(REQUEST).finalMessage();
    assert.deepEqual(
      records.map((r) => r.kind),
      ['agent', 'chat', undefined],
    );
  });

  it('OpenRouter: usage.cost as sent; a gateway that states no cost leaves it unset', async () => {
    const or = await setup('openrouter');
    const priced = await or.client.streamMessage(REQUEST).finalMessage();
    assert.equal(priced.usage.cost, listed(priced.usage));
    const plain = await setup('new-api');
    const message = await plain.client.streamMessage(REQUEST).finalMessage();
    assert.equal(message.usage.cost, undefined);
    assert.ok(plain.records[0].usage!.output_tokens > 0);
  });

  it('chat-completions: OpenRouter usage.cost and LiteLLM header reach usage.cost, records name the dialect', async () => {
    const chatOnly: DialectSource = { knowledge: () => ({ override: 'chat-completions' }), learned: () => undefined };
    const or = await setup('openrouter', chatOnly);
    const answers = [await or.client.streamMessage(REQUEST).finalMessage(), await or.client.createMessage(REQUEST)];
    const ll = await setup('litellm', chatOnly);
    answers.push(await ll.client.streamMessage(REQUEST).finalMessage());
    for (const answer of answers) assert.equal(answer.usage.cost, listed(answer.usage));
    assert.deepEqual(
      [...or.records, ...ll.records].map((r) => [r.route, r.dialect, r.usage?.cost]),
      answers.map((a) => ['POST /v1/chat/completions', 'chat-completions', listed(a.usage)]),
    );
    const messages = await setup('default');
    await messages.client.createMessage(REQUEST);
    assert.equal(messages.records[0].dialect, 'messages');
  });

  it('a stream cut after it started is recorded once (the gateway may have billed it); a refused request is not', async () => {
    const { emu, records, client } = await setup('default');
    emu.setFaults(DEMO, { errorAfterEvents: 4 });
    await assert.rejects(client.streamMessage({ ...REQUEST, max_tokens: 400 }).finalMessage());
    assert.equal(records.length, 1);
    emu.setFaults(DEMO, { status: 403, count: 1 });
    await assert.rejects(client.streamMessage(REQUEST).finalMessage());
    assert.equal(records.length, 1);
  });

  it("a stopped answer is recorded with its output estimated from the text received, not message_start's 1", async () => {
    const { records, client } = await setup('default');
    const stream = client.streamMessage({
      ...REQUEST,
      max_tokens: 8000,
      messages: [{ role: 'user', content: 'a long answer [[tokens=4000]]' }],
    });
    let chars = 0;
    for await (const event of stream) {
      const delta = (event as { delta?: { text?: string } }).delta;
      chars += delta?.text?.length ?? 0;
      if (chars > 2000) break;
    }
    stream.abort();
    await assert.rejects(stream.finalMessage());
    assert.equal(records.length, 1);
    const output = records[0].usage!.output_tokens;
    assert.ok(output >= 500, `output estimated from ~${chars} characters: ${output}`);
    assert.equal(records[0].outputEstimated, true);
    assert.ok(records[0].usage!.input_tokens > 0, 'the input as reported');
  });

  it('the emulator publishes prices in its model list (OpenRouter shape) that price an answer as an estimate', async () => {
    const { client } = await setup('default');
    const sonnet = (await client.listModels()).find((m) => m.id === 'claude-demo-sonnet');
    const prices = gatewayPricesOf(sonnet);
    assert.deepEqual([prices?.input, prices?.output], [3, 15]);
    const message = await client.createMessage({ ...REQUEST, model: 'claude-demo-sonnet' });
    const cost = resolveCost({ tokens: tokenCountsOf(message.usage), gatewayPrices: prices });
    assert.equal(cost?.source, 'gateway');
    assert.equal(cost?.estimate, true);
    assert.ok(cost!.amount > 0);
  });

  it('images: count and size of a generation, and of an accepted async task', async () => {
    const { records, client } = await setup('default');
    await client.generateImage({
      model: 'gpt-image-demo',
      prompt: 'a cat',
      size: '256x256',
      n: 2,
      response_format: 'b64_json',
    });
    await client.submitImageTask('generation', { model: 'gpt-image-demo', prompt: 'a dog', size: '512x512' });
    assert.deepEqual(
      records.map((r) => [r.route, r.model, r.images]),
      [
        ['POST /v1/images/generations', 'gpt-image-demo', { count: 2, size: '256x256' }],
        ['POST /v1/images/generations/async', 'gpt-image-demo', { count: 1, size: '512x512' }],
      ],
    );
  });
});
