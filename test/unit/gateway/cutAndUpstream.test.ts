// The words for a 200 stream cut mid-way (the gateway WAS reached; billing unknown; retry is the user's
// choice) and for errors a gateway forwards from its upstream provider (not the user's key).
import * as assert from 'node:assert/strict';
import { createGatewayClient } from '../../../src/gateway';
import { adviseOnError } from '../../../src/gateway/errors/advice';
import { upstreamOrigin } from '../../../src/gateway/errors/errorBody';
import { toErrorCard } from '../../../src/chat/session/errorCard';
import { describeForLanguageModel } from '../../../src/lm/lmErrors';
import { json, startServer, type TestServer } from './server';
import { fixture, MESSAGE_REQUEST, sseServer } from './streamHelpers';
import { failure } from '../../support/failure';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BASE = 'http://127.0.0.1:1';

describe('advice: a 200 stream cut mid-way', () => {
  for (const ending of ['destroy', 'end'] as const) {
    it(`${ending === 'destroy' ? 'a dropped connection' : 'a stream closed without message_stop'}: cut after N characters, gateway reached, billing unknown, retry offered`, async () => {
      server = await sseServer(fixture('cut_off.sse'), { ending });
      const e = await failure(
        createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST).finalMessage(),
      );
      const partialText = (e.partial?.content[0] as { text: string }).text;
      assert.deepEqual(e.cut, { characters: partialText.length, how: ending === 'destroy' ? 'dropped' : 'ended' });
      assert.equal(e.outcomeUnknown, true);
      const advice = adviseOnError(e, { baseUrl: BASE, surface: 'chat' });
      const words = `${advice.title} ${advice.detail}`;
      assert.match(advice.title, new RegExp(`cut off after ${partialText.length} characters`));
      assert.match(words, /was reached and answered \(HTTP 200\)/);
      assert.match(words, /billed is unknown/);
      assert.match(words, /Retrying is your choice/);
      assert.doesNotMatch(words, /Could not reach|base URL|proxy/);
      assert.ok(advice.actions.includes('retry'));
      // The chat card and native chat pick up the same words; the card keeps Retry for a cut answer.
      const card = toErrorCard(
        e,
        (x) => adviseOnError(x, { baseUrl: BASE, surface: 'chat' }) as ReturnType<Parameters<typeof toErrorCard>[1]>,
      );
      assert.equal(card.title, advice.title);
      assert.ok(card.actions.includes('retry'));
      assert.match(describeForLanguageModel(e, { baseUrl: BASE }).message, /cut off after/);
    });
  }

  it('output tokens are named when a message_delta reported them before the cut', async () => {
    const text =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"abcd"}}\n\n' +
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1234}}\n\n';
    server = await sseServer(Buffer.from(text), { ending: 'destroy' });
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST).finalMessage(),
    );
    assert.deepEqual(e.cut, { characters: 4, outputTokens: 1234, how: 'dropped' });
    assert.match(adviseOnError(e, { surface: 'chat' }).title, /after 1,234 output tokens \(4 characters\)/);
  });

  it('a connection refused before any answer is still "could not reach" (no cut)', async () => {
    const e = await failure(
      createGatewayClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }).streamMessage(MESSAGE_REQUEST).finalMessage(),
    );
    assert.equal(e.cut, undefined);
    assert.match(adviseOnError(e, { baseUrl: BASE, surface: 'chat' }).title, /Could not reach/);
  });
});

describe('advice: errors forwarded from the upstream provider', () => {
  const upstream401: Array<[string, unknown]> = [
    [
      'new-api upstream_error type',
      {
        error: { message: 'Incorrect API key provided: sk-proj-****', type: 'upstream_error', code: 'invalid_api_key' },
      },
    ],
    [
      'message naming the provider',
      { error: { message: 'provider returned 401: invalid x-api-key', type: 'authentication_error' } },
    ],
    [
      'one-api channel message',
      { error: { message: 'channel #12 returned invalid api key (request id: 2024)', type: 'one_api_error' } },
    ],
    [
      'LiteLLM wrapped provider error',
      {
        error: {
          message: 'litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided',
          type: 'auth_error',
          code: '401',
        },
      },
    ],
    ['Chinese upstream', { error: { message: '上游返回认证失败', type: 'new_api_error' } }],
  ];
  for (const [label, body] of upstream401) {
    it(`401 with ${label}: not "replace your key"`, async () => {
      server = await startServer((_req, res) => json(res, 401, body));
      const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).createMessage(MESSAGE_REQUEST));
      assert.ok(e.upstream, 'marked as upstream');
      const advice = adviseOnError(e, { surface: 'chat' });
      assert.match(advice.title, /upstream provider rejected the gateway's own credentials/);
      assert.match(advice.detail, /Replacing your key will not help/);
      assert.ok(!advice.actions.includes('replaceKey'));
    });
  }

  it('the gateway\'s own 401s stay "replace your key"', async () => {
    for (const body of [
      { code: 'INVALID_API_KEY', message: 'Invalid API key provided' },
      { error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      {
        error: {
          message: 'Authentication Error, Invalid proxy server token passed. Received API Key = sk-...',
          type: 'auth_error',
        },
      },
    ]) {
      server = await startServer((_req, res) => json(res, 401, body));
      const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).createMessage(MESSAGE_REQUEST));
      await server.close();
      server = undefined;
      assert.equal(e.upstream, undefined, JSON.stringify(body));
      assert.ok(adviseOnError(e, { surface: 'chat' }).actions.includes('replaceKey'));
    }
  });

  it("one-api 当前分组上游负载已饱和 (upstream saturated) on a 429: the limit is not your key's", async () => {
    server = await startServer((_req, res) =>
      json(res, 429, { error: { message: '当前分组上游负载已饱和，请稍后再试', type: 'one_api_error' } }),
    );
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k', maxRetries: 0 }).createMessage(MESSAGE_REQUEST),
    );
    assert.equal(e.upstream, 'words');
    assert.match(adviseOnError(e, { surface: 'chat' }).detail, /upstream provider's, shared by everyone/);
  });

  it('the rule set names its rule and ignores look-alikes ("provided", "providence")', () => {
    assert.equal(upstreamOrigin({ type: 'upstream_error', message: 'x' }), 'type');
    assert.equal(upstreamOrigin({ message: 'litellm.RateLimitError: VertexAIException - quota' }), 'litellm');
    // new-api's own routing error about the key's group, not a provider's (docs/gateway-protocol.md#real-gateways): no evidence.
    assert.equal(upstreamOrigin({ message: 'no available channel for model x' }), undefined);
    assert.equal(upstreamOrigin({ message: '当前分组 default 下对于模型 x 无可用渠道' }), undefined);
    assert.equal(upstreamOrigin({ message: 'Invalid API key provided' }), undefined);
    assert.equal(upstreamOrigin({ message: 'welcome to providence' }), undefined);
  });
});

describe('gateway: LiteLLM stream errors and request ids', () => {
  it('a bare `data: {"error": {...}}` frame mid-stream (no event line, no type) is a typed error, partial kept', async () => {
    const text =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Part"}}\n\n' +
      'data: {"error": {"message": "litellm.RateLimitError: RateLimitError: OpenAIException - Rate limit reached", "type": "throttling_error", "param": "None", "code": "429"}}\n\n';
    server = await sseServer(Buffer.from(text), {
      ending: 'end',
      chunkSize: 9,
      headers: { 'x-litellm-call-id': 'call-123' },
    });
    const e = await failure(
      createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).streamMessage(MESSAGE_REQUEST).finalMessage(),
    );
    assert.equal(e.kind, 'server');
    assert.equal(e.serverCode, 'throttling_error');
    assert.match(e.serverMessage ?? '', /Rate limit reached/);
    assert.equal(e.upstream, 'litellm');
    assert.equal(e.cut, undefined);
    assert.deepEqual(e.partial?.content, [{ type: 'text', text: 'Part' }]);
  });

  it("LiteLLM's x-litellm-call-id is the request id of an HTTP error", async () => {
    server = await startServer((_req, res) =>
      json(
        res,
        401,
        {
          error: {
            message: 'Authentication Error, Invalid proxy server token passed.',
            type: 'auth_error',
            param: 'None',
            code: '401',
          },
        },
        { 'x-litellm-call-id': '5f0e-call' },
      ),
    );
    const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).createMessage(MESSAGE_REQUEST));
    assert.equal(e.requestId, '5f0e-call');
  });
});

describe('advice: an HTML page from a proxy', () => {
  it('says a proxy page answered, not "the gateway said"', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', server: 'nginx' });
      res.end(
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
      );
    });
    const e = await failure(createGatewayClient({ baseUrl: server.url, apiKey: 'k' }).createMessage(MESSAGE_REQUEST));
    const advice = adviseOnError(e, { surface: 'chat' });
    assert.match(
      advice.detail,
      /an HTML error page from nginx \("502 Bad Gateway"\): a proxy or CDN in front of the gateway answered/,
    );
    assert.doesNotMatch(advice.detail, /The gateway said/);
  });
});
