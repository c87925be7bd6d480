// The host's verdict on links from model output (src/chat/session/links.ts → src/shared/linkPolicy.ts).
import { strict as assert } from 'node:assert';
import { checkLink, linkConfirmationDetail, validateExternalLink } from '../../../src/chat/session/links';
import { decodePunycode, MAX_LINK_LENGTH } from '../../../src/shared/linkPolicy';

describe('links from model output', () => {
  it('accepts plain http(s) links and shows them in their exact ASCII form', () => {
    const cases: Array<[string, string]> = [
      ['https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'],
      ['http://127.0.0.1:8080/x', 'http://127.0.0.1:8080/x'],
      ['HTTPS://Example.COM', 'https://example.com/'],
      ['https://example.com/caf%C3%A9', 'https://example.com/caf%C3%A9'],
      ['https://example.com/café', 'https://example.com/caf%C3%A9'],
      ['https://example.com/My%20File.txt', 'https://example.com/My%20File.txt'],
      ['https://example.com/%ZZ%E2', 'https://example.com/%ZZ%E2'],
    ];
    for (const [href, display] of cases) {
      const verdict = checkLink(href);
      assert.ok(verdict.ok, href);
      assert.equal(verdict.display, display);
      assert.equal(verdict.internationalHost, false);
      assert.equal(validateExternalLink(href)?.href, display);
    }
  });

  it('shows an international host in punycode and says so', () => {
    for (const [href, display] of [
      ['https://münchen.de/x', 'https://xn--mnchen-3ya.de/x'],
      ['https://日本語.jp', 'https://xn--wgv71a119e.jp/'],
      ['https://пример.рф/', 'https://xn--e1afmkfd.xn--p1ai/'],
      ['https://xn--mnchen-3ya.de/', 'https://xn--mnchen-3ya.de/'],
    ]) {
      const verdict = checkLink(href);
      assert.ok(verdict.ok, href);
      assert.equal(verdict.display, display);
      assert.equal(verdict.internationalHost, true);
      assert.match(linkConfirmationDetail(verdict), /^https:\/\/xn--.*\n[\s\S]*punycode/);
      assert.doesNotMatch(linkConfirmationDetail(verdict), /[^\x00-\x7f]/, 'the confirmation is ASCII only');
    }
  });

  const hostile: Array<[string, RegExp]> = [
    ['javascript:alert(1)', /http and https/],
    ['JaVaScRiPt:alert(1)', /http and https/],
    ['data:text/html,<script>alert(1)</script>', /http and https/],
    ['file:///etc/passwd', /http and https/],
    ['vscode://vscode.git/clone?url=https://evil.example', /http and https/],
    ['command:workbench.action.terminal.new', /http and https/],
    ['mailto:a@example.com', /http and https/],
    ['//example.com', /http and https/],
    ['example.com', /http and https/],
    ['https:example.com', /http and https/],
    ['https:/example.com', /http and https/],
    ['ftp://example.com/', /http and https/],
    ['https://user:pw@example.com/', /user name or password/],
    ['http://github.com:x@127.0.0.1/steal', /user name or password/],
    ['https://github.com@evil.example/', /user name or password/],
    ['https://@example.com/', /user name or password/],
    ['https://evil.example\\@github.com/', /backslash/],
    ['https://example.com\\evil', /backslash/],
    ['https://exa\u202emple.com/', /invisible|direction/],
    ['https://example.com/\u2066x\u2069', /invisible|direction/],
    ['https://ex\u200bample.com/', /invisible|direction/],
    ['https://example.com/\u200d', /invisible|direction/],
    ['https://example.com/\ufeff', /invisible|direction/],
    ['https://example.com/\u00ad', /invisible|direction/],
    ['https://example.com/\u3164', /invisible|direction/],
    ['https://example.com/\u0000', /invisible|direction/],
    ['https://exa mple.com', /invisible|direction/],
    ['https://example.com/\nx', /invisible|direction/],
    ['https://example.com/\u00a0', /invisible|direction/],
    ['https://example.com/%E2%80%AEtxt.exe', /encoded invisible/],
    ['https://example.com/a%e2%80%8bb', /encoded invisible/],
    ['https://example.com/%0d%0aSet-Cookie:x', /encoded invisible/],
    ['https://ex%E2%80%8Bample.com/', /encoded invisible/],
    ['https://аpple.com/', /mixes writing systems/],
    ['https://xn--pple-43d.com/', /mixes writing systems/],
    ['https://раураӏ.com/', /imitates a Latin address/],
    ['https://xn--80ak6aa92e.com/', /imitates a Latin address/],
    ['https://ѕсоре.example/', /imitates a Latin address/],
    ['https://οpenai.com/', /mixes writing systems/],
    ['https://xn--zz-zzzz.com/', /not valid|not a valid URL/],
    ['https://', /not a valid URL|no valid host/],
    [`https://example.com/${'a'.repeat(MAX_LINK_LENGTH)}`, /longer than/],
    ['', /no address/],
  ];
  for (const [href, reason] of hostile) {
    it(`refuses ${JSON.stringify(href.length > 60 ? `${href.slice(0, 40)}…` : href)}`, () => {
      const verdict = checkLink(href);
      assert.equal(verdict.ok, false, 'refused');
      assert.match((verdict as { reason: string }).reason, reason);
      assert.equal(validateExternalLink(href), undefined);
    });
  }

  it('decodes punycode labels (RFC 3492) and rejects broken ones', () => {
    assert.equal(decodePunycode('mnchen-3ya'), 'münchen');
    assert.equal(decodePunycode('80ak6aa92e'), 'аррӏе');
    assert.equal(decodePunycode('wgv71a119e'), '日本語');
    assert.equal(decodePunycode('ls8h'), '💩');
    assert.equal(decodePunycode('99999999999'), undefined);
    assert.equal(decodePunycode('ab$'), undefined);
  });
});
