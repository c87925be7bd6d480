// The pure dialect decision (src/gateway/dialects/dialect.ts): the order of the rules, new-api's endpoint types, and
// which refusals of /v1/messages prove that nothing was processed.
import * as assert from 'node:assert/strict';
import { adviseOnError, createGatewayClient } from '../../../src/gateway';
import { readChatContent } from '../../../src/gateway/stream/fastDelta';
import { json, startServer } from './server';
import {
  chooseDialect,
  dialectOfEndpointTypes,
  isMessagesRouteRefusal,
  parseDialect,
} from '../../../src/gateway/dialects/dialect';

describe('dialect decision', () => {
  it('the user setting wins, then the model list, then what was learned, then Messages', () => {
    assert.deepEqual(chooseDialect({ override: 'messages', endpointTypes: ['openai'], learned: 'chat-completions' }), {
      dialect: 'messages',
      reason: 'setting',
    });
    assert.deepEqual(chooseDialect({ endpointTypes: ['openai'], learned: 'messages' }), {
      dialect: 'chat-completions',
      reason: 'model-list',
    });
    assert.deepEqual(chooseDialect({ endpointTypes: ['image-generation'], learned: 'chat-completions' }), {
      dialect: 'chat-completions',
      reason: 'learned',
    });
    assert.deepEqual(chooseDialect({}), { dialect: 'messages', reason: 'default' });
  });

  it("reads new-api's supported_endpoint_types", () => {
    assert.equal(dialectOfEndpointTypes(['anthropic', 'openai']), 'messages');
    assert.equal(dialectOfEndpointTypes(['openai', 'openai-response', 'openai-response-compact']), 'chat-completions');
    assert.equal(dialectOfEndpointTypes(['gemini', 'openai']), 'chat-completions');
    assert.equal(dialectOfEndpointTypes(['openai-response', 'openai-response-compact']), 'responses');
    assert.equal(dialectOfEndpointTypes(['image-generation']), undefined);
    assert.equal(dialectOfEndpointTypes(['embeddings']), undefined);
    assert.equal(dialectOfEndpointTypes([]), undefined);
    assert.equal(dialectOfEndpointTypes(undefined), undefined);
    assert.deepEqual(chooseDialect({ endpointTypes: ['openai-response'] }), {
      dialect: 'responses',
      reason: 'model-list',
    });
  });

  it('parses the setting values', () => {
    assert.equal(parseDialect(' Chat-Completions '), 'chat-completions');
    assert.equal(parseDialect('messages'), 'messages');
    assert.equal(parseDialect('responses'), 'responses');
    assert.equal(parseDialect('responses-only'), undefined);
    assert.equal(parseDialect(1), undefined);
  });

  it('a refusal before any processing: one-api Invalid URL, bare 404/405/501, new-api conversion refusal', () => {
    const yes = [
      { status: 404, serverMessage: 'Invalid URL (POST /v1/messages)', serverCode: 'invalid_request_error' },
      { status: 404 },
      { status: 405, serverMessage: 'Method POST is not allowed on /v1/messages.' },
      { status: 501, serverMessage: 'API not implemented', serverCode: 'api_not_implemented' },
      { status: 404, serverMessage: 'Cannot POST /v1/messages' },
      {
        status: 500,
        serverCode: 'new_api_error',
        serverMessage: 'not implemented: no Claude conversion (request id: 1)',
      },
      { status: 500, serverMessage: 'endpoint not supported for this channel' },
    ];
    for (const e of yes) assert.equal(isMessagesRouteRefusal({ outcomeUnknown: false, ...e }), true, JSON.stringify(e));
  });

  it('never a refusal: a model not found, a 5xx without evidence, a timeout, a cut stream, a 502', () => {
    const no = [
      { status: 404, serverCode: 'not_found_error', serverMessage: 'model: claude-x' },
      { status: 404, serverCode: 'model_not_found', serverMessage: 'No available channel for model x' },
      { status: 500, serverCode: 'api_error', serverMessage: 'Internal server error' },
      { status: 500, serverCode: 'new_api_error', serverMessage: 'database is locked' },
      { status: 503, serverMessage: 'overloaded' },
      { status: 502, outcomeUnknown: true },
      { status: 400, serverMessage: 'messages: Field required' },
      { status: 401, serverMessage: 'invalid key' },
      { status: undefined },
      { status: 200, cut: { characters: 3, how: 'ended' as const } },
    ];
    for (const e of no) assert.equal(isMessagesRouteRefusal({ outcomeUnknown: false, ...e }), false, JSON.stringify(e));
  });
});

describe('dialect advice', () => {
  it('a route refused before processing with no dialect left to try names modelGateway.models.dialects', async () => {
    const server = await startServer((_req, res) =>
      json(res, 404, { error: { message: 'Invalid URL (POST /v1/responses)' } }),
    );
    try {
      const client = createGatewayClient({
        baseUrl: server.url,
        apiKey: 'k',
        maxRetries: 0,
        dialects: { knowledge: () => ({ override: 'responses' }), learned: () => undefined },
      });
      const error = await client
        .createMessage({ model: 'codex-mini', max_tokens: 1, messages: [{ role: 'user', content: 'q' }] })
        .catch((e: unknown) => e);
      const advice = adviseOnError(error, { surface: 'chat' });
      assert.match(advice.detail, /modelGateway\.models\.dialects/);
      assert.match(advice.detail, /codex-mini/);
      assert.deepEqual(
        server.requests.map((r) => r.url),
        ['/v1/responses'],
      );
    } finally {
      await server.close();
    }
  });
});

describe('chat-completions fast path (fastDelta.ts#readChatContent)', () => {
  const head = '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":';
  const read = (text: string, tail = ',"logprobs":null,"finish_reason":null}]}'): string | undefined => {
    // The stream hands the reader byte strings (byteText.ts): UTF-8 bytes, one char each.
    const bytes = readChatContent(
      Buffer.from(`${head}{"content":${JSON.stringify(text)}}${tail}`, 'utf8').toString('latin1'),
    );
    return bytes === undefined ? undefined : Buffer.from(bytes, 'latin1').toString('utf8');
  };

  it('reads what JSON.parse reads: escapes, quotes before the tail, multi-byte text, usage null', () => {
    for (const text of [
      'plain',
      'a "quoted" word',
      'ends with quote"',
      'back\\slash\\',
      '"},"x',
      '日本 🚀 é',
      '\n\t\u0001',
    ])
      assert.equal(read(text), text, JSON.stringify(text));
    assert.equal(read('x', ',"finish_reason":null,"logprobs":null}],"usage":null}'), 'x');
  });

  it('leaves every other shape to JSON.parse', () => {
    assert.equal(read('x', ',"logprobs":null,"finish_reason":"stop"}]}'), undefined);
    assert.equal(read('x', ',"logprobs":{"content":[]},"finish_reason":null}]}'), undefined);
    assert.equal(read('x', ',"finish_reason":null},{"index":1}]}'), undefined);
    assert.equal(
      readChatContent('{"model":"[x]","choices":[{"index":0,"delta":{"content":"x"},"finish_reason":null}]}'),
      undefined,
    );
    assert.equal(readChatContent('[DONE]'), undefined);
  });
});
