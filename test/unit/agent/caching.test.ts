// Prompt caching in the agent loop: where the breakpoints go (read from the request bodies the server got),
// and the one-time fallback when a gateway rejects cache_control.
import * as assert from 'node:assert/strict';
import { CachingMemory, isCacheControlRejection, runAgentTurn, type AgentTurnOptions } from '../../../src/agent';
import { imageAnchor, withBreakpoints } from '../../../src/agent/caching';
import { GatewayError } from '../../../src/gateway';
import { eventLog, fakeWorkspace } from './fakeTools';
import { goTurnOptions } from './turnOptions';
import {
  text,
  toolUse,
  type AgentRequest,
  type Script,
  type ScriptedGateway,
  scriptedGatewayPerTest,
} from './scriptedGateway';

/** Paths of every object carrying cache_control in a request body, e.g. "tools[1]", "messages[2].content[0]". */
function breakpoints(body: AgentRequest): string[] {
  const found: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'cache_control') {
          assert.deepEqual(x, { type: 'ephemeral' });
          found.push(path);
        } else {
          walk(x, path ? `${path}.${k}` : k);
        }
      }
    }
  };
  walk(body, '');
  return found;
}

const threeSteps: Script = (_req, n) =>
  n <= 2
    ? {
        kind: 'message',
        blocks: [
          text(`step ${n}`),
          toolUse(`t${n}a`, 'read_file', { path: 'a' }),
          toolUse(`t${n}b`, 'read_file', { path: 'a' }),
        ],
      }
    : { kind: 'message', blocks: [text('done')] };

describe('agent loop: prompt caching', () => {
  const startGateway = scriptedGatewayPerTest();

  const options = (gw: ScriptedGateway, extra: Partial<AgentTurnOptions>) =>
    goTurnOptions(gw, fakeWorkspace({ '/ws/a': 'A' }).tools, { system: 'You are careful.', ...extra });

  it('puts breakpoints on the last tool, the system prompt and the growing conversation (at most 4)', async () => {
    const gw = await startGateway(threeSteps);
    const memory = new CachingMemory();
    const result = await runAgentTurn(options(gw, { caching: { keyId: 'k1', memory } }));
    assert.equal(result.reason, 'end_turn');
    const [b1, b2, b3] = gw.bodies.map(breakpoints);
    assert.deepEqual(b1, ['system[0]', 'tools[2]', 'messages[0].content[0]']);
    // Step 2: the conversation's end moved forward; the previous end stays marked so its cache entry is found.
    assert.deepEqual(b2, ['system[0]', 'tools[2]', 'messages[0].content[0]', 'messages[2].content[1]']);
    assert.deepEqual(b3, ['system[0]', 'tools[2]', 'messages[2].content[1]', 'messages[4].content[1]']);
    for (const b of [b1, b2, b3]) assert.ok(b.length <= 4);
    // The stored conversation carries no cache_control: breakpoints exist only in what is sent.
    assert.deepEqual(
      breakpoints({ model: '', max_tokens: 0, messages: result.messages as AgentRequest['messages'] }),
      [],
    );
  });

  it('sends no cache_control when caching is switched off', async () => {
    const gw = await startGateway(threeSteps);
    await runAgentTurn(options(gw, { caching: { keyId: 'k1', memory: new CachingMemory(), enabled: false } }));
    assert.deepEqual(gw.bodies.flatMap(breakpoints), []);
  });

  it('a 400 naming cache_control: the same request once more without it, remembered per key and model, said once', async () => {
    const rejecting: Script = (req) =>
      JSON.stringify(req).includes('cache_control')
        ? {
            kind: 'status',
            status: 400,
            body: {
              type: 'error',
              error: {
                type: 'invalid_request_error',
                message: 'messages.0.content.0.cache_control: Extra inputs are not permitted',
              },
            },
          }
        : { kind: 'message', blocks: [text('ok')] };
    const gw = await startGateway(rejecting);
    const saved: string[][] = [];
    const memory = new CachingMemory([], (entries) => saved.push(entries));
    const log = eventLog();
    const first = await runAgentTurn(options(gw, { caching: { keyId: 'k1', memory }, onEvent: log.onEvent }));
    assert.equal(first.reason, 'end_turn');
    assert.equal(gw.bodies.length, 2);
    assert.deepEqual(breakpoints(gw.bodies[1]), []);
    assert.equal(JSON.stringify(gw.bodies[1].messages), JSON.stringify(first.messages.slice(0, 1)));
    assert.equal(log.ofType('caching_disabled').length, 1);
    assert.equal(memory.isRejected('k1', 'agent-model'), true);
    assert.equal(saved.length, 1);
    assert.ok(!saved[0][0].includes('test-key'), 'the memory holds the key id, never the key');

    const second = await runAgentTurn(options(gw, { caching: { keyId: 'k1', memory }, onEvent: log.onEvent }));
    assert.equal(second.reason, 'end_turn');
    assert.equal(gw.bodies.length, 3, 'no second rejected request');
    assert.equal(log.ofType('caching_disabled').length, 1, 'said once');
    assert.equal(memory.isRejected('k2', 'agent-model'), false);
  });

  it('a 400 that does not name cache_control is not retried', async () => {
    const gw = await startGateway(() => ({
      kind: 'status',
      status: 400,
      body: { error: { message: 'max_tokens: too large' } },
    }));
    const memory = new CachingMemory();
    const result = await runAgentTurn(options(gw, { caching: { keyId: 'k1', memory } }));
    assert.equal(result.reason, 'error');
    assert.equal(gw.bodies.length, 1);
    assert.equal(memory.isRejected('k1', 'agent-model'), false);
  });

  it('a second rejection of the request without cache_control ends the turn (no loop)', async () => {
    const gw = await startGateway(() => ({
      kind: 'status',
      status: 400,
      body: { error: { message: 'unknown field cache_control' } },
    }));
    const result = await runAgentTurn(options(gw, { caching: { keyId: 'k1', memory: new CachingMemory() } }));
    assert.equal(result.reason, 'error');
    assert.equal(gw.bodies.length, 2);
  });

  it('recognises rejections by status and wording only', () => {
    const e = (status: number, serverMessage: string) =>
      new GatewayError({
        kind: 'bad_request',
        route: 'POST /v1/messages',
        status,
        serverMessage,
        message: `HTTP ${status}`,
      });
    assert.equal(isCacheControlRejection(e(400, 'Unrecognized request argument supplied: cache_control')), true);
    assert.equal(isCacheControlRejection(e(422, 'body.system.0.cache-control: extra fields not permitted')), true);
    assert.equal(isCacheControlRejection(e(400, 'prompt is too long')), false);
    assert.equal(isCacheControlRejection(e(500, 'cache_control broke us')), false);
    assert.equal(isCacheControlRejection(new Error('cache_control')), false);
  });

  it('never marks a thinking block, and marks a string message by turning it into a text block', () => {
    const { body } = withBreakpoints(
      {
        model: 'm',
        max_tokens: 1,
        messages: [
          { role: 'user', content: 'question' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'partial' },
              { type: 'thinking', thinking: 'hmm', signature: 's' } as never,
            ],
          },
        ],
      },
      { message: 0, block: 0 },
    );
    assert.deepEqual(breakpoints(body as unknown as AgentRequest), [
      'messages[0].content[0]',
      'messages[1].content[0]',
    ]);
    assert.deepEqual(body.messages[0].content, [
      { type: 'text', text: 'question', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('keeps the images of the question behind a breakpoint of their own; the system prompt then covers the tools', () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } } as const;
    const messages = [
      { role: 'user', content: [image, { type: 'text', text: 'what does the dialog say?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'read_file', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'b' }] },
    ] as AgentRequest['messages'];
    assert.deepEqual(imageAnchor(messages as never), { message: 0, block: 1 });
    const tools = [{ name: 'read_file', description: 'd', input_schema: { type: 'object' as const } }];
    const { body } = withBreakpoints(
      { model: 'm', max_tokens: 1, system: [{ type: 'text', text: 's' }], tools, messages: messages as never },
      { message: 2, block: 0 },
      imageAnchor(messages as never),
    );
    assert.deepEqual(breakpoints(body as unknown as AgentRequest), [
      'system[0]',
      'messages[0].content[1]',
      'messages[2].content[0]',
      'messages[4].content[0]',
    ]);
    // A tool result's image counts too; the final message needs no anchor (its end is marked anyway).
    const result = [
      ...messages.slice(0, 2),
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [image] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
    ] as AgentRequest['messages'];
    assert.deepEqual(imageAnchor(result as never), { message: 2, block: 0 });
    assert.equal(imageAnchor(messages.slice(0, 1) as never), undefined);
  });
});
