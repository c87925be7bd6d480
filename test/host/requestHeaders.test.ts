// Request headers in the real extension host (docs/settings.md#request-headers): the demo key answered as Portkey
// (the emulator's portkey dialect, set on the key: 400 without x-portkey-provider / x-portkey-config) works once
// the user's setting or a secret header of the key supplies the header; a workspace cannot supply it; Check
// Connection, Copy Support Info and the log name the headers, never a secret value.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { DEMO_KEY, DEMO_KEY_NAME, EXTENSION_ID, testHook, waitForValue } from '../support/hostTest';

const SECRET_CONFIG = '{"provider":"openai","secret-tenant":"tenant-secret-4c1d9e77"}';
interface Report {
  steps: { title: string; status: string; lines: string[] }[];
}

describe('request headers: a gateway that requires one (Portkey-like) in the extension host', function () {
  this.timeout(60_000);
  const admin = EmulatorAdmin.fromEnv();
  const settings = () => vscode.workspace.getConfiguration('modelGateway');
  /** The status of the last GET /v1/models the emulator saw after a Refresh Models. */
  const listStatus = async (): Promise<number> => {
    const before = (await admin.requests()).map((r) => r.id);
    await testHook('refreshModels', { quiet: true }).then(undefined, () => undefined);
    const list = (await admin.requests()).filter((r) => r.path === '/v1/models' && !before.includes(r.id));
    return list[list.length - 1]?.status ?? 0;
  };

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await testHook('switchKey', DEMO_KEY_NAME);
    await admin.setFaults(DEMO_KEY, { dialect: 'portkey' });
  });

  after(async () => {
    await admin.setFaults(DEMO_KEY, null).catch(() => undefined);
    await settings().update('requestHeaders', undefined, vscode.ConfigurationTarget.Global);
    await testHook('removeSecretHeader', { header: 'x-portkey-config' }).then(undefined, () => undefined);
  });

  it('without the header the list is refused (400); the user setting supplies it on every request', async () => {
    assert.strictEqual(await listStatus(), 400);
    await settings().update('requestHeaders', { 'x-portkey-provider': 'openai' }, vscode.ConfigurationTarget.Global);
    assert.strictEqual(await waitForValue('the list with the header', async () => (await listStatus()) === 200), true);
    const report = await testHook<Report>('checkConnection', { billable: false, show: false });
    const network = report.steps.find((s) => s.lines.some((l) => l.includes('x-portkey-provider')));
    assert.ok(network, JSON.stringify(report.steps.map((s) => s.lines)));
  });

  it('a workspace cannot set it (user settings only): VS Code refuses the write, or it is ignored', async function () {
    await settings().update('requestHeaders', undefined, vscode.ConfigurationTarget.Global);
    assert.strictEqual(
      await waitForValue('the list without the header', async () => (await listStatus()) === 400),
      true,
    );
    if (!vscode.workspace.workspaceFolders?.length) this.skip();
    const written = await settings()
      .update('requestHeaders', { 'x-portkey-provider': 'openai' }, vscode.ConfigurationTarget.Workspace)
      .then(
        () => true,
        () => false,
      );
    try {
      assert.strictEqual(await listStatus(), 400, 'a workspace value is never sent');
    } finally {
      if (written) await settings().update('requestHeaders', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('a secret header beside the key: sent, listed by name and fingerprint only, never in support info or the log', async () => {
    const stored = await testHook<{ name: string; fingerprint: string }>('setSecretHeader', {
      header: 'x-portkey-config',
      value: SECRET_CONFIG,
    });
    assert.strictEqual(stored.name, 'x-portkey-config');
    assert.match(stored.fingerprint, /^[0-9a-f]{8}$/);
    assert.strictEqual(
      await waitForValue('the list with the secret header', async () => (await listStatus()) === 200),
      true,
    );
    const listed = await testHook<Array<{ name: string; fingerprint: string }>>('listSecretHeaders');
    assert.deepStrictEqual(listed, [stored]);
    const support = await testHook<string>('copySupportInfo', 5);
    assert.match(support, /Request headers sent \(names only\): x-portkey-config \(secret\)/);
    assert.ok(!support.includes('tenant-secret-4c1d9e77'));
    const report = await testHook<Report>('checkConnection', { billable: false, show: false });
    const text = JSON.stringify(report);
    assert.match(text, /x-portkey-config \(secret\)/);
    assert.ok(!text.includes('tenant-secret-4c1d9e77'));
    assert.strictEqual(await testHook<boolean>('removeSecretHeader', { header: 'X-Portkey-Config' }), true);
    assert.strictEqual(await waitForValue('the list without it', async () => (await listStatus()) === 400), true);
  });

  it('a secret header named like the auth header is refused before it is stored', async () => {
    await assert.rejects(
      Promise.resolve(testHook('setSecretHeader', { header: 'Authorization', value: 'Bearer other-token-123' })),
      /auth header/,
    );
    assert.deepStrictEqual(await testHook('listSecretHeaders'), []);
  });
});
