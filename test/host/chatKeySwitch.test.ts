// Gateway: Switch Key with a model chosen in the chat composer (issue 45): the new key's list does not name it, so
// the composer falls back to what a first start picks from that list, and the next question goes out on that model,
// never on the one the key does not list (which the gateway answers 403). Through the real key store, catalog and
// chat session; the emulator's request log says which model each request named.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { EXTENSION_ID, testHook } from '../support/hostTest';

// The emulator's chat-only key lists claude-demo-sonnet and claude-demo-haiku; its alt key neither (claude-alt-opus).
const FIRST = { name: 'chat-switch-first', secret: 'mg-chat-only-0002' };
const SECOND = { name: 'chat-switch-second', secret: 'mg-alt-key-0005' };

describe('chat: Switch Key to a key whose list does not name the composer model', function () {
  this.timeout(90_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;

  before(async function () {
    if (!admin) this.skip();
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await testHook('setApiKey', SECOND);
    await testHook('setApiKey', FIRST);
  });

  after(async () => {
    for (const key of [FIRST, SECOND]) await testHook('removeApiKey', key.name).then(undefined, () => undefined);
  });

  it('the next question goes out on a model the new key lists, not on the one it does not', async () => {
    await testHook('switchKey', FIRST.name);
    await testHook('refreshModels', { quiet: true });
    assert.strictEqual(await testHook<string>('chatChooseModel', 'claude-demo-haiku'), 'claude-demo-haiku');
    const before = new Set((await admin!.requests()).map((r) => r.id));
    await testHook('switchKey', SECOND.name);
    // The new key's list arrives (the switch fetches it; a Refresh Models is the user's other way to the same list).
    assert.ok(await testHook('refreshModels', { quiet: true }), 'the second key has a list');
    const asked = await testHook<{ model: string; status: string; error?: string }>('chatAsk', 'Hello after switch');
    const sent = (await admin!.requests()).filter((r) => !before.has(r.id) && r.method === 'POST');
    assert.deepStrictEqual(
      sent.map((r) => `${r.keyName} ${r.model} ${r.status}`),
      ['alt claude-alt-opus 200'],
      JSON.stringify(asked),
    );
    assert.deepStrictEqual(asked, { model: 'claude-alt-opus', status: 'complete', error: undefined });
  });
});
