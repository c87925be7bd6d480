// Code completion on the wire (src/gateway/completion/fim.ts) against the emulator's scripted coder model over real sockets on
// 127.0.0.1: fill-in-the-middle on /v1/completions and /v1/fim/completions, the chat fill, the fallback after a
// refused route (sub2api has no /v1/completions), no retry and no wait on a 429, and abort closing the socket.
import * as assert from 'node:assert/strict';
import { createGatewayClient, type CodeCompletionRequest } from '../../../src/gateway';
import type { UsageRecord } from '../../../src/gateway/types';
import { defaultConfig, startEmulator } from '../../../src/emulator';
import { startServer } from './server';
import { failure } from '../../support/failure';
import { useEmulator } from '../../support/emulatorLifecycle';

const KEY = 'mg-coder-key-0011';
const PREFIX = 'function fibonacci(n: number): number {\n  if (n < 2) return n;\n  return fibonacci(n';
const SUFFIX = '\n}\n';

function request(over: Partial<CodeCompletionRequest> = {}): CodeCompletionRequest {
  return {
    model: 'qwen2.5-coder-demo',
    mode: 'fim',
    prefix: PREFIX,
    suffix: SUFFIX,
    maxTokens: 64,
    singleLine: true,
    ...over,
  };
}

describe('code completion routes (fim.ts) against the emulator', function () {
  this.timeout(20_000);
  const emu = useEmulator();

  it('POST /v1/completions with prompt + suffix returns the exact fill, stops at the line end, records usage as a completion', async () => {
    const usage: UsageRecord[] = [];
    const client = createGatewayClient({ baseUrl: emu().url, apiKey: KEY, onUsage: (r) => usage.push(r) });
    const done = await client.completeCode!(request());
    assert.equal(done.text, ' - 1) + fibonacci(n - 2);');
    assert.equal(done.route, 'POST /v1/completions');
    assert.equal(done.mode, 'fim');
    assert.ok(done.usage.input_tokens > 0 && done.usage.output_tokens > 0);
    assert.equal(usage.length, 1);
    assert.equal(usage[0].kind, 'completion');
    assert.equal(usage[0].route, 'POST /v1/completions');
    const [entry] = emu().requests();
    assert.equal(entry.path, '/v1/completions');
  });

  it('a block fill stops where the suffix begins (the server applies the FIM template when suffix is given)', async () => {
    const client = createGatewayClient({ baseUrl: emu().url, apiKey: KEY });
    const done = await client.completeCode!(
      request({ prefix: 'function fibonacci(n: number): number {\n', suffix: '}\n', singleLine: false }),
    );
    assert.equal(done.text, '  if (n < 2) return n;\n  return fibonacci(n - 1) + fibonacci(n - 2);\n');
  });

  it('Mistral-style POST /v1/fim/completions (Codestral) reads choices[0].message.content', async () => {
    const client = createGatewayClient({ baseUrl: emu().url, apiKey: KEY });
    const done = await client.completeCode!(request({ model: 'codestral-demo', mode: 'mistral-fim' }));
    assert.equal(done.text, ' - 1) + fibonacci(n - 2);');
    assert.equal(done.route, 'POST /v1/fim/completions');
  });

  it('the chat fill asks a chat model for the marked hole and takes only the fill (fence and repeated suffix stripped)', async () => {
    const usage: UsageRecord[] = [];
    const client = createGatewayClient({ baseUrl: emu().url, apiKey: KEY, onUsage: (r) => usage.push(r) });
    const block = await client.completeCode!(
      request({
        model: 'claude-demo-sonnet',
        mode: 'chat',
        prefix: 'function fibonacci(n: number): number {\n',
        suffix: '}\n',
        singleLine: false,
      }),
    );
    assert.equal(block.text, '  if (n < 2) return n;\n  return fibonacci(n - 1) + fibonacci(n - 2);');
    assert.equal(block.mode, 'chat');
    assert.equal(usage[0].kind, 'completion');
    const line = await client.completeCode!(
      request({ model: 'claude-demo-sonnet', mode: 'chat', prefix: 'return Math.min(Math.max(', suffix: ');\n' }),
    );
    assert.equal(line.text, 'value, min), max');
  });

  it('a gateway without /v1/completions (sub2api: 404) gets the chat fill once, and says so to be remembered', async () => {
    const config = { ...defaultConfig(), dialect: 'sub2api' as const };
    const own = await startEmulator({ config });
    try {
      const client = createGatewayClient({ baseUrl: own.url, apiKey: KEY });
      const refused = await failure(client.completeCode!(request()));
      assert.equal(refused.status, 404);
      const done = await client.completeCode!(
        request({ model: 'claude-demo-sonnet', allowChatFallback: true, singleLine: true }),
      );
      assert.equal(done.mode, 'chat');
      assert.deepEqual(done.fellBack, { status: 404 });
      assert.deepEqual(
        own.requests().map((r) => `${r.path} ${r.status}`),
        ['/v1/completions 404', '/v1/completions 404', '/v1/messages 200'],
      );
    } finally {
      await own.close();
    }
  });

  it('one-api and new-api relay /v1/completions; one-api has no /v1/fim/completions', async () => {
    for (const dialect of ['one-api', 'new-api'] as const) {
      const own = await startEmulator({ config: { ...defaultConfig(), dialect } });
      try {
        const client = createGatewayClient({ baseUrl: own.url, apiKey: KEY });
        assert.equal((await client.completeCode!(request())).text, ' - 1) + fibonacci(n - 2);', dialect);
        if (dialect === 'one-api') {
          const e = await failure(client.completeCode!(request({ model: 'codestral-demo', mode: 'mistral-fim' })));
          assert.equal(e.status, 404);
        }
      } finally {
        await own.close();
      }
    }
  });

  it('a 429 is not retried and not waited out: it fails at once, and the next completion does not wait either', async () => {
    emu().setFaults(KEY, { status: 429, retryAfter: 30, count: 1 });
    const client = createGatewayClient({ baseUrl: emu().url, apiKey: KEY, maxRetries: 3 });
    const started = Date.now();
    const e = await failure(client.completeCode!(request()));
    assert.equal(e.kind, 'rate_limited');
    const second = await failure(client.completeCode!(request()));
    assert.equal(second.kind, 'rate_limited');
    assert.ok(Date.now() - started < 5_000, 'no Retry-After was slept through');
    assert.equal(emu().requests().length, 1, 'the second completion never went out while the gateway asked to wait');
  });

  it('nothing is replayed: a 5xx is neither retried nor answered by the chat fill, even with the fallback allowed', async () => {
    emu().setFaults(KEY, { status: 503, count: 1 });
    const client = createGatewayClient({ baseUrl: emu().url, apiKey: KEY, maxRetries: 3 });
    const e = await failure(client.completeCode!(request({ allowChatFallback: true })));
    assert.equal(e.kind, 'server');
    assert.deepEqual(
      emu()
        .requests()
        .map((r) => r.path),
      ['/v1/completions'],
    );
  });

  it('aborting closes the socket at once; the emulator logs the request as aborted', async () => {
    const config = defaultConfig();
    config.completions = { latencyMs: 2_000 };
    const own = await startEmulator({ config });
    try {
      const client = createGatewayClient({ baseUrl: own.url, apiKey: KEY });
      const controller = new AbortController();
      const pending = client.completeCode!(request(), { signal: controller.signal });
      await new Promise((r) => setTimeout(r, 100));
      controller.abort();
      const e = await failure(pending);
      assert.equal(e.kind, 'aborted');
      for (let i = 0; i < 100 && !own.requests()[0]?.aborted; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(own.requests()[0]?.aborted, true);
    } finally {
      await own.close();
    }
  });

  it('the body: prompt, suffix, max_tokens, stop with the line end for a single line, temperature 0, no stream', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ text: 'x' }], usage: { prompt_tokens: 3, completion_tokens: 1 } }));
    });
    try {
      const client = createGatewayClient({ baseUrl: server.url, apiKey: 'sk-secret-1234567890' });
      await client.completeCode!(request({ stop: ['\n\n'] }));
      const seen = server.requests[0];
      assert.equal(seen.headers.authorization, 'Bearer sk-secret-1234567890');
      assert.deepEqual(JSON.parse(seen.body.toString()), {
        model: 'qwen2.5-coder-demo',
        prompt: PREFIX,
        suffix: SUFFIX,
        max_tokens: 64,
        temperature: 0,
        stream: false,
        stop: ['\n', '\n\n'],
      });
    } finally {
      await server.close();
    }
  });
});
