// The Responses dialect in the real workbench: with modelGateway.models.dialects naming `responses` for the demo
// key's chat models (set in the user's settings.json through its editor, in the window the suites share), a question in the chat
// and an Agent turn with a tool call both complete over POST /v1/responses, one billable request per step. Named
// zy- to run after the suites that expect Messages from the demo key; the settings are put back afterwards (the
// suite's hooks, chatViewSuite).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { chatViewSuite, userSettingsFile, writeUserSettings } from '../support/chatView';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { workspaceDir } from '../support/env';

const KEY = 'mg-demo-key-0001';
const SETTING = 'modelGateway.models.dialects';
const MODELS = ['claude-demo-sonnet', 'claude-demo-haiku', 'claude-demo-agent'];

describe('dialects (UI): models set to Responses', function () {
  this.timeout(300_000);
  const admin = EmulatorAdmin.fromEnv();
  const ui = chatViewSuite({
    admin,
    key: KEY,
    prepare: () => fs.writeFileSync(path.join(workspaceDir(), 'NOTES.md'), '# Notes\n\nResponses dialect check.\n'),
  });
  // After the suite's own hooks took the window: the extension reads the dialects setting as it changes.
  before(async () => {
    const settings = JSON.parse(fs.readFileSync(userSettingsFile(), 'utf8') || '{}') as Record<string, unknown>;
    settings[SETTING] = Object.fromEntries(MODELS.map((m) => [m, 'responses']));
    await writeUserSettings(ui.wb, ui.view, JSON.stringify(settings, null, 2));
  });

  const posts = async (before: Set<string>): Promise<AdminRequestEntry[]> =>
    (await admin.requests()).filter((r) => !before.has(r.id) && r.method === 'POST');
  const ids = async (): Promise<Set<string>> => new Set((await admin.requests()).map((r) => r.id));

  it('a question in the chat is answered over POST /v1/responses, one billable request', async () => {
    const before = await ids();
    const marker = `responses-${Date.now()}`;
    await ui.view.send(`Hello over ${marker}`);
    await ui.view.finished();
    assert.match(await ui.view.lastAnswer().locator('.body').innerText(), new RegExp(marker));
    const sent = await posts(before);
    assert.deepEqual(
      sent.map((r) => `${r.path} ${r.status}`),
      ['/v1/responses 200'],
    );
  });

  it('an Agent turn with a tool call completes over function calls, one billable request per step', async () => {
    await ui.view.newAgentChat();
    const before = await ids();
    await ui.view.send('Read the notes.\n@tool read_file {"path":"NOTES.md"}\n@after-result-say Notes read.');
    await ui.view.finished();
    const card = ui.view.lastAnswer().locator('.tool-card', { hasText: 'read_file' }).last();
    await card.and(ui.view.frame.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    const sent = await posts(before);
    assert.deepEqual(
      sent.map((r) => `${r.path} ${r.status}`),
      ['/v1/responses 200', '/v1/responses 200'],
    );
    assert.ok(sent.every((r) => r.billable));
  });
});
