// Gateways that serve POST /v1/messages but have no GET /v1/models (404): the key check and Check
// Connection tell them apart from a wrong base URL with a probe that is never billed, against the emulator.
import { strict as assert } from 'node:assert';
import { createGatewayClient } from '../../../src/gateway';
import { parseConfig } from '../../../src/shared/config';
import { runConnectionCheck } from '../../../src/diagnostics/checkConnection';
import { renderReport } from '../../../src/diagnostics/report';
import { checkKey, describeUnlisted } from '../../../src/keys/check';
import { isListMissing, probeMessagesRoute } from '../../../src/catalog/listing';
import { useEmulator } from '../../support/emulatorLifecycle';

const DEMO = 'mg-demo-key-0001';
const REVOKED = 'mg-revoked-0004';

describe('platform: a gateway without a model list (emulator noModelList)', function () {
  this.timeout(20_000);
  const emulator = useEmulator();
  beforeEach(() => {
    for (const key of [DEMO, REVOKED]) emulator().setFaults(key, { noModelList: true });
  });

  const client = (key: string, baseUrl = emulator().url) =>
    createGatewayClient({ baseUrl, apiKey: key, maxRetries: 0, timeoutMs: 5_000 });
  const messagesCalls = () =>
    emulator()
      .requests()
      .filter((r) => r.path === '/v1/messages');
  // The emulator's billable counter counts every request to a billable route; what costs money is a charge.
  const charges = () => messagesCalls().filter((r) => (r.charged ?? 0) > 0).length;
  let balance = 0;
  beforeEach(() => {
    balance = emulator().balance(DEMO) ?? 0;
  });
  const unbilled = (what: string) => {
    assert.equal(charges(), 0, `${what}: no charge in the request log`);
    assert.equal(emulator().balance(DEMO), balance, `${what}: balance unchanged`);
  };
  const inputs = (key: string, billable: boolean, declared: string[], baseUrl = emulator().url) => {
    const config = parseConfig({ baseUrl, 'models.declared': declared });
    return {
      config,
      key: { name: 'test', fingerprint: 'ffffffff' },
      client: client(key, config.baseUrl),
      proxyDescription: 'direct connection (no proxy)',
      allowBillable: async () => billable,
    };
  };

  it('the emulator switch: GET /v1/models answers 404 while POST /v1/messages still works', async () => {
    await assert.rejects(client(DEMO).listModels(), (e: unknown) => isListMissing(e));
    const reply = await client(DEMO).createMessage({
      model: 'claude-demo-haiku',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'hi' }],
    });
    assert.ok(reply.content.length > 0);
  });

  it('the probe proves the Messages route exists, and is never billed', async () => {
    const probe = await probeMessagesRoute(client(DEMO));
    assert.deepEqual(
      { exists: probe.exists, status: (probe as { status?: number }).status },
      { exists: true, status: 400 },
    );
    unbilled('the empty probe');
    const sent = messagesCalls();
    assert.equal(sent.length, 1);
    assert.equal(sent[0].status, 400);
    assert.equal(sent[0].model, undefined, 'the probe names no model');
    const wrong = await probeMessagesRoute(client(DEMO, `${emulator().url}/proxy`));
    assert.equal(wrong.exists, false);
  });

  it("Set API Key's check accepts a key when the list route is missing, and counts the declared models", async () => {
    const check = await checkKey(client(DEMO), { overrides: {}, declared: ['claude-x', 'gpt-image-x'] });
    assert.deepEqual(check, { ok: true, total: 2, chat: 1, image: 1, unlisted: true, probeStatus: 400 });
    assert.match(
      describeUnlisted(check as { total: number; chat: number; image: number }),
      /does not list models.*2 models \(1 chat, 1 image\) declared/,
    );
    const none = await checkKey(client(DEMO), { overrides: {} });
    assert.equal(none.ok && none.unlisted && none.total, 0);
    assert.match(
      describeUnlisted(none as { total: number; chat: number; image: number }),
      /modelGateway\.models\.declared/,
    );
    unbilled('key check / connection check');
  });

  it('still rejects a revoked key (401 from the probe) and leaves a wrong base URL unverified', async () => {
    const revoked = await checkKey(client(REVOKED), { overrides: {}, declared: ['claude-x'] });
    assert.equal(!revoked.ok && revoked.verdict, 'rejected');
    const wrongUrl = await checkKey(client(DEMO, `${emulator().url}/proxy`), { overrides: {}, declared: ['claude-x'] });
    assert.equal(!wrongUrl.ok && wrongUrl.verdict, 'unverified');
  });

  it('Check Connection says "does not list models" (not "wrong base URL") and runs the Messages step on a declared model', async () => {
    const report = await runConnectionCheck(inputs(DEMO, true, ['claude-demo-haiku', 'gpt-image-demo']));
    const text = renderReport(report);
    assert.match(text, /does not list models/);
    assert.match(text, /The base URL is right/);
    assert.doesNotMatch(text, /wrong base URL|base URL is wrong|check the base URL/i);
    const status = Object.fromEntries(report.steps.map((s) => [s.title.replace(/ \(.*/, ''), s.status]));
    assert.equal(status.Reachability, 'ok');
    assert.equal(status['Key accepted'], 'ok');
    assert.equal(status['Models listed'], 'warn');
    assert.equal(status['Messages route permission'], 'ok', 'the 1-token request used the declared chat model');
    assert.equal(report.ok, true);
    assert.equal(charges(), 1, 'only the consented 1-token request is charged');
  });

  it('Check Connection without declared models fails at the list and says what to set; a wrong base URL is still called one', async () => {
    const undeclared = await runConnectionCheck(inputs(DEMO, false, []));
    assert.equal(undeclared.ok, false);
    const models = undeclared.steps.find((s) => s.title === 'Models listed');
    assert.equal(models?.status, 'fail');
    assert.match(models?.lines.join(' ') ?? '', /modelGateway\.models\.declared/);
    const wrong = await runConnectionCheck(inputs(DEMO, false, ['claude-x'], `${emulator().url}/proxy`));
    const reach = wrong.steps.find((s) => s.title === 'Reachability');
    assert.equal(reach?.status, 'fail');
    assert.match(reach?.lines.join(' ') ?? '', /both answered HTTP 404/);
    unbilled('key check / connection check');
  });
});
