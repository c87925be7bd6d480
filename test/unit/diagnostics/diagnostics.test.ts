import { strict as assert } from 'node:assert';
import { defaultConfig, startEmulator } from '../../../src/emulator';
import { createGatewayClient } from '../../../src/gateway';
import { parseConfig } from '../../../src/shared/config';
import { runConnectionCheck } from '../../../src/diagnostics/checkConnection';
import { renderReport, summarize } from '../../../src/diagnostics/report';
import { stateFromRecord, statusText, statusTooltip } from '../../../src/diagnostics/statusState';
import { checkKey, describeCount } from '../../../src/keys/check';
import { baseUrlNoticeText } from '../../../src/diagnostics/baseUrlNoticeText';
import { useEmulator } from '../../support/emulatorLifecycle';

describe('platform: status bar state', () => {
  it('maps HTTP statuses to connection states', () => {
    assert.equal(stateFromRecord({ status: 200 }), 'ok');
    assert.equal(stateFromRecord({ status: 401 }), 'key-rejected');
    assert.equal(stateFromRecord({ status: 403 }), 'forbidden');
    assert.equal(stateFromRecord({ status: 404 }), 'not-found');
    assert.equal(stateFromRecord({ status: 429 }), 'rate-limited');
    assert.equal(stateFromRecord({ status: 503 }), 'error');
    assert.equal(stateFromRecord({}), 'unreachable');
  });

  it('asks for what is missing first, then shows key and model', () => {
    assert.match(statusText({ baseUrl: '', state: 'ok' }), /set base URL/);
    assert.match(statusText({ baseUrl: 'https://gw', state: 'ok' }), /set key/);
    assert.equal(
      statusText({
        baseUrl: 'https://gw',
        keyName: 'laptop',
        keyFingerprint: 'abcd1234',
        state: 'ok',
        chatModel: 'm1',
      }),
      '$(pass) laptop · m1',
    );
    const tooltip = statusTooltip({
      baseUrl: 'https://gw',
      keyName: 'laptop',
      keyFingerprint: 'abcd1234',
      state: 'not-found',
      chatModel: 'm1',
    });
    assert.match(tooltip, /abcd1234/);
    assert.match(tooltip, /404/);
  });
});

describe('platform: base URL notice text', () => {
  it('names the normalised root and the exact URLs', () => {
    const text = baseUrlNoticeText(parseConfig({ baseUrl: 'https://gw.example.com/v1/messages' }));
    assert.ok(text);
    assert.match(text, /https:\/\/gw\.example\.com\/v1\/messages,/);
    assert.match(text, /https:\/\/gw\.example\.com\/v1\/models/);
  });
  it('says nothing for a clean root or an empty setting, and explains an unusable one', () => {
    assert.equal(baseUrlNoticeText(parseConfig({ baseUrl: 'https://gw.example.com' })), undefined);
    assert.equal(baseUrlNoticeText(parseConfig({})), undefined);
    assert.match(baseUrlNoticeText(parseConfig({ baseUrl: 'gw.example.com' })) ?? '', /cannot be used/);
    const withPassword = baseUrlNoticeText(parseConfig({ baseUrl: 'https://me:hunter22secret@gw.example.com' })) ?? '';
    assert.match(withPassword, /cannot be used/);
    assert.ok(!withPassword.includes('hunter22secret'), 'credentials in a pasted URL are not repeated');
  });
});

describe('platform: key check and connection check against the emulator', function () {
  this.timeout(20_000);
  const emulator = useEmulator();

  const client = (key: string, baseUrl = emulator().url) =>
    createGatewayClient({ baseUrl, apiKey: key, maxRetries: 0, timeoutMs: 5_000 });

  it('accepts a good key and counts chat and image models', async () => {
    const check = await checkKey(client('mg-demo-key-0001'), { overrides: {} });
    assert.deepEqual(check, { ok: true, total: 4, chat: 2, image: 2 });
    assert.equal(describeCount({ total: 4, chat: 2, image: 2 }), '4 models (2 chat, 2 image)');
  });

  it('rejects a revoked key (401) and leaves other failures unverified', async () => {
    const revoked = await checkKey(client('mg-revoked-0004'), { overrides: {} });
    assert.equal(revoked.ok, false);
    assert.equal(!revoked.ok && revoked.verdict, 'rejected');
    const wrongUrl = await checkKey(client('mg-demo-key-0001', `${emulator().url}/nothing-here`), { overrides: {} });
    assert.equal(!wrongUrl.ok && wrongUrl.verdict, 'unverified');
  });

  const inputs = (key: string | undefined, billable: boolean, baseUrl = emulator().url) => {
    const config = parseConfig({ baseUrl });
    return {
      config,
      key: key ? { name: 'test', fingerprint: 'ffffffff' } : undefined,
      client: key ? client(key, config.baseUrl) : undefined,
      proxyDescription: 'direct connection (no proxy)',
      allowBillable: async () => billable,
    };
  };

  it('the Network step lists the request headers by name, never a value', async () => {
    const report = await runConnectionCheck({
      ...inputs('mg-demo-key-0001', false),
      requestHeaderNames: ['x-portkey-provider', 'cf-aig-authorization (secret)'],
    });
    assert.deepEqual(report.steps[1].lines.slice(1), [
      'Request headers sent on every route (names only): x-portkey-provider, cf-aig-authorization (secret)',
    ]);
  });

  it('reports every step OK and sends the billable request only when allowed', async () => {
    const skipped = await runConnectionCheck(inputs('mg-demo-key-0001', false));
    assert.equal(skipped.ok, true);
    assert.equal(emulator().billableCount('POST /v1/messages'), 0, 'no billable request without consent');
    assert.deepEqual(
      skipped.steps.map((s) => s.status),
      ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'skipped', 'skipped', 'ok'],
    );
    const full = await runConnectionCheck(inputs('mg-demo-key-0001', true));
    assert.equal(full.ok, true);
    assert.deepEqual(
      full.steps.map((s) => s.status),
      ['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
    );
    assert.match(
      renderReport(skipped),
      /Dialects[\s\S]*Messages \(POST \/v1\/messages\), the default[^\n]*claude-demo-sonnet/,
    );
    assert.equal(
      emulator()
        .requests()
        .filter((r) => r.path === '/v1/messages').length,
      1,
    );
    const text = renderReport(full);
    assert.match(text, /2 chat, 2 image/);
    assert.match(text, new RegExp(`${emulator().url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/v1/messages`));
    assert.ok(!text.includes('mg-demo-key-0001'));
  });

  it('orders the steps: models, then the balance (when the gateway has one), image routes, Messages, dialects', async () => {
    const base = inputs('mg-demo-key-0001', false);
    const report = await runConnectionCheck({
      ...base,
      balance: async () => {
        const probe = await base.client!.readBalance();
        return probe.kind === 'balance' ? probe.balance : undefined;
      },
    });
    assert.deepEqual(
      report.steps.map((s) => s.title.replace(/ \(.*/, '')),
      [
        'Base URL',
        'Network',
        'Reachability',
        'Key accepted',
        'Models listed',
        'Balance',
        'Image routes',
        'Messages route permission',
        'Version header accepted',
        'Dialects',
      ],
    );
  });

  it('the progress names the step that runs: "Messages route permission" while the dialog asks about it', async () => {
    const progress: string[] = [];
    let shownWhileAsking: string | undefined;
    await runConnectionCheck({
      ...inputs('mg-demo-key-0001', false),
      balance: async () => undefined,
      onProgress: (title) => progress.push(title),
      allowBillable: async () => {
        shownWhileAsking = progress.at(-1);
        return false;
      },
    });
    assert.equal(shownWhileAsking, 'Messages route permission');
    assert.deepEqual(progress, ['Models listed', 'Balance', 'Messages route permission', 'Dialects']);
  });

  it('says which image routes are used, from what is known, without sending anything billable', async () => {
    const fresh = await runConnectionCheck(inputs('mg-demo-key-0001', false));
    const step = (r: typeof fresh) => r.steps.find((s) => s.id === 'imageRoutes')?.lines.join(' ') ?? '';
    assert.match(step(fresh), /Async routes are used/);
    const known = await runConnectionCheck({ ...inputs('mg-demo-key-0001', false), withoutAsyncImages: true });
    assert.match(step(known), /no async image routes/);
    assert.equal(emulator().billableCount(), 0);
    assert.ok(
      !emulator()
        .requests()
        .some((r) => r.path.startsWith('/v1/images')),
      'no image request',
    );
  });

  it('on a gateway without /v1/messages (one-api): the billable check goes over chat-completions and says so', async () => {
    const oneApi = await startEmulator({ config: { ...defaultConfig(), dialect: 'one-api' } });
    try {
      const viaOneApi = createGatewayClient({ baseUrl: oneApi.url, apiKey: 'mg-demo-key-0001', maxRetries: 0 });
      const report = await runConnectionCheck({
        config: parseConfig({ baseUrl: oneApi.url }),
        key: { name: 'test', fingerprint: 'ffffffff' },
        client: viaOneApi,
        proxyDescription: 'direct connection (no proxy)',
        allowBillable: async () => true,
      });
      assert.equal(report.ok, true, renderReport(report));
      const text = renderReport(report);
      assert.match(text, /\/v1\/chat\/completions with claude-demo-sonnet, max_tokens 1: allowed/);
      assert.match(text, /chat-completions \(POST \/v1\/chat\/completions\), learned[^\n]*claude-demo-sonnet/);
      assert.equal(oneApi.billableCount(), 1, 'one billable request, no second one');
    } finally {
      await oneApi.close();
    }
  });

  it('shows the normalisation and explains a revoked key', async () => {
    const report = await runConnectionCheck(inputs('mg-revoked-0004', true, `${emulator().url}/v1/`));
    assert.equal(report.steps[0].status, 'warn');
    assert.match(report.steps[0].lines.join('\n'), /normalised/);
    const key = report.steps.find((s) => s.title.startsWith('Key accepted'));
    assert.equal(key?.status, 'fail');
    assert.match(key?.lines.join(' ') ?? '', /401/);
    assert.match(summarize(report), /failed at "Key accepted/);
  });

  it('explains a wrong base URL (404) and an unreachable gateway', async () => {
    const notFound = await runConnectionCheck(inputs('mg-demo-key-0001', false, `${emulator().url}/proxy`));
    assert.equal(notFound.ok, false);
    assert.match(renderReport(notFound), /404/);
    const unreachable = await runConnectionCheck(inputs('mg-demo-key-0001', false, 'http://127.0.0.1:9'));
    assert.equal(unreachable.steps.find((s) => s.title === 'Reachability')?.status, 'fail');
  });

  it('says that no key is stored', async () => {
    const report = await runConnectionCheck(inputs(undefined, false));
    assert.equal(report.steps[report.steps.length - 1].title, 'API key');
    assert.equal(report.ok, false);
  });
});
