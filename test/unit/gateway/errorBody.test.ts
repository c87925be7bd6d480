import * as assert from 'node:assert/strict';
import { htmlToText, kindForErrorType, kindForStatus, parseErrorBody } from '../../../src/gateway/errorBody';

describe('error bodies', () => {
  it('reads the Messages style', () => {
    const b = parseErrorBody('{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"},"request_id":"req_9"}');
    assert.deepEqual(b, { message: 'Slow down', type: 'rate_limit_error', code: 'rate_limit_error', requestId: 'req_9' });
  });
  it('reads the OpenAI style (code wins over type)', () => {
    const b = parseErrorBody('{"error":{"message":"model not available for this group","type":"invalid_request_error","param":null,"code":"model_not_found"}}');
    assert.equal(b.message, 'model not available for this group');
    assert.equal(b.code, 'model_not_found');
  });
  it('reads the flat gateway style', () => {
    assert.deepEqual(parseErrorBody('{"code":"INSUFFICIENT_BALANCE","message":"Balance too low"}'), { code: 'INSUFFICIENT_BALANCE', message: 'Balance too low', requestId: undefined });
  });
  it('reads a string error and a numeric code', () => {
    assert.equal(parseErrorBody('{"error":"bad key"}').message, 'bad key');
    assert.equal(parseErrorBody('{"code":403,"msg":"denied"}').code, '403');
  });
  it('turns an HTML page into short text without markup', () => {
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{}</style></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>';
    assert.equal(parseErrorBody(html, 'text/html').message, '502 Bad Gateway');
    assert.equal(htmlToText('<html><body><h1>Not &amp; Found</h1></body></html>'), 'Not & Found');
    const noTitle = parseErrorBody('<html><body><div>Error <b>1020</b>: Access denied</div><script>var x=1</script></body></html>').message ?? '';
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
    const expected: Array<[number, string]> = [[400, 'bad_request'], [413, 'bad_request'], [422, 'bad_request'], [401, 'auth'], [402, 'forbidden'], [403, 'forbidden'], [404, 'not_found'], [429, 'rate_limited'], [500, 'server'], [502, 'server'], [503, 'server'], [504, 'server'], [529, 'server']];
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
