// Prompt-cache accounting (src/emulator/promptCache.ts): cache_control breakpoints split the input into
// cache writes, cache reads and the uncached rest, per key, model and exact prefix; without breakpoints
// nothing is cached. Real sockets for the route; the cache class directly for lifetimes (explicit clock).
import { strict as assert } from 'node:assert';
import { defaultConfig, type EmulatorConfig } from '../../../src/emulator';
import { imageBlockTokens, inputTokens, PromptCache } from '../../../src/emulator/promptCache';
import { pngBytes } from '../../support/imageBytes';
import { DEMO, messagesHeaders, parseSse, post, useEmulator } from './helpers';

const EPH = { type: 'ephemeral' };
const AGENT_KEY = 'mg-agent-key-0008'; // its group has claude-demo-sonnet too
/** A system prompt of a few hundred tokens (the test config caches prefixes from 100 tokens). */
const SYSTEM = Array.from({ length: 120 }, (_v, i) => `Rule ${i}: be precise.`).join(' ');
const TOOLS = [
  {
    name: 'read_file',
    description: 'Read a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

type Usage = {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
};

function lowMinimum(): EmulatorConfig {
  const c = defaultConfig();
  c.messages.promptCache = { minTokens: 100, ttlMs: 300_000 };
  c.messages.tokensPerSecond = 0;
  return c;
}

function body(
  messages: Array<Record<string, unknown>>,
  cached = true,
  model = 'claude-demo-sonnet',
): Record<string, unknown> {
  return {
    model,
    max_tokens: 200,
    tools: TOOLS,
    system: [{ type: 'text', text: SYSTEM, ...(cached ? { cache_control: EPH } : {}) }],
    messages,
  };
}

describe('emulator: prompt-cache accounting', () => {
  const emu = useEmulator(lowMinimum);

  async function usageOf(b: Record<string, unknown>, key = DEMO): Promise<Usage> {
    const res = await post(emu(), '/v1/messages', b, messagesHeaders(key));
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { usage: Usage }).usage;
  }

  const first = [{ role: 'user', content: [{ type: 'text', text: 'hello there', cache_control: EPH }] }];

  it('writes the prefix on the first request and reads it on the second; the uncached rest stays input_tokens', async () => {
    const total = inputTokens(body(first, false));
    const a = await usageOf(body(first));
    assert.equal(a.cache_read_input_tokens, 0);
    assert.ok(a.cache_creation_input_tokens > 100, JSON.stringify(a));
    assert.equal(a.input_tokens + a.cache_creation_input_tokens, total, 'the split adds up to the uncached count');
    const b = await usageOf(body(first));
    assert.deepEqual(
      [b.cache_read_input_tokens, b.cache_creation_input_tokens, b.input_tokens],
      [a.cache_creation_input_tokens, 0, a.input_tokens],
    );
  });

  it('without cache_control nothing is cached or read, however often the same request comes', async () => {
    const plain = [{ role: 'user', content: 'hello there' }];
    for (let i = 0; i < 2; i++) {
      const u = await usageOf(body(plain, false));
      assert.deepEqual([u.cache_creation_input_tokens, u.cache_read_input_tokens], [0, 0]);
      assert.equal(u.input_tokens, inputTokens(body(plain, false)));
    }
    assert.equal(
      emu()
        .requests()
        .every((r) => r.usage?.cacheRead === 0 && r.usage.cacheWrite === 0),
      true,
    );
  });

  it('a growing conversation reads the previous breakpoint and writes only what was added', async () => {
    const a = await usageOf(body(first));
    const grown = [
      { role: 'user', content: [{ type: 'text', text: 'hello there', cache_control: EPH }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Some answer with a few words in it.' }] },
      { role: 'user', content: [{ type: 'text', text: 'and a follow-up question', cache_control: EPH }] },
    ];
    const b = await usageOf(body(grown));
    assert.equal(b.cache_read_input_tokens, a.cache_creation_input_tokens, 'the old prefix is a hit');
    assert.equal(
      b.cache_read_input_tokens + b.cache_creation_input_tokens + b.input_tokens,
      inputTokens(body(grown, false)),
    );
    assert.ok(b.cache_creation_input_tokens > 0 && b.cache_creation_input_tokens < a.cache_creation_input_tokens);
  });

  it('the cache is per key and per model, and any change to the prefix misses', async () => {
    await usageOf(body(first));
    assert.equal((await usageOf(body(first), AGENT_KEY)).cache_read_input_tokens, 0, 'another key');
    assert.equal((await usageOf(body(first, true, 'claude-demo-haiku'))).cache_read_input_tokens, 0, 'another model');
    const changedTools = { ...body(first), tools: [{ ...TOOLS[0], description: 'Read a file!' }] };
    assert.equal((await usageOf(changedTools)).cache_read_input_tokens, 0, 'tools are part of the prefix');
    assert.ok((await usageOf(body(first))).cache_read_input_tokens > 0, 'the original is still cached');
  });

  it('string content and the same text as one block are the same prefix (a client may mark a string message later)', async () => {
    const asString = [
      { role: 'user', content: 'hello there' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: [{ type: 'text', text: 'next', cache_control: EPH }] },
    ];
    const a = await usageOf(body(asString));
    const asBlock = [
      { role: 'user', content: [{ type: 'text', text: 'hello there', cache_control: EPH }] },
      ...asString.slice(1),
    ];
    const b = await usageOf(body(asBlock));
    assert.equal(b.cache_read_input_tokens, a.cache_creation_input_tokens);
  });

  it('a prefix under the minimum is not cached (all input at full price)', async () => {
    const small = {
      model: 'claude-demo-sonnet',
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'tiny', cache_control: EPH }] }],
    };
    for (let i = 0; i < 2; i++) {
      const u = await usageOf(small);
      assert.deepEqual([u.cache_creation_input_tokens, u.cache_read_input_tokens], [0, 0]);
      assert.equal(u.input_tokens, inputTokens(small));
    }
  });

  it('streams carry the split in message_start and message_delta; the request log weighs writes 1.25× and reads 0.1×', async () => {
    await usageOf(body(first));
    const res = await post(emu(), '/v1/messages', { ...body(first), stream: true }, messagesHeaders(DEMO));
    const events = parseSse(await res.text());
    const start = (events[0].data.message as { usage: Usage }).usage;
    const end = events.find((e) => e.event === 'message_delta')!.data.usage as Usage;
    assert.ok(start.cache_read_input_tokens > 0);
    assert.equal(end.cache_read_input_tokens, start.cache_read_input_tokens);
    const logged = emu().requests().at(-1)!.usage!;
    assert.equal(logged.cacheRead, end.cache_read_input_tokens);
    assert.equal(
      logged.inputCostTokens,
      Math.round((logged.input + 1.25 * logged.cacheWrite + 0.1 * logged.cacheRead) * 100) / 100,
    );
    const write = emu().requests()[0].usage!;
    assert.equal(write.inputCostTokens, Math.round((write.input + 1.25 * write.cacheWrite) * 100) / 100);
  });

  it('images count as Anthropic documents (w × h / 750 after scaling to 1568 px / 1.15 MP), inside tool results too', () => {
    const image = (w: number, h: number) => ({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: pngBytes(w, h).toString('base64') },
    });
    assert.equal(imageBlockTokens(image(750, 100)), 100);
    // 2000×1500 is 3 MP: scaled by √(1.15 / 3) to 1238×929 first.
    assert.equal(imageBlockTokens(image(2000, 1500)), Math.ceil((1238 * 929) / 750));
    const withImage = [{ role: 'user', content: [image(750, 200), { type: 'text', text: 'what is it?' }] }];
    const withResult = [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [image(750, 200)] }] },
    ];
    const textOnly = [{ role: 'user', content: [{ type: 'text', text: 'what is it?' }] }];
    assert.equal(inputTokens(body(withImage, false)) - inputTokens(body(textOnly, false)), 200);
    assert.equal(inputTokens(body(withResult, false)), inputTokens(body([{ role: 'user', content: '' }], false)) + 200);
  });

  it('an image before the breakpoint is written once and then read from the cache; the log names it', async () => {
    const image = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: pngBytes(1500, 1000).toString('base64') },
    };
    const ask = [{ role: 'user', content: [image, { type: 'text', text: 'what does it say?', cache_control: EPH }] }];
    const a = await usageOf(body(ask));
    assert.equal(a.cache_creation_input_tokens, inputTokens(body(ask, false)), 'all of it written, the image too');
    assert.ok(a.cache_creation_input_tokens >= 1500, JSON.stringify(a));
    const b = await usageOf(body(ask));
    assert.deepEqual([b.cache_read_input_tokens, b.cache_creation_input_tokens], [a.cache_creation_input_tokens, 0]);
    const logged = emu().requests().at(-1)?.images;
    assert.deepEqual(
      logged?.map((i) => [i.format, i.width, i.height]),
      [['png', 1500, 1000]],
    );
  });

  it("a cached prefix is found up to 20 blocks before a breakpoint, not further (Anthropic's lookback)", async () => {
    const turn = (steps: number) => {
      const out: Array<Record<string, unknown>> = [
        { role: 'user', content: [{ type: 'text', text: 'the question', cache_control: EPH }] },
      ];
      for (let i = 0; i < steps; i++) {
        out.push({ role: 'assistant', content: [{ type: 'text', text: `step ${i}` }] });
        out.push({ role: 'user', content: [{ type: 'text', text: `result ${i}` }] });
      }
      out[out.length - 1] = { ...out[out.length - 1], content: [{ type: 'text', text: 'last', cache_control: EPH }] };
      return out;
    };
    const first = await usageOf(
      body([{ role: 'user', content: [{ type: 'text', text: 'the question', cache_control: EPH }] }]),
    );
    // Without its own mark, the question's prefix is 20 blocks before the end: still found.
    const near = turn(10).map((m, i) =>
      i === 0 ? { role: 'user', content: [{ type: 'text', text: 'the question' }] } : m,
    );
    assert.equal((await usageOf(body(near))).cache_read_input_tokens, first.cache_creation_input_tokens);
    const far = turn(11).map((m, i) =>
      i === 0 ? { role: 'user', content: [{ type: 'text', text: 'the question' }] } : m,
    );
    const missed = await usageOf(body(far));
    assert.ok(missed.cache_read_input_tokens < first.cache_creation_input_tokens, 'only the system prompt’s prefix');
  });

  it('refuses more than 4 breakpoints with a 400 naming cache_control, before billing (as upstream does)', async () => {
    const marked = Array.from({ length: 4 }, (_v, i) => ({ type: 'text', text: `part ${i}`, cache_control: EPH }));
    const res = await post(emu(), '/v1/messages', body([{ role: 'user', content: marked }]), messagesHeaders());
    assert.equal(res.status, 400);
    assert.match(await res.text(), /A maximum of 4 blocks with cache_control may be provided\. Found 5\./);
    assert.equal(emu().billableCount('messages'), 1, 'counted as a billable route call');
    assert.equal(emu().requests().at(-1)?.charged, undefined, 'nothing charged');
  });

  it('reset() empties the cache', async () => {
    await usageOf(body(first));
    emu().reset();
    assert.equal((await usageOf(body(first))).cache_read_input_tokens, 0);
  });

  it('PromptCache: an entry lives ttlMs after its last use; a hit renews it', () => {
    const cache = new PromptCache();
    const cfg = { minTokens: 10, ttlMs: 1000 };
    const b = body(first);
    assert.equal(cache.account('k', 'm', b, cfg, 0)!.cache_read_input_tokens, 0);
    assert.ok(cache.account('k', 'm', b, cfg, 900)!.cache_read_input_tokens > 0, 'within the lifetime');
    assert.ok(cache.account('k', 'm', b, cfg, 1800)!.cache_read_input_tokens > 0, 'renewed by the hit at 900');
    assert.equal(cache.account('k', 'm', b, cfg, 2801)!.cache_read_input_tokens, 0, 'expired');
    assert.equal(
      cache.account('k', 'm', body([{ role: 'user', content: 'x' }], false), cfg, 0),
      undefined,
      'no breakpoint: no accounting',
    );
  });
});
