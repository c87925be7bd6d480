import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors/errors';
import { describeForLanguageModel } from '../../../src/lm/lmErrors';

const route = 'POST /v1/messages';
const secret = 'mg-demo-key-0001';

describe('lm/lmErrors', () => {
  it('maps 401 to NoPermissions with the spec reaction (replace the key, never paste it)', () => {
    const d = describeForLanguageModel(new GatewayError({ kind: 'auth', route, status: 401, message: 'x' }));
    assert.equal(d.code, 'NoPermissions');
    assert.match(d.message, /401/);
    assert.match(d.message, /replace it/i);
    assert.match(d.message, /Never paste the key/);
  });

  it('maps a 403 to NoPermissions naming the four things to check', () => {
    const d = describeForLanguageModel(
      new GatewayError({ kind: 'forbidden', route, status: 403, message: 'x', model: 'claude-demo-sonnet' }),
    );
    assert.equal(d.code, 'NoPermissions');
    assert.match(d.message, /key group.*model "claude-demo-sonnet".*balance.*route permission/);
  });

  it('maps a 403 "model not available for this group" to NotFound', () => {
    const d = describeForLanguageModel(
      new GatewayError({
        kind: 'forbidden',
        route,
        status: 403,
        message: 'x',
        serverCode: 'MODEL_NOT_AVAILABLE',
        serverMessage: "model not available for this group: 'x'",
        model: 'x',
      }),
    );
    assert.equal(d.code, 'NotFound');
    assert.match(d.message, /Refresh the model list/);
  });

  it('maps 404 to NotFound naming the URL that was called and the base-URL advice', () => {
    const d = describeForLanguageModel(new GatewayError({ kind: 'not_found', route, status: 404, message: 'x' }), {
      baseUrl: 'https://gw.example',
    });
    assert.equal(d.code, 'NotFound');
    assert.match(d.message, /https:\/\/gw\.example\/v1\/messages/);
    assert.match(d.message, /site root/);
  });

  it('maps 429 to Blocked with the wait', () => {
    const d = describeForLanguageModel(
      new GatewayError({ kind: 'rate_limited', route, status: 429, message: 'x', retryAfterMs: 30_000 }),
    );
    assert.equal(d.code, 'Blocked');
    assert.match(d.message, /429/);
    assert.match(d.message, /wait 30 s/);
  });

  it('says the outcome is unknown on timeouts (not replayed)', () => {
    const d = describeForLanguageModel(
      new GatewayError({ kind: 'timeout', route, message: 'x', outcomeUnknown: true }),
    );
    assert.equal(d.code, 'Unknown');
    assert.match(d.message, /outcome is unknown/);
    assert.match(d.message, /not replayed/);
  });

  it('adds the request id and removes the key from server text', () => {
    const d = describeForLanguageModel(
      new GatewayError({
        kind: 'forbidden',
        route,
        status: 403,
        message: 'x',
        requestId: 'req_1',
        serverMessage: `key ${secret} has no access`,
      }),
      { secret },
    );
    assert.match(d.message, /req_1/);
    assert.ok(!d.message.includes(secret), d.message);
  });

  it('passes plain errors through as Unknown', () => {
    const d = describeForLanguageModel(new Error('boom'));
    assert.equal(d.code, 'Unknown');
    assert.match(d.message, /boom/);
  });
});
