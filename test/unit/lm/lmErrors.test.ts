import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors';
import { describeForLanguageModel } from '../../../src/lm/lmErrors';

const route = 'POST /v1/messages';
const secret = 'mg-demo-key-0001';

describe('lm/lmErrors', () => {
  it('maps 401 and 403 to NoPermissions with the spec reaction', () => {
    const auth = describeForLanguageModel(new GatewayError({ kind: 'auth', route, status: 401, message: 'x' }));
    assert.equal(auth.code, 'NoPermissions');
    assert.match(auth.message, /Replace it/);
    assert.match(auth.message, /never paste a key into a support request/);
    const forbidden = describeForLanguageModel(new GatewayError({ kind: 'forbidden', route, status: 403, message: 'x', serverCode: 'INSUFFICIENT_BALANCE', model: 'claude-demo-sonnet' }));
    assert.equal(forbidden.code, 'NoPermissions');
    assert.match(forbidden.message, /key group.*visibility.*balance.*route permission/);
    assert.match(forbidden.message, /INSUFFICIENT_BALANCE/);
    assert.match(forbidden.message, /claude-demo-sonnet/);
  });

  it('maps a 403 "model not available for this group" to NotFound', () => {
    const d = describeForLanguageModel(new GatewayError({ kind: 'forbidden', route, status: 403, message: 'x', serverCode: 'MODEL_NOT_AVAILABLE', serverMessage: "model not available for this group: 'x'", model: 'x' }));
    assert.equal(d.code, 'NotFound');
    assert.match(d.message, /key group/);
    assert.match(d.message, /Refresh the model list/);
  });

  it('maps 404 to NotFound naming the URL and the base-URL advice', () => {
    const d = describeForLanguageModel(new GatewayError({ kind: 'not_found', route, status: 404, message: 'x' }), { baseUrl: 'https://gw.example', modelId: 'nope' });
    assert.equal(d.code, 'NotFound');
    assert.match(d.message, /POST \/v1\/messages at https:\/\/gw\.example/);
    assert.match(d.message, /site root/);
    assert.match(d.message, /"nope"/);
  });

  it('maps 429 to Blocked with the wait in seconds', () => {
    const d = describeForLanguageModel(new GatewayError({ kind: 'rate_limited', route, status: 429, message: 'x', retryAfterMs: 90_500 }));
    assert.equal(d.code, 'Blocked');
    assert.match(d.message, /Wait 91 s/);
    assert.match(d.message, /parallel/);
  });

  it('says the outcome is unknown on timeouts and never replays', () => {
    const d = describeForLanguageModel(new GatewayError({ kind: 'timeout', route, message: 'x', outcomeUnknown: true }));
    assert.equal(d.code, 'Unknown');
    assert.match(d.message, /outcome is unknown/);
    assert.match(d.message, /charged/);
  });

  it('adds the request id and removes the key from server text', () => {
    const d = describeForLanguageModel(
      new GatewayError({ kind: 'auth', route, status: 401, message: 'x', requestId: 'req_1', serverMessage: `key ${secret} is revoked` }),
      { secret },
    );
    assert.match(d.message, /request id req_1/);
    assert.ok(!d.message.includes(secret), d.message);
    assert.match(d.message, /\[redacted\]/);
  });

  it('passes plain errors through as Unknown', () => {
    assert.deepEqual(describeForLanguageModel(new Error('boom')), { code: 'Unknown', message: 'boom' });
    assert.deepEqual(describeForLanguageModel('text'), { code: 'Unknown', message: 'text' });
  });
});
