// The balance probe per user action, in a real extension host against the emulator: Check Connection shows the
// demo key's balance (the emulator answers new-api's billing routes), and no setting makes it probe more than one
// sequence per action: the route that answered is remembered for 5 minutes, and a base URL without any billing
// route is asked once and never again. Counted in the emulator's request log.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ConnectionReport } from '../../src/diagnostics/report';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { EXTENSION_ID, sleep, testHook } from '../support/hostTest';

const BILLING = /^\/(v1\/)?(dashboard\/billing\/|key(\/info)?$)|^\/.+\/(v1\/)?(dashboard\/billing\/|key(\/info)?$)/;
const SETTLE_MS = 1_000;

describe('balance: one probe sequence per user action at most (Check Connection, emulator request log)', function () {
  this.timeout(120_000);
  const admin = EmulatorAdmin.fromEnv();
  const settings = () => vscode.workspace.getConfiguration('modelGateway');
  let baseUrl = '';

  const billingCalls = async (since: string): Promise<string[]> =>
    (await admin.requests())
      .filter((r) => r.time >= since && r.method === 'GET' && BILLING.test(r.path))
      .map((r) => r.path);

  const check = (): Thenable<ConnectionReport> =>
    testHook<ConnectionReport>('checkConnection', { show: false, billable: false });

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    baseUrl = String(settings().inspect('baseUrl')?.globalValue ?? settings().get('baseUrl') ?? '');
    assert.ok(baseUrl, 'the harness points modelGateway.baseUrl at the emulator');
  });

  after(async () => {
    await settings().update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
  });

  it('Check Connection reads the balance fresh: each check asks the billing routes once, never more', async () => {
    const since = new Date().toISOString();
    const report = await check();
    const step = report.steps.find((s) => s.id === 'balance');
    assert.ok(step, `a balance step: ${JSON.stringify(report.steps.map((s) => s.title))}`);
    assert.match(step.lines.join('\n'), /left of 100|left of \d/);
    assert.match(step.lines.join('\n'), /GET \/dashboard\/billing\/subscription/);
    await sleep(SETTLE_MS);
    // The report says its figures were read from the route, so the check reads them (issue 35: a cached figure was
    // shown as read): one probe sequence per check, the user's own action, and nothing else.
    const first = await billingCalls(since);
    assert.deepEqual(first, ['/dashboard/billing/subscription', '/dashboard/billing/usage']);
    const again = new Date().toISOString();
    for (let i = 0; i < 3; i++) await check();
    await sleep(SETTLE_MS);
    const calls = await billingCalls(again);
    assert.equal(calls.filter((c) => c === '/dashboard/billing/subscription').length, 3, calls.join(', '));
    assert.ok(calls.length <= 6, `${calls.length} billing GETs for 3 checks: ${calls.join(', ')}`);
  });

  it('a base URL with no billing route: each route asked once, then never again; no step, no error', async () => {
    // A path prefix the emulator does not serve: every route is a 404 (models too, so Check Connection stops
    // before the balance); the balance is read by opening Quick Actions' data path instead, through the test hook.
    await settings().update('baseUrl', `${baseUrl}/no-billing-here`, vscode.ConfigurationTarget.Global);
    await sleep(300);
    const since = new Date().toISOString();
    for (let i = 0; i < 5; i++) await testHook('readBalance');
    await sleep(SETTLE_MS);
    const calls = await billingCalls(since);
    assert.ok(calls.length <= 4, `${calls.length} billing GETs: ${calls.join(', ')}`);
    assert.equal(new Set(calls).size, calls.length, `a route asked twice: ${calls.join(', ')}`);
    assert.equal(await testHook('readBalance'), undefined);
  });
});
