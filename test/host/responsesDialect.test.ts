// The Responses dialect in a real VS Code, through the extension's own client (its gateway access, settings and
// model provider): with modelGateway.models.dialects naming `responses` for a model, a question to it in VS Code's
// chat models is answered over POST /v1/responses, one billable request, nothing on the other routes.
// Needs the language-model provider API (1.104+).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { EXTENSION_ID, waitForValue } from '../support/hostTest';

const VENDOR = 'model-gateway';
const MODEL = 'claude-demo-sonnet';

const hasProviderApi = (): boolean =>
  typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider ===
  'function';

describe('dialects: a model set to Responses through the extension', function () {
  this.timeout(90_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;
  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('modelGateway');

  before(async function () {
    if (!hasProviderApi() || !admin) {
      console.log(`[responses] skipped: ${admin ? `VS Code ${vscode.version} has no provider API` : 'no emulator'}`);
      this.skip();
    }
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await settings().update('models.dialects', { [MODEL]: 'responses' }, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await settings().update('models.dialects', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a question to the model is answered over POST /v1/responses, one billable request', async () => {
    const before = new Set((await admin!.requests()).map((r) => r.id));
    const prompt = `Quote me over Responses: ${Date.now()}`;
    const [model] = await waitForValue('the gateway model in vscode.lm', async () => {
      const found = await vscode.lm.selectChatModels({ vendor: VENDOR, id: MODEL });
      return found.length ? found : undefined;
    });
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const chunk of response.text) text += chunk;
    assert.ok(text.includes(prompt), text.slice(0, 300));
    const posts: AdminRequestEntry[] = (await admin!.requests()).filter(
      (r) => !before.has(r.id) && r.method === 'POST',
    );
    assert.deepStrictEqual(
      posts.map((r) => `${r.path} ${r.status}`),
      ['/v1/responses 200'],
    );
    assert.deepStrictEqual(
      posts.filter((r) => r.billable).map((r) => r.path),
      ['/v1/responses'],
    );
  });
});
