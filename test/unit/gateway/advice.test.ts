import * as assert from 'node:assert/strict';
import { adviseOnError, GatewayError, type GatewayErrorInit } from '../../../src/gateway';

const ctx = { baseUrl: 'https://gw.example.com', surface: 'chat' as const };
const err = (init: Partial<GatewayErrorInit> & Pick<GatewayErrorInit, 'kind'>): GatewayError =>
  new GatewayError({ route: 'POST /v1/messages', message: 'm', model: 'claude-demo-sonnet', ...init });

describe('adviseOnError', () => {
  it('401: replace the key, never paste it into support', () => {
    const a = adviseOnError(err({ kind: 'auth', status: 401, serverCode: 'INVALID_API_KEY' }), ctx);
    assert.match(a.title, /401/);
    assert.match(a.detail, /replace/i);
    assert.match(a.detail, /never paste the key into a support request/i);
    assert.deepEqual(a.actions, ['replaceKey', 'checkConnection']);
  });

  it('403 without a hint lists the four causes', () => {
    const a = adviseOnError(err({ kind: 'forbidden', status: 403 }), ctx);
    for (const word of ['key group', 'visible', 'balance', 'route permission'])
      assert.ok(a.detail.includes(word), word);
  });

  it('403 names the cause the server points at', () => {
    const balance = adviseOnError(
      err({
        kind: 'forbidden',
        status: 403,
        serverCode: 'INSUFFICIENT_BALANCE',
        serverMessage: 'Insufficient balance',
      }),
      ctx,
    );
    assert.match(balance.title, /balance/i);
    assert.ok(balance.actions.includes('openConsoleAdvice'));
    const route = adviseOnError(
      err({
        kind: 'forbidden',
        status: 403,
        route: 'POST /v1/images/generations',
        serverMessage: 'image generation is not enabled for this group',
      }),
      { ...ctx, surface: 'image' },
    );
    assert.match(route.title, /Image generation is not enabled/);
    assert.match(route.detail, /permission/);
    const model = adviseOnError(
      err({ kind: 'forbidden', status: 403, serverMessage: 'model not available for this group' }),
      ctx,
    );
    assert.match(model.title, /claude-demo-sonnet/);
    assert.ok(model.actions.includes('refreshModels'));
    const group = adviseOnError(err({ kind: 'forbidden', status: 403, serverCode: 'GROUP_DISABLED' }), ctx);
    assert.match(group.title, /key group/);
    const expired = adviseOnError(err({ kind: 'forbidden', status: 403, serverCode: 'API_KEY_EXPIRED' }), ctx);
    assert.ok(expired.actions.includes('replaceKey'));
    assert.match(adviseOnError(err({ kind: 'forbidden', status: 402 }), ctx).title, /balance/);
  });

  it('404: the base URL, with the URL that was called and the /v1-twice / full-endpoint hint', () => {
    const a = adviseOnError(err({ kind: 'not_found', status: 404 }), ctx);
    assert.match(a.title, /https:\/\/gw\.example\.com\/v1\/messages/);
    assert.match(a.detail, /\/v1 appended twice/);
    assert.match(a.detail, /full endpoint/);
    assert.deepEqual(a.actions, ['openBaseUrlSetting', 'checkConnection']);
    const img = adviseOnError(err({ kind: 'not_found', status: 404, route: 'POST /v1/images/generations/async' }), {
      ...ctx,
      surface: 'image',
    });
    assert.match(img.detail, /images\.mode/);
  });

  it('429: queue and wait, with Retry-After', () => {
    const a = adviseOnError(err({ kind: 'rate_limited', status: 429, retryAfterMs: 120_000 }), ctx);
    assert.equal(a.retryAfterMs, 120_000);
    assert.match(a.detail, /2 min/);
    assert.match(a.detail, /one at a time/);
    assert.deepEqual(a.actions, ['retry']);
    assert.equal(adviseOnError(err({ kind: 'rate_limited', status: 429 }), ctx).retryAfterMs, undefined);
  });

  it('5xx: retried automatically only when safe; a POST is left to the user', () => {
    const post = adviseOnError(err({ kind: 'server', status: 502, outcomeUnknown: true }), ctx);
    assert.match(post.detail, /not replayed automatically/);
    assert.match(post.detail, /charged/);
    const get = adviseOnError(err({ kind: 'server', status: 503, route: 'GET /v1/models' }), {
      ...ctx,
      surface: 'models',
    });
    assert.match(get.detail, /retried/);
    const img = adviseOnError(err({ kind: 'server', status: 500, route: 'POST /v1/images/generations' }), {
      ...ctx,
      surface: 'image',
    });
    assert.match(img.detail, /Image calls are billable/);
    const mid = adviseOnError(err({ kind: 'server', serverCode: 'overloaded_error' }), ctx);
    assert.match(mid.title, /overloaded/);
  });

  it('timeout: outcome unknown, do not replay billable calls blindly; image wording for images', () => {
    const a = adviseOnError(err({ kind: 'timeout', outcomeUnknown: true }), ctx);
    assert.match(a.title, /outcome is unknown/);
    assert.match(a.detail, /not replayed automatically/);
    const img = adviseOnError(err({ kind: 'timeout', outcomeUnknown: true, route: 'POST /v1/images/generations' }), {
      ...ctx,
      surface: 'image',
    });
    assert.match(img.detail, /Image calls are billable/);
    assert.match(adviseOnError(err({ kind: 'timeout', route: 'GET /v1/models' }), ctx).detail, /safe to repeat/);
  });

  it('network, protocol (cut-off answers), bad base URL, bad request, aborted and foreign errors', () => {
    assert.ok(adviseOnError(err({ kind: 'network' }), ctx).actions.includes('checkConnection'));
    assert.match(adviseOnError(err({ kind: 'network', outcomeUnknown: true }), ctx).detail, /outcome is unknown/);
    const partial = {
      id: '',
      type: 'message' as const,
      role: 'assistant' as const,
      model: '',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    assert.match(adviseOnError(err({ kind: 'protocol', partial }), ctx).title, /cut off/);
    assert.deepEqual(
      adviseOnError(
        err({ kind: 'bad_request', serverCode: 'INVALID_BASE_URL', message: 'The base URL has no scheme.' }),
        ctx,
      ).actions,
      ['openBaseUrlSetting'],
    );
    assert.match(
      adviseOnError(err({ kind: 'bad_request', status: 400, serverMessage: 'max_tokens too large' }), ctx).detail,
      /max_tokens too large/,
    );
    assert.deepEqual(adviseOnError(err({ kind: 'aborted' }), ctx).actions, []);
    const foreign = adviseOnError(new Error('boom with Bearer sk-abcdefghijkl'), ctx);
    assert.deepEqual(foreign.actions, ['showLog']);
    assert.ok(!foreign.detail.includes('sk-abcdefghijkl'));
  });

  it('adds the request id for support', () => {
    assert.match(
      adviseOnError(err({ kind: 'server', status: 500, requestId: 'req_77' }), ctx).detail,
      /Request ID: req_77\./,
    );
  });
});
