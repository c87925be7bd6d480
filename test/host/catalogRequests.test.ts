// Request storms: no setting value, event order or error may make the extension fetch the model list in
// a loop. Each profile sets edge values, runs the real commands (Refresh Models, opening the chat view and
// the image panel) and counts GET /v1/models in the emulator's request log for a few seconds after.
// Before the fix, cacheMinutes 0 turned one Refresh Models into thousands of requests (fetch → change
// event → the chat view re-reads → stale → fetch ...).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { Commands, Views } from '../../src/shared/commands';
import { EmulatorAdmin, type AdminFaults } from '../support/emulatorAdmin';
import { AUTO_FETCH_INTERVAL_TEST_ENV } from '../../src/catalog/catalog';
import { closeEditorsWithoutSaving, sleep, testHook, EXTENSION_ID } from '../support/hostTest';

const DEMO = 'mg-demo-key-0001';
/**
 * Long enough for a loop to show (it ran at 21-160 requests per second: 30 or more here, where at most 3 pass),
 * short enough for 9 profiles. The background case below shortens the catalog's own interval (10 s) to 0.2 s.
 */
const SETTLE_MS = 1_500;
const KEYS = ['models.cacheMinutes', 'models.declared', 'requestTimeoutSeconds', 'baseUrl'] as const;

type Key = (typeof KEYS)[number];
interface Profile {
  name: string;
  settings: Partial<Record<Key, unknown>>;
  faults?: AdminFaults;
  /** Most GET /v1/models one Refresh Models (+ opening the views) may cause. */
  perAction: number;
}

const HUGE_DECLARED = Array.from({ length: 5_000 }, (_, i) => `declared-model-${i}`);

describe('catalog: bounded GET /v1/models for every edge setting (real commands, emulator request log)', function () {
  this.timeout(240_000);
  const admin = EmulatorAdmin.fromEnv();
  const settings = () => vscode.workspace.getConfiguration('modelGateway');
  const original = new Map<Key, unknown>();
  let baseUrl = '';

  /** GET /v1/models logged since `since` (ISO time), any key. */
  const listCalls = async (since: string): Promise<number> =>
    (await admin.requests()).filter((r) => r.time >= since && r.method === 'GET' && r.path.startsWith('/v1/models'))
      .length;

  /**
   * Runs `action`, waits until at least `atLeast` GET /v1/models of it are logged (a command may return before its
   * fetch is), then SETTLE_MS for any more; returns the GET /v1/models it caused.
   */
  const countDuring = async (action: () => Promise<unknown>, atLeast = 0): Promise<number> => {
    const since = new Date().toISOString();
    await action();
    for (const end = Date.now() + 30_000; (await listCalls(since)) < atLeast && Date.now() < end;) await sleep(100);
    await sleep(SETTLE_MS);
    return listCalls(since);
  };

  const apply = async (values: Partial<Record<Key, unknown>>): Promise<void> => {
    for (const key of KEYS) {
      const value = key === 'baseUrl' ? (key in values ? values[key] : baseUrl) : values[key];
      await settings().update(key, value, vscode.ConfigurationTarget.Global);
    }
  };

  /** One user action: Refresh Models, then the two views that show the list. */
  const userAction = async (): Promise<void> => {
    await testHook('refreshModels', { quiet: true }).then(undefined, () => undefined);
    await vscode.commands.executeCommand(`${Views.chat}.focus`).then(undefined, () => undefined);
    await vscode.commands.executeCommand(Commands.openImagePanel).then(undefined, () => undefined);
  };

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    for (const key of KEYS) original.set(key, settings().inspect(key)?.globalValue);
    baseUrl = String(settings().get('baseUrl') ?? '');
    assert.ok(baseUrl, 'the harness points modelGateway.baseUrl at the emulator');
  });

  after(async () => {
    await admin.setFaults(DEMO, null).catch(() => undefined);
    for (const key of KEYS) await settings().update(key, original.get(key), vscode.ConfigurationTarget.Global);
    await closeEditorsWithoutSaving();
  });

  const profiles: Profile[] = [
    {
      name: 'cacheMinutes 0, nothing declared, timeout 0 (invalid)',
      settings: { 'models.cacheMinutes': 0, 'models.declared': [], requestTimeoutSeconds: 0 },
      perAction: 1,
    },
    {
      name: 'cacheMinutes unset, 5 000 declared ids, timeout 3600',
      settings: { 'models.declared': HUGE_DECLARED, requestTimeoutSeconds: 3600 },
      perAction: 1,
    },
    {
      name: 'cacheMinutes huge (10080), timeout 5',
      settings: { 'models.cacheMinutes': 10080, requestTimeoutSeconds: 5 },
      perAction: 1,
    },
    { name: 'cacheMinutes invalid (-5)', settings: { 'models.cacheMinutes': -5 }, perAction: 1 },
    {
      name: 'cacheMinutes 0, no list route (404), nothing declared',
      settings: { 'models.cacheMinutes': 0, 'models.declared': [] },
      faults: { noModelList: true },
      perAction: 1,
    },
    {
      name: 'cacheMinutes 0, no list route (404), two declared',
      settings: { 'models.cacheMinutes': 0, 'models.declared': ['claude-demo-haiku', 'gpt-image-demo'] },
      faults: { noModelList: true },
      perAction: 1,
    },
    // GET /v1/models is retried after a 5xx (2 retries): 3 per action at most, never more.
    {
      name: 'cacheMinutes 0, gateway answers 500',
      settings: { 'models.cacheMinutes': 0 },
      faults: { status: 500 },
      perAction: 3,
    },
    { name: 'base URL empty', settings: { 'models.cacheMinutes': 0, baseUrl: '' }, perAction: 0 },
  ];

  for (const profile of profiles) {
    it(`${profile.name}: the settings change and one user action stay bounded`, async () => {
      await admin.setFaults(DEMO, profile.faults ?? null);
      // A settings change may fetch once when it changes the base URL (back); never more.
      const onChange = await countDuring(() => apply(profile.settings));
      assert.ok(
        onChange <= 1 + (profile.perAction > 1 ? 2 : 0),
        `${onChange} GET /v1/models after changing the settings`,
      );
      const fetches = profile.perAction > 0 && !profile.faults?.status;
      const perAction = await countDuring(userAction, fetches ? 1 : 0);
      assert.ok(
        perAction <= profile.perAction,
        `${perAction} GET /v1/models after one Refresh Models (at most ${profile.perAction})`,
      );
      if (fetches) assert.ok(perAction >= 1, 'Refresh Models fetched');
    });
  }

  it('cacheMinutes 0: after one Refresh Models nothing more is fetched in the background', async () => {
    await admin.setFaults(DEMO, null);
    await apply({ 'models.cacheMinutes': 0 });
    await sleep(SETTLE_MS);
    const since = new Date().toISOString();
    // Under the real 10 s interval: the views opened here read the list this Refresh Models fetched.
    await userAction();
    await sleep(SETTLE_MS);
    // Then automatic fetches may start every 200 ms instead of every 10 s, and cacheMinutes 0 makes the list stale
    // at once: any timer, poll or event loop that reads it would fetch several times in this window.
    process.env[AUTO_FETCH_INTERVAL_TEST_ENV] = '200';
    try {
      const quiet = new Date().toISOString();
      await sleep(SETTLE_MS);
      const background = await listCalls(quiet);
      assert.strictEqual(
        background,
        0,
        `${background} GET /v1/models in the background (automatic fetches every 0.2 s)`,
      );
      const total = await listCalls(since);
      assert.strictEqual(total, 1, `${total} GET /v1/models for one Refresh Models`);
      // The control: a reader of the stale list now does fetch (else the shortened interval was not in effect and
      // the window proved nothing). The hook resolves after its fetch.
      const controlSince = new Date().toISOString();
      await testHook('refreshModels', { quiet: true, ifStale: true });
      const control = await listCalls(controlSince);
      assert.strictEqual(control, 1, `${control} GET /v1/models for one automatic read of the stale list`);
    } finally {
      delete process.env[AUTO_FETCH_INTERVAL_TEST_ENV];
    }
  });

  it('cacheMinutes 0: ten Refresh Models in a row send at most ten requests, and views opened meanwhile add none', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 10; i++) await userAction();
    await sleep(SETTLE_MS);
    const calls = await listCalls(since);
    assert.ok(calls >= 1 && calls <= 10, `${calls} GET /v1/models for ten Refresh Models`);
  });
});
