import { strict as assert } from 'node:assert';
import { Dispatcher } from 'undici';
import { formatSupportInfo, SupportRing, toSupportRecord } from '../../../src/platform/supportLog';
import { createDispatcher, describeProxyPlan, planProxy } from '../../../src/platform/proxy';
import type { SupportRecord } from '../../../src/gateway/types';

describe('platform: support records', () => {
  it('keeps exactly the five fields, whatever the source carries', () => {
    const dirty = {
      timestamp: '2026-01-01T00:00:00.000Z',
      route: 'POST /v1/messages',
      model: 'm',
      status: 403,
      requestId: 'req_1',
      apiKey: 'mg-demo-key-0001',
      prompt: 'secret prompt',
      headers: { authorization: 'Bearer x' },
    } as SupportRecord;
    const record = toSupportRecord(dirty);
    assert.deepEqual(Object.keys(record).sort(), ['model', 'requestId', 'route', 'status', 'timestamp']);
    assert.ok(!JSON.stringify(record).includes('mg-demo'));
  });

  it('omits absent optional fields', () => {
    assert.deepEqual(toSupportRecord({ timestamp: 't', route: 'GET /v1/models' }), {
      timestamp: 't',
      route: 'GET /v1/models',
    });
  });

  it('is a ring buffer returning the newest records last', () => {
    const ring = new SupportRing(3);
    for (let i = 0; i < 5; i++) ring.add({ timestamp: `t${i}`, route: 'GET /v1/models', status: 200 });
    assert.deepEqual(
      ring.recent().map((r) => r.timestamp),
      ['t2', 't3', 't4'],
    );
    assert.deepEqual(
      ring.recent(2).map((r) => r.timestamp),
      ['t3', 't4'],
    );
    const copy = ring.recent(1)[0];
    copy.route = 'changed';
    assert.equal(ring.recent(1)[0].route, 'GET /v1/models', 'callers get copies');
  });

  it('formats one tab-separated line per record with the five fields only', () => {
    const text = formatSupportInfo([
      { timestamp: 't', route: 'POST /v1/messages', model: 'm', status: 401, requestId: 'req_9' },
      { timestamp: 'u', route: 'GET /v1/models' },
    ]);
    const lines = text.split('\n');
    assert.equal(lines.length, 3);
    assert.deepEqual(lines[1].split('\t'), ['t', 'POST /v1/messages', 'm', '401', 'req_9']);
    assert.deepEqual(lines[2].split('\t'), ['u', 'GET /v1/models', '-', '-', '-']);
  });

  it('names the request headers sent (never their values) when there are any', () => {
    const text = formatSupportInfo([{ timestamp: 't', route: 'GET /v1/models' }], undefined, [
      'x-portkey-provider',
      'x-b (secret)',
    ]);
    assert.equal(text.split('\n')[1], 'Request headers sent (names only): x-portkey-provider, x-b (secret)');
  });
});

describe('platform: proxy dispatcher selection', () => {
  const none = { proxy: '', noProxy: [], strictSSL: true };

  it('connects directly when nothing is configured', () => {
    assert.deepEqual(planProxy(none, {}), { kind: 'direct' });
    assert.equal(createDispatcher({ kind: 'direct' }), undefined);
  });

  it('uses http.proxy with http.noProxy and strict SSL', () => {
    const plan = planProxy(
      { proxy: 'http://proxy.local:3128', noProxy: ['localhost', '127.0.0.1'], strictSSL: true },
      { NO_PROXY: '.corp' },
    );
    assert.deepEqual(plan, {
      kind: 'proxy',
      httpProxy: 'http://proxy.local:3128',
      httpsProxy: 'http://proxy.local:3128',
      noProxy: 'localhost,127.0.0.1,.corp',
      strictSSL: true,
      source: 'settings',
    });
    const dispatcher = createDispatcher(plan);
    assert.ok(dispatcher instanceof Dispatcher);
    void dispatcher.close();
  });

  it('prefers the setting over the environment, and falls back to HTTPS_PROXY / HTTP_PROXY', () => {
    assert.equal(planProxy({ ...none, proxy: 'http://a:1' }, { HTTPS_PROXY: 'http://b:2' }).kind, 'proxy');
    const fromEnv = planProxy(none, { https_proxy: 'http://b:2' });
    assert.deepEqual(fromEnv, {
      kind: 'proxy',
      httpProxy: 'http://b:2',
      httpsProxy: 'http://b:2',
      noProxy: '',
      strictSSL: true,
      source: 'environment',
    });
  });

  it('turns off certificate checks only when http.proxyStrictSSL is false', () => {
    const plan = planProxy({ ...none, strictSSL: false }, {});
    assert.deepEqual(plan, { kind: 'direct-insecure' });
    const dispatcher = createDispatcher(plan);
    assert.ok(dispatcher instanceof Dispatcher);
    void dispatcher.close();
    assert.equal(
      (planProxy({ proxy: 'http://p:1', noProxy: [], strictSSL: false }, {}) as { strictSSL: boolean }).strictSSL,
      false,
    );
  });

  it('describes the plan without proxy credentials', () => {
    const text = describeProxyPlan(
      planProxy({ proxy: 'http://user:hunter22@proxy.local:3128', noProxy: ['localhost'], strictSSL: true }, {}),
    );
    assert.ok(!text.includes('hunter22'));
    assert.match(text, /proxy\.local:3128/);
    assert.match(text, /localhost/);
  });
});
