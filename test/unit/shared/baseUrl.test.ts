import * as assert from 'node:assert/strict';
import { normalizeBaseUrl } from '../../../src/shared/baseUrl';

describe('normalizeBaseUrl', () => {
  const root = 'https://gw.example.com';
  const pastes: Array<[string, string]> = [
    ['https://gw.example.com', root],
    ['https://gw.example.com/', root],
    ['https://gw.example.com/v1', root],
    ['https://gw.example.com/v1/', root],
    ['https://gw.example.com/v1/messages', root],
    ['https://gw.example.com/v1/chat/completions', root],
    ['https://gw.example.com/v1/models', root],
    ['https://gw.example.com/v1/images/generations', root],
    ['https://gw.example.com/v1/images/edits/async', root],
    ['https://gw.example.com/v1/images/tasks/imgtask_1', root],
    ['https://gw.example.com/v1/v1', root],
    ['https://gw.example.com/v1/v1/messages', root],
    ['  https://gw.example.com/V1/  ', root],
    ['HTTPS://GW.Example.com', root],
    ['https://host/proxy/gw', 'https://host/proxy/gw'],
    ['https://host/proxy/gw/', 'https://host/proxy/gw'],
    ['https://host/proxy/gw/v1/messages', 'https://host/proxy/gw'],
    ['https://host/proxy/gw/v1/v1', 'https://host/proxy/gw'],
    ['http://127.0.0.1:8787/v1', 'http://127.0.0.1:8787'],
  ];
  for (const [input, expected] of pastes) {
    it(`${JSON.stringify(input)} → ${expected}`, () => {
      const r = normalizeBaseUrl(input);
      assert.equal(r.problem, undefined);
      assert.equal(r.baseUrl, expected);
      assert.equal(r.changed, input.trim() !== expected);
      if (r.changed) assert.ok(r.notice && r.notice.includes(expected), 'a notice names the result');
    });
  }

  it('says what it removed', () => {
    assert.match(normalizeBaseUrl('https://gw.example.com/v1/messages').notice ?? '', /removed "\/v1\/messages"/);
    assert.match(normalizeBaseUrl('https://gw.example.com/').notice ?? '', /trailing "\/"/);
    assert.equal(normalizeBaseUrl('https://gw.example.com').notice, undefined);
  });

  it('keeps a prefix that only looks like a version when more path follows (/api/v1/gateway)', () => {
    assert.equal(normalizeBaseUrl('https://h/api/v1/gateway').baseUrl, 'https://h/api/v1/gateway');
  });

  const problems: Array<[string, RegExp]> = [
    ['', /empty/],
    ['   ', /empty/],
    ['https://gw.example .com', /spaces/],
    ['gw.example.com', /scheme/],
    ['ftp://gw.example.com', /ftp/],
    ['https://gw.example.com/?key=abc', /query/],
    ['https://gw.example.com/#x', /fragment/],
    ['https://', /valid|host/],
  ];
  for (const [input, why] of problems) {
    it(`rejects ${JSON.stringify(input)}`, () => {
      const r = normalizeBaseUrl(input);
      assert.match(r.problem ?? '', why);
      assert.equal(r.baseUrl, '');
    });
  }

  it('rejects credentials in the URL without echoing them', () => {
    for (const input of [
      'https://user:sk-SECRET-123456@gw.example.com',
      'https://sk-SECRET-123456@gw.example.com/v1',
    ]) {
      const r = normalizeBaseUrl(input);
      assert.match(r.problem ?? '', /user name or password/);
      assert.ok(!JSON.stringify(r).includes('SECRET'));
    }
  });

  it('never echoes a key-like query value', () => {
    const r = normalizeBaseUrl('https://gw.example.com/v1?api_key=sk-SECRET-999');
    assert.ok(!JSON.stringify(r).includes('SECRET'));
  });
});
