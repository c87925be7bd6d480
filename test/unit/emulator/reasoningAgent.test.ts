// End to end: the real agent loop with the real gateway client against the emulator's reasoning models, over a
// real socket. A Responses-only model (new-api lists it as `openai-response`) completes an agent turn with a tool
// call over POST /v1/responses, its encrypted reasoning items going back within the turn; a DeepSeek-like
// thinking model completes a three-step turn over chat-completions, its reasoning_content going back (the
// emulator answers 400 without it, as DeepSeek does). One billable request per step.
import { strict as assert } from 'node:assert';
import { runAgentTurn } from '../../../src/agent';
import { instantAnswers, useEmulator } from './helpers';
import { createGatewayClient, type DialectKnowledge } from '../../../src/gateway';
import { eventLog, fakeWorkspace, WS } from '../agent/fakeTools';

const OPENAI_CHAT_KEY = 'mg-openai-chat-0009';
const REASONING_KEY = 'mg-reasoning-0010';

describe('agent loop × emulator: reasoning models over Responses and chat-completions', function () {
  this.timeout(60_000);
  const emulator = useEmulator(instantAnswers);

  async function turn(key: string, model: string, knowledge: DialectKnowledge, task: string) {
    const ws = fakeWorkspace({ '/ws/a.ts': 'export const a = 1;\n' });
    const log = eventLog();
    const client = createGatewayClient({
      baseUrl: emulator().url,
      apiKey: key,
      maxRetries: 0,
      dialects: { knowledge: () => knowledge, learned: () => undefined },
    });
    const result = await runAgentTurn({
      client,
      model,
      maxTokens: 1024,
      system: 'You are a careful coding agent.',
      tools: ws.tools,
      policy: { workspaceFolders: [WS] },
      messages: [{ role: 'user', content: task }],
      onEvent: log.onEvent,
      approve: async () => ({ approved: true }),
    });
    return { result, invoked: ws.invoked.length, thinking: log.ofType('thinking').length };
  }

  it('a Responses-only model the new-api list names openai-response: a tool call and a final answer over /v1/responses', async () => {
    emulator().reset();
    emulator().setFaults(OPENAI_CHAT_KEY, { dialect: 'new-api' });
    const list = await createGatewayClient({ baseUrl: emulator().url, apiKey: OPENAI_CHAT_KEY }).listModels();
    const entry = list.find((m) => m.id === 'gpt-demo-codex');
    assert.deepEqual(entry?.supported_endpoint_types, ['openai-response', 'openai-response-compact']);
    emulator().reset();
    emulator().setFaults(OPENAI_CHAT_KEY, { dialect: 'new-api' });
    const { result, invoked, thinking } = await turn(
      OPENAI_CHAT_KEY,
      'gpt-demo-codex',
      { endpointTypes: entry?.supported_endpoint_types as string[], listed: true },
      'Read the file.\n@tool read_file {"path":"a.ts"}\n@after-result-say Read it.',
    );
    assert.equal(result.reason, 'end_turn', result.message);
    assert.equal(result.steps, 2);
    assert.equal(invoked, 1);
    assert.ok(thinking > 0, 'the reasoning summary streamed as thinking');
    assert.deepEqual(
      emulator()
        .requests()
        .map((r) => `${r.path} ${r.status}`),
      ['/v1/responses 200', '/v1/responses 200'],
    );
    assert.equal(emulator().billableCount('responses'), 2);
    // The reasoning item of step 1 is kept in the turn's messages (a thinking block with the encrypted content).
    const first = result.messages[1];
    assert.ok(
      Array.isArray(first.content) && first.content.some((b) => b.type === 'thinking' && !!b.signature),
      JSON.stringify(first),
    );
  });

  it('a DeepSeek-like thinking model: a three-step turn over chat-completions, reasoning_content sent back', async () => {
    emulator().reset();
    const { result, invoked } = await turn(
      REASONING_KEY,
      'deepseek-demo-reasoner',
      { override: 'chat-completions' },
      'Read the file twice.\n@tool read_file {"path":"a.ts"}\n@steps 2\n@after-result-say Both reads done.',
    );
    assert.equal(result.reason, 'end_turn', result.message);
    assert.equal(result.steps, 3);
    assert.equal(invoked, 2);
    assert.deepEqual(
      emulator()
        .requests()
        .map((r) => `${r.path} ${r.status}`),
      ['/v1/chat/completions 200', '/v1/chat/completions 200', '/v1/chat/completions 200'],
    );
    assert.equal(emulator().billableCount('chat.completions'), 3);
  });

  it("docs/emulator.md's new-api case (gpt-demo-chat): the list's Messages claim refused, once over chat-completions, learned", async () => {
    emulator().reset();
    emulator().setFaults(OPENAI_CHAT_KEY, { dialect: 'new-api' });
    const list = await createGatewayClient({ baseUrl: emulator().url, apiKey: OPENAI_CHAT_KEY }).listModels();
    const types = list.find((m) => m.id === 'gpt-demo-chat')?.supported_endpoint_types as string[];
    assert.deepEqual(types, ['anthropic', 'openai']);
    const learned = new Map<string, string>();
    const client = createGatewayClient({
      baseUrl: emulator().url,
      apiKey: OPENAI_CHAT_KEY,
      maxRetries: 0,
      dialects: {
        knowledge: (model) => ({
          endpointTypes: types,
          listed: true,
          learned: learned.get(model) as DialectKnowledge['learned'],
        }),
        learned: (model, d) => learned.set(model, d),
      },
    });
    emulator().reset();
    emulator().setFaults(OPENAI_CHAT_KEY, { dialect: 'new-api' });
    const ask = () =>
      client.streamMessage({ model: 'gpt-demo-chat', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] });
    assert.ok((await ask().finalMessage()).content.length > 0);
    assert.equal(learned.get('gpt-demo-chat'), 'chat-completions');
    await ask().finalMessage();
    assert.deepEqual(
      emulator()
        .requests()
        .map((r) => `${r.path} ${r.status}`),
      ['/v1/messages 500', '/v1/chat/completions 200', '/v1/chat/completions 200'],
    );
    assert.equal(client.dialectFor?.('gpt-demo-chat').reason, 'learned');
  });

  it('the emulator refuses a tool-calling turn whose reasoning_content did not come back (as DeepSeek does)', async () => {
    emulator().reset();
    const res = await fetch(`${emulator().url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${REASONING_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'deepseek-demo-reasoner',
        messages: [
          { role: 'user', content: 'Read it.\n@tool read_file {"path":"a.ts"}' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'x' },
        ],
      }),
    });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /reasoning_content/);
  });
});
