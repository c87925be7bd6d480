// The @gateway participant inside a real VS Code (1.104+: the chat view needs a selectable model, and the
// gateway's own models are the only ones here): requests typed into the Chat view reach the gateway.
// Observed from outside, as a user would: the emulator's request log and the files saved in the workspace.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { DEMO_KEY, EXTENSION_ID, waitForValue } from '../support/hostTest';

/** What this file waits for takes longer: 30 s unless a test says otherwise. */
const poll = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000) =>
  waitForValue(what, probe, timeoutMs);

/** Types a request into a new chat in the Chat view, with a gateway model selected. */
async function askInChatView(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    query,
    modelSelector: { vendor: 'model-gateway', id: 'claude-demo-haiku' },
  });
}

describe('lm: @gateway participant in the Chat view', function () {
  this.timeout(90_000);
  let admin: EmulatorAdmin;

  before(async function () {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    if (
      typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider !==
      'function'
    ) {
      console.log(
        `[lm] skipped: VS Code ${vscode.version} cannot select a gateway model in its chat view (needs 1.104+)`,
      );
      this.skip();
    }
    if (!process.env.MG_EMULATOR_URL) this.skip();
    admin = EmulatorAdmin.fromEnv();
    // The chat view can only send once a model is resolved.
    await poll('gateway models', async () =>
      (await vscode.lm.selectChatModels({ vendor: 'model-gateway' })).length > 0 ? true : undefined,
    );
  });

  afterEach(async () => {
    await admin?.setFaults(DEMO_KEY, null);
  });

  it('answers a plain question with a streamed /v1/messages request', async () => {
    const before = new Set((await admin.requests()).map((r) => r.id));
    await askInChatView(`@gateway Quote: participant-${Date.now()}`);
    const entry = await poll('/v1/messages from @gateway', async () =>
      (await admin.requests()).find((r) => !before.has(r.id) && r.path.startsWith('/v1/messages') && r.status === 200),
    );
    assert.strictEqual(entry.stream, true);
    assert.strictEqual(entry.model, 'claude-demo-haiku');
  });

  it('/image runs an async image task and saves the image into the workspace', async function () {
    // The images suite ends with a 429 whose Retry-After (61 s) the image queue honours: allow for it.
    this.timeout(180_000);
    await admin.setFaults(DEMO_KEY, { taskDurationMs: 300 });
    const pngsBefore = new Set((await vscode.workspace.findFiles('**/*.png')).map((u) => u.toString()));
    const before = new Set((await admin.requests()).map((r) => r.id));
    await askInChatView(`@gateway /image a red square ${Date.now()}`);
    const submit = await poll(
      'the async image submission',
      async () =>
        (await admin.requests()).find((r) => !before.has(r.id) && r.path.startsWith('/v1/images/generations/async')),
      100_000,
    );
    assert.strictEqual(submit.status, 202);
    const saved = await poll(
      'a new PNG in the workspace',
      async () => (await vscode.workspace.findFiles('**/*.png')).find((u) => !pngsBefore.has(u.toString())),
      45_000,
    );
    const bytes = await vscode.workspace.fs.readFile(saved);
    assert.deepStrictEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  });
});
