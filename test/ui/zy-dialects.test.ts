// A gateway without /v1/messages (the emulator's one-api dialect) in the real workbench, touching no setting: a
// question in the chat and an Agent turn with a tool call both complete over /v1/chat/completions; /v1/messages is
// refused once (404, before auth, not billable), the choice is remembered, and no billable request is ever sent
// twice. Named zy- so that it runs after the suites that expect Messages from the demo key: what it teaches the
// extension stays in this profile's global state (the canary, zz-, uses a key of its own).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { chatViewSuite } from '../support/chatView';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { workspaceDir } from '../support/env';

const KEY = 'mg-demo-key-0001';

describe('dialects (UI): a one-api gateway', function () {
  this.timeout(300_000);
  const admin = EmulatorAdmin.fromEnv();
  const ui = chatViewSuite({
    admin,
    key: KEY,
    prepare: () => fs.writeFileSync(path.join(workspaceDir(), 'NOTES.md'), '# Notes\n\nOne-api dialect check.\n'),
  });
  before(async () => admin.setDialect('one-api'));
  after(async () => admin.setDialect(null).catch(() => undefined));

  const posts = async (before: Set<string>): Promise<AdminRequestEntry[]> =>
    (await admin.requests()).filter((r) => !before.has(r.id) && r.method === 'POST');
  const ids = async (): Promise<Set<string>> => new Set((await admin.requests()).map((r) => r.id));

  it('a question in the chat is answered over chat-completions; /v1/messages refused once, nothing billed twice', async () => {
    const before = await ids();
    const marker = `one-api-${Date.now()}`;
    await ui.view.send(`Hello over ${marker}`);
    await ui.view.finished();
    assert.match(await ui.view.lastAnswer().locator('.body').innerText(), new RegExp(marker));
    const sent = await posts(before);
    const billable = sent.filter((r) => r.billable).map((r) => `${r.path} ${r.status}`);
    assert.deepEqual(billable, ['/v1/chat/completions 200'], JSON.stringify(sent.map((r) => `${r.path} ${r.status}`)));
    // The refusal (if this profile had not learned it yet) was the only other request, and it was not billable.
    assert.ok(sent.every((r) => r.billable || (r.path === '/v1/messages' && r.status === 404)));
  });

  it('an Agent turn with a tool call completes over tool_calls, one billable request per step', async () => {
    await ui.view.newAgentChat();
    const before = await ids();
    await ui.view.send('Read the notes.\n@tool read_file {"path":"NOTES.md"}\n@after-result-say Notes read.');
    await ui.view.finished();
    const card = ui.view.lastAnswer().locator('.tool-card', { hasText: 'read_file' }).last();
    await card.and(ui.view.frame.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    const sent = await posts(before);
    assert.deepEqual(
      sent.map((r) => `${r.path} ${r.status}`),
      ['/v1/chat/completions 200', '/v1/chat/completions 200'],
      'the learned dialect: no refusal again, one request per step, none repeated',
    );
  });
});
