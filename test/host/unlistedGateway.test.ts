// A gateway that serves POST /v1/messages but answers 404 to GET /v1/models (emulator fault noModelList),
// inside a real VS Code: Refresh Models, Set API Key, Check Connection and native chat all work from
// modelGateway.models.declared.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { EXTENSION_ID, sleep, testHook, DEMO_KEY_NAME } from '../support/hostTest';

const DEMO = 'mg-demo-key-0001';
const DECLARED = ['claude-demo-haiku', 'gpt-image-demo'];

interface Snapshot {
  keyFingerprint: string;
  models: { id: string; kind: 'chat' | 'image'; declared?: boolean }[];
  listUnavailable?: boolean;
}
interface Report {
  ok: boolean;
  steps: { title: string; status: string; lines: string[] }[];
}

describe('unlisted gateway: no GET /v1/models, declared models instead', function () {
  this.timeout(60_000);
  const admin = EmulatorAdmin.fromEnv();
  const settings = () => vscode.workspace.getConfiguration('modelGateway');
  let declaredBefore: unknown;
  let extraKey: string | undefined;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    declaredBefore = settings().inspect('models.declared')?.globalValue;
    await admin.setFaults(DEMO, { noModelList: true });
    await settings().update('models.declared', DECLARED, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await admin.setFaults(DEMO, null);
    if (extraKey) await admin.setFaults(extraKey, null).catch(() => undefined);
    await testHook('switchKey', DEMO_KEY_NAME).then(undefined, () => undefined);
    await testHook('removeApiKey', 'unlisted-test').then(undefined, () => undefined);
    await settings().update('models.declared', declaredBefore, vscode.ConfigurationTarget.Global);
  });

  it('Refresh Models offers the declared ids, classified, and says the gateway does not list', async () => {
    const snapshot = await testHook<Snapshot | undefined>('refreshModels', { quiet: true });
    assert.ok(snapshot, 'a snapshot instead of a 404 error');
    assert.strictEqual(snapshot.listUnavailable, true);
    assert.deepStrictEqual(
      snapshot.models.map((m) => [m.id, m.kind]),
      [
        ['claude-demo-haiku', 'chat'],
        ['gpt-image-demo', 'image'],
      ],
    );
  });

  it('Set API Key accepts a key when the list route is missing (checked by an unbilled probe)', async () => {
    const created = await admin.createKey({ group: 'default', name: 'unlisted', balance: 5 });
    extraKey = created.key;
    await admin.setFaults(created.key, { noModelList: true });
    const saved = await testHook<{ name: string } | undefined>('setApiKey', {
      name: 'unlisted-test',
      secret: created.key,
    });
    assert.strictEqual(saved?.name, 'unlisted-test');
    const entries = (await admin.requests()).filter((r) => r.keyName === 'unlisted' && r.path === '/v1/messages');
    assert.ok(entries.length >= 1, 'the probe went to POST /v1/messages');
    assert.ok(
      entries.every((r) => r.status === 400 && !(r.charged ?? 0)),
      'the probe was rejected as invalid and not charged',
    );
    const balance = (await admin.keys()).find((k) => k.key === created.key)?.balance;
    assert.strictEqual(balance, 5);
    await testHook('switchKey', DEMO_KEY_NAME);
  });

  it('Check Connection tells "does not list models" from a wrong base URL', async () => {
    const report = await testHook<Report>('checkConnection', { billable: false, show: false });
    const reach = report.steps.find((s) => s.title === 'Reachability');
    assert.strictEqual(reach?.status, 'ok');
    assert.match(reach?.lines.join(' ') ?? '', /does not list models/);
    assert.strictEqual(report.steps.find((s) => s.title === 'Models listed')?.status, 'warn');
    assert.strictEqual(report.ok, true);
  });

  it('native chat offers a declared model and answers with it (VS Code 1.104+)', async function () {
    if (
      typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider !==
      'function'
    )
      this.skip();
    let model: vscode.LanguageModelChat | undefined;
    for (let i = 0; i < 80 && !model; i++) {
      model = (await vscode.lm.selectChatModels({ vendor: 'model-gateway' })).find((m) => m.id === 'claude-demo-haiku');
      if (!model) await sleep(250);
    }
    assert.ok(model, 'the declared chat model is offered');
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User('Say hi [[tokens=5]]')],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const chunk of response.text) text += chunk;
    assert.ok(text.length > 0);
  });
});
