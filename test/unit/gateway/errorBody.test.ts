import * as assert from 'node:assert/strict';
import { htmlToText, kindForErrorType, kindForStatus, parseErrorBody } from '../../../src/gateway/errors/errorBody';

describe('error bodies', () => {
  it('reads the Messages style', () => {
    const b = parseErrorBody(
      '{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"},"request_id":"req_9"}',
    );
    assert.deepEqual(b, {
      message: 'Slow down',
      type: 'rate_limit_error',
      code: 'rate_limit_error',
      requestId: 'req_9',
    });
  });
  it('reads the OpenAI style (code wins over type)', () => {
    const b = parseErrorBody(
      '{"error":{"message":"model not available for this group","type":"invalid_request_error","param":null,"code":"model_not_found"}}',
    );
    assert.equal(b.message, 'model not available for this group');
    assert.equal(b.code, 'model_not_found');
  });
  it('reads the flat gateway style', () => {
    assert.deepEqual(parseErrorBody('{"code":"INSUFFICIENT_BALANCE","message":"Balance too low"}'), {
      code: 'INSUFFICIENT_BALANCE',
      message: 'Balance too low',
      requestId: undefined,
    });
  });
  it('reads a string error and a numeric code', () => {
    assert.equal(parseErrorBody('{"error":"bad key"}').message, 'bad key');
    assert.equal(parseErrorBody('{"code":403,"msg":"denied"}').code, '403');
  });
  it('turns an HTML page into short text without markup', () => {
    const html =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{}</style></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>';
    assert.equal(parseErrorBody(html, 'text/html').message, 'HTML error page from nginx: 502 Bad Gateway');
    assert.equal(htmlToText('<html><body><h1>Not &amp; Found</h1></body></html>'), 'Not & Found');
    const noTitle =
      parseErrorBody('<html><body><div>Error <b>1020</b>: Access denied</div><script>var x=1</script></body></html>')
        .message ?? '';
    assert.equal(noTitle, 'Error 1020 : Access denied');
  });
  it('keeps plain text, truncated JSON and junk as short text, never throwing', () => {
    assert.equal(parseErrorBody('upstream connect error').message, 'upstream connect error');
    assert.equal(parseErrorBody('{"error":{"message":"cut').message, '{"error":{"message":"cut');
    assert.deepEqual(parseErrorBody(''), {});
    assert.deepEqual(parseErrorBody('   \n'), {});
    assert.ok((parseErrorBody('x'.repeat(10_000)).message ?? '').length <= 500);
    assert.equal(parseErrorBody('[1,2]').message, '[1,2]');
    assert.equal(parseErrorBody('null').message, 'null');
  });
  it('maps statuses to kinds', () => {
    const expected: Array<[number, string]> = [
      [400, 'bad_request'],
      [413, 'bad_request'],
      [422, 'bad_request'],
      [401, 'auth'],
      [402, 'forbidden'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [429, 'rate_limited'],
      [500, 'server'],
      [502, 'server'],
      [503, 'server'],
      [504, 'server'],
      [529, 'server'],
    ];
    for (const [status, kind] of expected) assert.equal(kindForStatus(status), kind, String(status));
  });
  it('maps mid-stream error types to kinds', () => {
    assert.equal(kindForErrorType('overloaded_error'), 'server');
    assert.equal(kindForErrorType('api_error'), 'server');
    assert.equal(kindForErrorType('rate_limit_error'), 'rate_limited');
    assert.equal(kindForErrorType('authentication_error'), 'auth');
    assert.equal(kindForErrorType('billing_error'), 'forbidden');
    assert.equal(kindForErrorType('invalid_request_error'), 'bad_request');
    assert.equal(kindForErrorType(undefined), 'server');
  });
});

describe('error bodies: web-framework shapes (a reason phrase never wins over a specific message)', () => {
  const cases: Array<[string, string, string]> = [
    [
      'fastify 404',
      '{"statusCode":404,"error":"Not Found","message":"Route GET:/v1/models not found"}',
      'Route GET:/v1/models not found',
    ],
    ['fastify 500', '{"statusCode":500,"error":"Internal Server Error","message":"terminated"}', 'terminated'],
    [
      'hapi/Boom',
      '{"statusCode":400,"error":"Bad Request","message":"Invalid request payload input"}',
      'Invalid request payload input',
    ],
    ['express json', '{"error":"model claude-x is not available"}', 'model claude-x is not available'],
    ['koa-style message + status', '{"status":502,"message":"upstream timed out"}', 'upstream timed out'],
    ['FastAPI / LiteLLM detail', '{"detail":"Not authenticated: invalid key"}', 'Not authenticated: invalid key'],
    [
      'FastAPI validation list',
      '{"detail":[{"loc":["body","max_tokens"],"msg":"field required","type":"value_error.missing"}]}',
      'max_tokens: field required',
    ],
    ['LiteLLM nested detail', '{"detail":{"error":"budget exceeded for key"}}', 'budget exceeded for key'],
    ['msg', '{"code":1001,"msg":"签名错误"}', '签名错误'],
    ['errors list', '{"errors":[{"message":"model is required"}]}', 'model is required'],
    [
      'error object with a generic message, specific top-level one',
      '{"error":{"message":"Bad Request"},"message":"max_tokens must be positive"}',
      'max_tokens must be positive',
    ],
  ];
  for (const [shape, body, message] of cases) {
    it(`${shape}: "${message}"`, () => assert.equal(parseErrorBody(body, 'application/json').message, message));
  }
  it('a body that is only a reason phrase gives no message (the status already says it)', () => {
    for (const body of [
      '{"statusCode":404,"error":"Not Found","message":"Not Found"}',
      '{"error":"Not Found"}',
      '{"detail":"Not Found"}',
      '404 page not found',
      'Bad Gateway',
      '{"error":{"message":"502 Bad Gateway"}}',
    ]) {
      assert.equal(parseErrorBody(body).message, undefined, body);
    }
  });
  it('an HTML page says it is one, naming the proxy or CDN that made it (page text or Server header)', () => {
    const nginx =
      '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    assert.equal(parseErrorBody(nginx, 'text/html').message, 'HTML error page from nginx: 504 Gateway Time-out');
    assert.equal(
      parseErrorBody(
        '<html><head><title>503 Service Unavailable</title></head><body></body></html>',
        'text/html',
        'cloudflare',
      ).message,
      'HTML error page from Cloudflare: 503 Service Unavailable',
    );
    const cf =
      '<!DOCTYPE html><html><head><title>gw.example.com | 524: A timeout occurred</title></head><body><h1>A timeout occurred</h1><p>Visit cloudflare.com for more information.</p></body></html>';
    assert.equal(
      parseErrorBody(cf, 'text/html').message,
      'HTML error page from Cloudflare: gw.example.com | 524: A timeout occurred',
    );
  });
  it('a token-like error string next to a message becomes the code', () => {
    assert.deepEqual(parseErrorBody('{"error":"model_not_found","message":"no such model: x"}'), {
      code: 'model_not_found',
      message: 'no such model: x',
      requestId: undefined,
    });
  });
  it("express's default HTML page: the <pre> text, not the generic <title>Error</title>", () => {
    const html =
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot GET /v1/models</pre>\n</body>\n</html>\n';
    assert.equal(parseErrorBody(html, 'text/html; charset=utf-8').message, 'Cannot GET /v1/models');
  });
});

describe('error bodies: stack traces appended by Node gateways are dropped', () => {
  const frames =
    '\n    at nt (/srv/node_modules/@musistudio/llms/dist/cjs/server.cjs:67:20940)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)';
  const cases: Array<[string, string, string]> = [
    [
      'message + its own stack',
      `Provider 'x' not foundError: Provider 'x' not found${frames}`,
      "Provider 'x' not found",
    ],
    ['class name glued to the message', `terminatedTypeError: terminated${frames}`, 'terminated'],
    [
      'a message holding JSON',
      `Error from provider(up: 500): {"error":{"message":"crashed"}}Error: Error from provider(up: 500): {"error":{"message":"crashed"}}${frames}`,
      'Error from provider(up: 500): {"error":{"message":"crashed"}}',
    ],
    ['only a stack', `TypeError: fetch failed${frames}`, 'fetch failed'],
  ];
  for (const [label, message, expected] of cases) {
    it(`${label}: "${expected}"`, () => {
      assert.equal(parseErrorBody(JSON.stringify({ error: { message, type: 'api_error' } })).message, expected);
      assert.equal(
        parseErrorBody(JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message })).message,
        expected,
      );
    });
  }
  it('a plain-text body with a stack keeps only the message', () => {
    assert.equal(
      parseErrorBody(`upstream exploded\nError: upstream exploded${frames}`, 'text/plain').message,
      'upstream exploded',
    );
  });
  it('text that merely mentions "Error: " without frames is kept whole', () => {
    assert.equal(
      parseErrorBody('{"message":"litellm.AuthenticationError: AuthenticationError: OpenAIException - bad key"}')
        .message,
      'litellm.AuthenticationError: AuthenticationError: OpenAIException - bad key',
    );
  });
});

describe('error bodies: Portkey and OpenRouter wrappers (issue 34)', () => {
  it("Portkey's 500 when the provider cannot be reached: html-message reaches the message", () => {
    // Exact body of @portkey-ai/gateway 1.15.2 for a custom host it cannot fetch.
    const parsed = parseErrorBody(
      '{"html-message":"Message: fetch failed Cause: Error: bad port Name: TypeError"}',
      'application/json',
    );
    assert.equal(parsed.message, 'Message: fetch failed Cause: Error: bad port Name: TypeError');
  });

  it("Portkey's html-message carrying a provider's HTML page: the page's text, labelled, not its markup", () => {
    const parsed = parseErrorBody(
      JSON.stringify({
        'html-message':
          '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
      }),
      'application/json',
    );
    assert.equal(parsed.message, 'HTML error page from nginx: 502 Bad Gateway');
  });

  it("Portkey's own 400 without a provider header: {status: failure, message}", () => {
    const parsed = parseErrorBody(
      '{"status":"failure","message":"Either x-portkey-config or x-portkey-provider header is required"}',
    );
    assert.equal(parsed.message, 'Either x-portkey-config or x-portkey-provider header is required');
  });

  it("OpenRouter's generic 'Provider returned error': the provider and its raw message are added", () => {
    const parsed = parseErrorBody(
      JSON.stringify({
        error: {
          message: 'Provider returned error',
          code: 429,
          metadata: { raw: '{"error":{"code":429,"message":"Resource exhausted"}}', provider_name: 'Google' },
        },
      }),
    );
    assert.equal(parsed.message, 'Provider returned error (Google): Resource exhausted');
    assert.equal(parsed.upstream, 'words');
    const plain = parseErrorBody(
      '{"error":{"message":"Provider returned error","code":502,"metadata":{"raw":"upstream timed out","provider_name":"Venice"}}}',
    );
    assert.equal(plain.message, 'Provider returned error (Venice): upstream timed out');
  });

  it('LiteLLM and new-api shapes keep their message (unchanged rules)', () => {
    assert.equal(
      parseErrorBody(
        '{"error":{"message":"Authentication Error, Invalid proxy server token passed.","type":"auth_error","param":"None","code":"401"}}',
      ).message,
      'Authentication Error, Invalid proxy server token passed.',
    );
    assert.equal(
      parseErrorBody(
        '{"error":{"message":"当前分组 default 下对于模型 x 无可用渠道 (request id: 2025)","type":"new_api_error","code":"model_not_found"}}',
      ).code,
      'model_not_found',
    );
  });
});
