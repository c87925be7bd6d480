// The provider's request path against the real emulator over a real socket: request mapping, the gateway
// client's stream, the event → part mapper, and cancellation closing the connection.
import * as assert from 'node:assert/strict';
import { createGatewayClient, isGatewayError } from '../../../src/gateway';
import { buildMessagesRequest } from '../../../src/lm/requestMapping';
import { StreamPartMapper, type OutputPart } from '../../../src/lm/streamMapping';
import { streamWithCancellation, type CancellationLike } from '../../../src/lm/streaming';
import { useEmulator } from '../../support/emulatorLifecycle';

const KEY = 'mg-demo-key-0001';

/** A real cancellation source with the shape of VS Code's CancellationToken. */
class TokenSource {
  private listeners: Array<() => unknown> = [];
  private cancelled = false;
  readonly token: CancellationLike;
  constructor() {
    const isCancelled = (): boolean => this.cancelled;
    this.token = {
      get isCancellationRequested() {
        return isCancelled();
      },
      onCancellationRequested: (listener) => {
        this.listeners.push(listener);
        return {
          dispose: () => {
            this.listeners = this.listeners.filter((l) => l !== listener);
          },
        };
      },
    };
  }
  cancel(): void {
    this.cancelled = true;
    for (const l of [...this.listeners]) l();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

describe('lm/streaming (emulator)', function () {
  this.timeout(20_000);
  const emulator = useEmulator(undefined, { resetBeforeEach: false });
  afterEach(() => {
    emulator().setFaults(KEY, null);
  });

  function client() {
    return createGatewayClient({ baseUrl: emulator().url, apiKey: KEY, maxRetries: 0 });
  }

  it('streams text parts that add up to the final answer, which quotes the prompt', async () => {
    const prompt = 'Quote this: *native* chat ✓';
    const request = buildMessagesRequest({
      model: 'claude-demo-haiku',
      messages: [{ role: 'user', parts: [{ kind: 'text', text: prompt }] }],
      maxTokens: 1024,
    });
    const mapper = new StreamPartMapper();
    const parts: OutputPart[] = [];
    const final = await streamWithCancellation(client(), request, new TokenSource().token, (e) =>
      parts.push(...mapper.push(e)),
    );
    const text = parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');
    assert.ok(parts.length > 1, 'expected several text deltas');
    assert.ok(text.includes(prompt), text.slice(0, 200));
    const finalText = final.content.map((b) => (b.type === 'text' ? (b as { text: string }).text : '')).join('');
    assert.equal(text, finalText);
    assert.equal(mapper.stopReason, 'end_turn');
  });

  it('maps a tool_use answer to one complete tool call', async () => {
    const request = buildMessagesRequest({
      model: 'claude-demo-sonnet',
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'Weather in Oslo? [[tool]]' }] }],
      maxTokens: 1024,
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
    });
    const mapper = new StreamPartMapper();
    const parts: OutputPart[] = [];
    await streamWithCancellation(client(), request, new TokenSource().token, (e) => parts.push(...mapper.push(e)));
    const calls = parts.filter((p) => p.kind === 'toolCall');
    assert.equal(calls.length, 1);
    const call = calls[0] as Extract<OutputPart, { kind: 'toolCall' }>;
    assert.equal(call.name, 'get_weather');
    assert.match(call.callId, /^toolu_/);
    assert.equal(typeof (call.input as Record<string, unknown>).city, 'string');
    assert.equal(mapper.stopReason, 'tool_use');
  });

  it('closes the connection when the token is cancelled mid-stream; the emulator logs the abort', async () => {
    emulator().setFaults(KEY, { tokensPerSecond: 20 });
    const request = buildMessagesRequest({
      model: 'claude-demo-haiku',
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'long [[tokens=3000]]' }] }],
      maxTokens: 4000,
    });
    const tokens = new TokenSource();
    let events = 0;
    await assert.rejects(
      streamWithCancellation(client(), request, tokens.token, () => {
        if (++events === 3) tokens.cancel();
      }),
      (error: unknown) => isGatewayError(error) && error.kind === 'aborted',
    );
    let entry;
    for (let i = 0; i < 40 && !entry; i++) {
      entry = emulator()
        .requests()
        .find((r) => r.path.startsWith('/v1/messages') && r.aborted);
      if (!entry) await sleep(50);
    }
    assert.ok(entry, JSON.stringify(emulator().requests()));
    assert.equal(entry.stream, true);
  });

  it('does not even send when the token is already cancelled', async () => {
    const before = emulator().requests().length;
    const tokens = new TokenSource();
    tokens.cancel();
    const request = buildMessagesRequest({
      model: 'claude-demo-haiku',
      messages: [{ role: 'user', parts: [{ kind: 'text', text: 'x' }] }],
      maxTokens: 10,
    });
    await assert.rejects(
      streamWithCancellation(client(), request, tokens.token, () => undefined),
      (e: unknown) => isGatewayError(e) && e.kind === 'aborted',
    );
    await sleep(100);
    const sent = emulator()
      .requests()
      .slice(before)
      .filter((r) => r.path.startsWith('/v1/messages') && !r.aborted);
    assert.equal(sent.length, 0);
  });
});
