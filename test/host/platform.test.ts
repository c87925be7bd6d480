// Platform inside the real extension host: env-seeded key, model list per key, key checks before saving,
// Check Connection against every error class of the emulator, support info, and no key on disk.
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Commands } from '../../src/shared/commands';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { EXTENSION_ID, testHook, DEMO_KEY_NAME } from '../support/hostTest';

const DEMO = 'mg-demo-key-0001';
const ALT = 'mg-alt-key-0005';
const ALL_KEYS = [DEMO, 'mg-chat-only-0002', 'mg-low-balance-0003', 'mg-revoked-0004', ALT];

interface Snapshot {
  keyFingerprint: string;
  baseUrl: string;
  models: { id: string; kind: 'chat' | 'image' }[];
}
interface Report {
  ok: boolean;
  steps: { title: string; status: string; lines: string[] }[];
}

const fingerprint = (secret: string): string => createHash('sha256').update(secret).digest('hex').slice(0, 8);
const refresh = (ifStale = false): Thenable<Snapshot | undefined> =>
  testHook<Snapshot | undefined>('refreshModels', { quiet: true, ifStale });
const check = (billable: boolean): Thenable<Report> => testHook<Report>('checkConnection', { billable, show: false });
const ids = (snapshot: Snapshot | undefined): string[] => (snapshot?.models ?? []).map((m) => m.id).sort();
const step = (report: Report, title: string) => report.steps.find((s) => s.title.startsWith(title));

describe('platform: keys, models and diagnostics in the extension host', function () {
  this.timeout(60_000);
  const admin = EmulatorAdmin.fromEnv();
  const settings = () => vscode.workspace.getConfiguration('modelGateway');
  let baseUrl: string | undefined;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    baseUrl = settings().get<string>('baseUrl');
  });

  after(async () => {
    await admin.setFaults(DEMO, null).catch(() => undefined);
    await settings().update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
    for (const name of ['alt-test', 'low-test']) await testHook('removeApiKey', name).then(undefined, () => undefined);
    await testHook('switchKey', DEMO_KEY_NAME).then(undefined, () => undefined);
  });

  it('registers the platform commands', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of [
      Commands.setApiKey,
      Commands.removeApiKey,
      Commands.switchKey,
      Commands.refreshModels,
      Commands.checkConnection,
      Commands.copySupportInfo,
      Commands.showLog,
      Commands.quickActions,
      Commands.openSettings,
    ]) {
      assert.ok(registered.has(id), id);
    }
  });

  it('seeds the key from MODEL_GATEWAY_API_KEY and lists the emulator models, classified', async () => {
    const snapshot = await refresh();
    assert.ok(snapshot, 'a model list');
    assert.strictEqual(snapshot.keyFingerprint, fingerprint(DEMO));
    assert.deepStrictEqual(ids(snapshot), [
      'claude-demo-haiku',
      'claude-demo-sonnet',
      'flux-demo-schnell',
      'gpt-image-demo',
    ]);
    const kinds = Object.fromEntries(snapshot.models.map((m) => [m.id, m.kind]));
    assert.deepStrictEqual(kinds, {
      'claude-demo-sonnet': 'chat',
      'claude-demo-haiku': 'chat',
      'gpt-image-demo': 'image',
      'flux-demo-schnell': 'image',
    });
  });

  it('does not save a key the gateway rejects (401)', async () => {
    const saved = await testHook('setApiKey', { name: 'revoked-test', secret: 'mg-revoked-0004' });
    assert.strictEqual(saved, undefined);
    await assert.rejects(Promise.resolve(testHook('switchKey', 'revoked-test')), /No stored key/);
  });

  it("saves a second key after checking it and lists that key's models", async () => {
    const saved = await testHook<{ name: string; fingerprint: string }>('setApiKey', { name: 'alt-test', secret: ALT });
    assert.deepStrictEqual(saved, { name: 'alt-test', fingerprint: fingerprint(ALT) });
    const snapshot = await refresh();
    assert.strictEqual(snapshot?.keyFingerprint, fingerprint(ALT));
    assert.deepStrictEqual(ids(snapshot), ['claude-alt-opus', 'flux-demo-schnell']);
  });

  it('switches back to the first key and serves its cached list without a request (cache per key)', async () => {
    const listCalls = async () => (await admin.requests()).filter((r) => r.path.startsWith('/v1/models')).length;
    const before = await listCalls();
    await testHook('switchKey', DEMO_KEY_NAME);
    const snapshot = await refresh(true);
    assert.strictEqual(snapshot?.keyFingerprint, fingerprint(DEMO));
    assert.deepStrictEqual(ids(snapshot), [
      'claude-demo-haiku',
      'claude-demo-sonnet',
      'flux-demo-schnell',
      'gpt-image-demo',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.strictEqual(await listCalls(), before, 'no GET /v1/models for a key whose list is cached');
  });

  it('removes a key', async () => {
    assert.strictEqual(await testHook('removeApiKey', 'alt-test'), true);
    await assert.rejects(Promise.resolve(testHook('switchKey', 'alt-test')), /No stored key/);
  });

  it('Check Connection passes every step and sends the billable request only when allowed', async () => {
    const billable = async () => (await admin.requests()).filter((r) => r.path === '/v1/messages' && r.billable).length;
    const start = await billable();
    const withoutMessages = await check(false);
    assert.ok(withoutMessages.ok, JSON.stringify(withoutMessages.steps));
    assert.strictEqual(step(withoutMessages, 'Messages route')?.status, 'skipped');
    assert.strictEqual(await billable(), start, 'no billable request without consent');
    const full = await check(true);
    assert.ok(full.ok, JSON.stringify(full.steps));
    assert.match(step(full, 'Models listed')?.lines[0] ?? '', /4 models: 2 chat, 2 image/);
    assert.strictEqual(step(full, 'Version header accepted')?.status, 'ok');
    assert.strictEqual(await billable(), start + 1, 'exactly one 1-token request');
  });

  it('Check Connection explains a low balance (403) on the Messages route', async () => {
    await testHook('setApiKey', { name: 'low-test', secret: 'mg-low-balance-0003' });
    const report = await check(true);
    assert.strictEqual(report.ok, false);
    const messages = step(report, 'Messages route');
    assert.strictEqual(messages?.status, 'fail');
    assert.match(messages?.lines.join(' ') ?? '', /403/);
    assert.match(messages?.lines.join(' ') ?? '', /balance/i);
    await testHook('removeApiKey', 'low-test');
    await testHook('switchKey', DEMO_KEY_NAME);
  });

  it('Check Connection explains 429 with Retry-After', async () => {
    await admin.setFaults(DEMO, { status: 429, count: 10, retryAfter: 120 });
    try {
      const report = await check(false);
      assert.strictEqual(report.ok, false);
      assert.match(JSON.stringify(report.steps), /429/);
    } finally {
      await admin.setFaults(DEMO, null);
    }
  });

  it('normalises a pasted endpoint URL and explains a wrong base URL (404)', async () => {
    await settings().update('baseUrl', `${baseUrl}/v1/messages`, vscode.ConfigurationTarget.Global);
    const normalised = await check(false);
    assert.ok(normalised.ok, JSON.stringify(normalised.steps));
    assert.match(step(normalised, 'Base URL')?.lines.join(' ') ?? '', /normalised/);
    assert.match(
      step(normalised, 'Base URL')?.lines.join(' ') ?? '',
      new RegExp(`Used \\(site root\\): ${baseUrl?.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
    );
    await settings().update('baseUrl', `${baseUrl}/not-the-gateway`, vscode.ConfigurationTarget.Global);
    const wrong = await check(false);
    assert.strictEqual(wrong.ok, false);
    assert.match(JSON.stringify(wrong.steps), /404/);
    assert.match(JSON.stringify(wrong.steps), /base URL/);
    await settings().update('baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
  });

  it('Copy Support Info copies only timestamp, route, model, status and request id', async () => {
    const text = await testHook<string>('copySupportInfo', 10);
    // A browser-hosted workbench may keep the clipboard waiting for focus; compare when it answers.
    const clipboard = await Promise.race([
      Promise.resolve(vscode.env.clipboard.readText()),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000)),
    ]);
    if (clipboard !== undefined && clipboard !== '') assert.strictEqual(clipboard, text);
    const lines = text.split('\n').slice(1);
    assert.ok(lines.length > 0);
    for (const line of lines) {
      const fields = line.split('\t');
      assert.strictEqual(fields.length, 5, line);
      assert.match(fields[0], /^\d{4}-\d{2}-\d{2}T/);
      assert.match(fields[1], /^(GET|POST) \/v1\//);
    }
    for (const key of ALL_KEYS) assert.ok(!text.includes(key));
  });

  it('never writes a key into settings, globalState or the log files', async function () {
    const workspace = process.env.MG_WORKSPACE;
    const userDir = workspace ? path.join(path.dirname(workspace), 'user') : '';
    if (!userDir || !fs.existsSync(userDir)) this.skip();
    await new Promise((resolve) => setTimeout(resolve, 1500)); // let the log and state writers flush
    const files = [
      path.join(userDir, 'User', 'settings.json'),
      ...walk(path.join(userDir, 'logs')),
      ...globalStateFiles(userDir),
    ];
    const found: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'latin1');
      for (const key of ALL_KEYS)
        if (text.includes(key)) found.push(`${path.relative(userDir, file)} contains ${key.slice(0, 6)}…`);
    }
    assert.deepStrictEqual(found, []);
    assert.ok(
      files.some((file) => /Model Gateway/.test(path.basename(file))),
      `the log channel file is among ${files.length} scanned files`,
    );
  });
});

function walk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

/** globalState lives in state.vscdb (SQLite); secrets do not (they are in the secret store). */
function globalStateFiles(userDir: string): string[] {
  return walk(path.join(userDir, 'User', 'globalStorage')).filter((file) => /state\.vscdb/.test(path.basename(file)));
}
