// The demo's Responses model with the demo key as `npm start` serves it (issue 45, item 1), in a real VS Code through
// the extension's own client, dialect source and model provider: on a gateway whose list gives no hint (sub2api),
// gpt-demo-codex's 400 "is a responses model: it is not served on /v1/messages" moves the question to /v1/responses
// once, and the next question goes there directly (remembered in the learned-dialect store); on the emulator's own
// list (which names its endpoint types) it goes there at once. Needs the language-model provider API (1.104+).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { EXTENSION_ID, testHook, waitForValue } from '../support/hostTest';

const VENDOR = 'model-gateway';
const MODEL = 'gpt-demo-codex';
const KEY_NAME = 'codex-demo-start';

const hasProviderApi = (): boolean =>
  typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider ===
  'function';

describe("the demo's Responses model (gpt-demo-codex) with npm start's demo key", function () {
  this.timeout(90_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;

  before(async function () {
    if (!hasProviderApi() || !admin) {
      console.log(`[codex] skipped: ${admin ? `VS Code ${vscode.version} has no provider API` : 'no emulator'}`);
      this.skip();
    }
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await testHook('setApiKey', { name: KEY_NAME, secret: 'mg-demo-start-0012' });
    await testHook('forgetLearnedDialects');
  });

  after(async () => {
    await admin?.setDialect(null).catch(() => undefined);
    if (admin) {
      await testHook('forgetLearnedDialects').then(undefined, () => undefined);
      await testHook('removeApiKey', KEY_NAME).then(undefined, () => undefined);
    }
  });

  const since = async (): Promise<Set<string>> => new Set((await admin!.requests()).map((r) => r.id));
  const posts = async (before: Set<string>): Promise<string[]> =>
    (await admin!.requests())
      .filter((r: AdminRequestEntry) => !before.has(r.id) && r.method === 'POST')
      .map((r) => `${r.path} ${r.status}`);
  const ask = async (prompt: string): Promise<string> => {
    const model = await waitForValue('gpt-demo-codex in vscode.lm', async () => {
      await testHook('refreshModels', { quiet: true, ifStale: true });
      const [m] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: MODEL });
      return m;
    });
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const chunk of response.text) text += chunk;
    return text;
  };

  it("the emulator's own list names Responses: the question goes to /v1/responses at once", async () => {
    await testHook('refreshModels', { quiet: true });
    const before = await since();
    const text = await ask(`Quote me, codex: ${Date.now()}`);
    assert.ok(text.length > 0);
    assert.deepStrictEqual(await posts(before), ['/v1/responses 200']);
  });

  it('a list without hints (sub2api): the 400 on /v1/messages moves it to Responses once, then it goes there', async () => {
    await testHook('forgetLearnedDialects');
    await admin!.setDialect('sub2api');
    await testHook('refreshModels', { quiet: true });
    const first = await since();
    assert.ok((await ask(`First over sub2api: ${Date.now()}`)).length > 0);
    assert.deepStrictEqual(await posts(first), ['/v1/messages 400', '/v1/responses 200']);
    const second = await since();
    assert.ok((await ask(`Second over sub2api: ${Date.now()}`)).length > 0);
    assert.deepStrictEqual(await posts(second), ['/v1/responses 200']);
  });
});
