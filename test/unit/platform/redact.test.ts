import { strict as assert } from 'node:assert';
import { formatLogArgs, redact, REDACTED } from '../../../src/platform/redact';
import { cleanKeyName, cleanSecret, fingerprintOf } from '../../../src/keys/fingerprint';

describe('platform: log redaction', () => {
  it('removes a known secret verbatim wherever it appears', () => {
    const secret = 'Zq9-plainlooking-secret';
    const out = redact(`key=${secret} and again ${secret}.`, [secret]);
    assert.ok(!out.includes(secret));
    assert.equal(out.split(REDACTED).length - 1, 2);
  });

  it('removes sk- and mg- tokens even when unknown', () => {
    for (const token of [
      'sk-ant-api03-abcdefghijklmnop',
      'sk-proj-ABCDEFGH12345678',
      'mg-demo-key-0001',
      'mg-alt-key-0005',
    ]) {
      const out = redact(`failed with ${token} today`);
      assert.ok(!out.includes(token), token);
      assert.ok(out.includes('failed with') && out.includes('today'));
    }
  });

  it('removes Authorization and x-api-key values in header, JSON and assignment forms', () => {
    const cases = [
      'Authorization: Bearer abc.def.ghi-123456',
      'authorization=Basic dXNlcjpwYXNz',
      '{"x-api-key":"plain-secret-value-42","other":1}',
      "headers: { 'x-api-key': 'another-secret-99' }",
      'X-Api-Key: zzzzzzzzzzzzzzzz',
      'curl -H "Bearer qwertyuiopasdf"',
    ];
    for (const text of cases) {
      const out = redact(text);
      for (const secret of [
        'abc.def.ghi-123456',
        'dXNlcjpwYXNz',
        'plain-secret-value-42',
        'another-secret-99',
        'zzzzzzzzzzzzzzzz',
        'qwertyuiopasdf',
      ]) {
        assert.ok(!out.includes(secret), `${text} → ${out}`);
      }
      assert.ok(out.includes(REDACTED), out);
    }
    assert.ok(
      redact('{"x-api-key":"plain-secret-value-42","other":1}').includes('"other":1'),
      'the rest of the JSON is kept',
    );
  });

  it('removes credentials inside URLs', () => {
    const out = redact('proxy http://user:hunter22@proxy.local:3128');
    assert.ok(!out.includes('hunter22'));
    assert.ok(out.includes('proxy.local:3128'));
  });

  it('leaves ordinary log lines alone', () => {
    const line = 'POST /v1/messages 200 claude-demo-sonnet request-id req_123 in 42 ms (sd-xl, task imgtask_1)';
    assert.equal(redact(line), line);
  });

  it('formats errors, objects and credential headers inside objects', () => {
    const text = formatLogArgs([
      new Error('boom', { cause: new Error('inner') }),
      { headers: { Authorization: 'Bearer secret-abcdef', accept: 'json' } },
    ]);
    assert.match(text, /Error: boom \(cause: Error: inner\)/);
    assert.ok(!text.includes('secret-abcdef'));
    assert.ok(text.includes('"accept":"json"'));
  });
});

describe('platform: key fingerprint and input cleaning', () => {
  it('is a stable 8-hex-digit sha256 prefix that does not contain the key', () => {
    const fingerprint = fingerprintOf('mg-demo-key-0001');
    assert.match(fingerprint, /^[0-9a-f]{8}$/);
    assert.equal(fingerprintOf('mg-demo-key-0001'), fingerprint);
    assert.notEqual(fingerprintOf('mg-alt-key-0005'), fingerprint);
    // sha256('abc') = ba7816bf...
    assert.equal(fingerprintOf('abc'), 'ba7816bf');
  });

  it('cleans pasted secrets and rejects unusable ones', () => {
    assert.equal(cleanSecret('  mg-demo-key-0001\n'), 'mg-demo-key-0001');
    assert.equal(cleanSecret('Bearer mg-demo-key-0001'), 'mg-demo-key-0001');
    assert.equal(cleanSecret('"mg-demo-key-0001"'), 'mg-demo-key-0001');
    assert.equal(cleanSecret(''), undefined);
    assert.equal(cleanSecret('two words here'), undefined);
    assert.equal(cleanSecret('short'), undefined);
  });

  it('cleans key names', () => {
    assert.equal(cleanKeyName('  laptop '), 'laptop');
    assert.equal(cleanKeyName(''), undefined);
    assert.equal(cleanKeyName('x'.repeat(65)), undefined);
    assert.equal(cleanKeyName('a\nb'), undefined);
  });
});
