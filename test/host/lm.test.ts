// Native chat inside a real VS Code: the provider's models through vscode.lm, a streamed answer from the
// emulator, cancellation seen by the emulator, errors as LanguageModelErrors. On a VS Code without the
// provider API (1.100) the suite checks that the extension still activates and that no models are offered.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Commands } from '../../src/shared/commands';
import { MAX_CALIBRATION, MIN_CALIBRATION, textTokens } from '../../src/shared/tokenEstimate';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { DEMO_KEY, EXTENSION_ID, testHook, waitForValue, DEMO_KEY_NAME } from '../support/hostTest';

const VENDOR = 'model-gateway';

const hasProviderApi = (): boolean =>
  typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider ===
  'function';

function logFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return logFiles(full);
    return entry.name === 'Model Gateway.log' ? [full] : [];
  });
}

async function gatewayModels(): Promise<vscode.LanguageModelChat[]> {
  return waitForValue('gateway models in vscode.lm', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: VENDOR });
    return models.length > 0 ? models : undefined;
  });
}

async function collectText(response: vscode.LanguageModelChatResponse): Promise<string> {
  let text = '';
  for await (const chunk of response.text) text += chunk;
  return text;
}

async function newMessagesEntries(admin: EmulatorAdmin, before: Set<string>): Promise<AdminRequestEntry[]> {
  return (await admin.requests()).filter((r) => !before.has(r.id) && r.path.startsWith('/v1/messages'));
}

describe('lm: gateway models in VS Code chat', function () {
  this.timeout(60_000);
  let admin: EmulatorAdmin | undefined;

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    if (process.env.MG_EMULATOR_URL) admin = EmulatorAdmin.fromEnv();
  });

  afterEach(async () => {
    await admin?.setFaults(DEMO_KEY, null);
  });

  it('activates and registers the management command on every VS Code version', async () => {
    assert.strictEqual(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    const commands = new Set(await vscode.commands.getCommands(true));
    assert.ok(commands.has(Commands.manageLanguageModels));
  });

  it('offers no models and throws nothing where the provider API is missing (VS Code < 1.104)', async function () {
    if (hasProviderApi()) this.skip(); // covered by the tests below on this version
    console.log(
      `[lm] VS Code ${vscode.version}: native chat models unavailable (no vscode.lm.registerLanguageModelChatProvider), as expected`,
    );
    assert.deepStrictEqual(await vscode.lm.selectChatModels({ vendor: VENDOR }), []);
  });

  it('reports the feature as unavailable in its log where the provider API is missing', async function () {
    if (hasProviderApi()) this.skip();
    // The harness puts the user data dir next to the workspace (as the platform suite also relies on).
    const workspace = process.env.MG_WORKSPACE;
    const logs = workspace ? path.join(path.dirname(workspace), 'user', 'logs') : '';
    if (!logs || !fs.existsSync(logs)) this.skip();
    const expected = `Native chat models unavailable: VS Code ${vscode.version}`;
    await waitForValue(
      'the unavailability line in the Model Gateway log',
      async () => (logFiles(logs).some((file) => fs.readFileSync(file, 'utf8').includes(expected)) ? true : undefined),
      10_000,
    );
  });

  describe('with the provider API (VS Code 1.104+)', () => {
    before(function () {
      if (!hasProviderApi()) {
        console.log(
          `[lm] skipped: VS Code ${vscode.version} has no vscode.lm.registerLanguageModelChatProvider (needs 1.104+)`,
        );
        this.skip();
      }
      if (!admin) {
        console.log('[lm] skipped: no emulator (MG_EMULATOR_URL unset)');
        this.skip();
      }
    });

    it('lists the chat models of the demo key, and no image models', async () => {
      const models = await gatewayModels();
      const ids = models.map((m) => m.id).sort();
      assert.deepStrictEqual(ids, ['claude-demo-haiku', 'claude-demo-sonnet']);
      const sonnet = models.find((m) => m.id === 'claude-demo-sonnet')!;
      assert.strictEqual(sonnet.vendor, VENDOR);
      assert.strictEqual(sonnet.family, 'claude-demo-sonnet');
      assert.ok(sonnet.maxInputTokens > 0);
    });

    it('streams the emulator answer to sendRequest', async () => {
      const [model] = await gatewayModels();
      const before = new Set((await admin!.requests()).map((r) => r.id));
      const prompt = `Quote me: native-chat-${Date.now()}`;
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User(prompt)],
        {},
        new vscode.CancellationTokenSource().token,
      );
      const text = await collectText(response);
      assert.ok(text.includes(prompt), `answer does not quote the prompt: ${text.slice(0, 300)}`);
      const entries = await newMessagesEntries(admin!, before);
      assert.strictEqual(entries.length, 1, JSON.stringify(entries));
      assert.strictEqual(entries[0].model, model.id);
      assert.strictEqual(entries[0].stream, true);
      assert.strictEqual(entries[0].status, 200);
    });

    it('passes tools through and returns the model tool_use as a LanguageModelToolCallPart', async () => {
      const [model] = await gatewayModels();
      const tools: vscode.LanguageModelChatTool[] = [
        {
          name: 'get_weather',
          description: 'Weather by city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ];
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User('Weather in Oslo? [[tool]]')],
        { tools },
        new vscode.CancellationTokenSource().token,
      );
      const calls: vscode.LanguageModelToolCallPart[] = [];
      for await (const part of response.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
      assert.strictEqual(calls.length, 1);
      assert.strictEqual(calls[0].name, 'get_weather');
      assert.strictEqual(typeof (calls[0].input as Record<string, unknown>).city, 'string');
    });

    it('counts tokens with the one estimate, calibrated by the last response within its bounds', async () => {
      const [model] = await gatewayModels();
      // Earlier requests to this model may have calibrated it: the count stays within the clamp of the heuristic.
      const text = 'abcdefgh'.repeat(30);
      const plain = textTokens(text);
      const count = await model.countTokens(text);
      assert.ok(
        count >= Math.ceil(plain * MIN_CALIBRATION) && count <= Math.ceil(plain * MAX_CALIBRATION),
        `${count} tokens for ${plain} by the heuristic`,
      );
    });

    it('closes the request when the caller cancels mid-stream (the emulator sees the abort)', async () => {
      const [model] = await gatewayModels();
      await admin!.setFaults(DEMO_KEY, { tokensPerSecond: 20 });
      const before = new Set((await admin!.requests()).map((r) => r.id));
      const cts = new vscode.CancellationTokenSource();
      const response = await model.sendRequest(
        [vscode.LanguageModelChatMessage.User('A long answer please [[tokens=4000]]')],
        {},
        cts.token,
      );
      let received = '';
      try {
        for await (const chunk of response.text) {
          received += chunk;
          if (received.length > 0) cts.cancel();
        }
      } catch {
        // Cancelling may end the stream with an error; what counts is what the emulator saw.
      }
      assert.ok(received.length > 0, 'nothing arrived before the cancel');
      const entry = await waitForValue(
        'the aborted request in the emulator log',
        async () => {
          const entries = await newMessagesEntries(admin!, before);
          return entries.find((e) => e.aborted === true);
        },
        10_000,
      );
      assert.strictEqual(entry.stream, true);
    });

    it('follows the active key: switching to a key of another group changes the models', async () => {
      await gatewayModels();
      const ids = async () =>
        (await vscode.lm.selectChatModels({ vendor: VENDOR }))
          .map((m) => m.id)
          .sort()
          .join(',');
      try {
        await testHook('setApiKey', { name: 'lm-alt-test', secret: 'mg-alt-key-0005' });
        await waitForValue(
          'the alt group models',
          async () => ((await ids()) === 'claude-alt-opus' ? true : undefined),
          15_000,
        );
      } finally {
        await testHook('switchKey', DEMO_KEY_NAME).then(undefined, () => undefined);
        await testHook('removeApiKey', 'lm-alt-test').then(undefined, () => undefined);
      }
      await waitForValue(
        'the demo models again',
        async () => ((await ids()) === 'claude-demo-haiku,claude-demo-sonnet' ? true : undefined),
        15_000,
      );
    });

    it('withdraws the models when modelGateway.nativeChat.enabled is off, and offers them again when on', async () => {
      await gatewayModels();
      const config = () => vscode.workspace.getConfiguration('modelGateway');
      try {
        await config().update('nativeChat.enabled', false, vscode.ConfigurationTarget.Global);
        await waitForValue(
          'the models to be withdrawn',
          async () => ((await vscode.lm.selectChatModels({ vendor: VENDOR })).length === 0 ? true : undefined),
          10_000,
        );
      } finally {
        await config().update('nativeChat.enabled', undefined, vscode.ConfigurationTarget.Global);
      }
      const again = await gatewayModels();
      assert.ok(again.some((m) => m.id === 'claude-demo-sonnet'));
    });

    it('"not available to your key" (new-api 503 model_not_found): one POST, NotFound, the spec advice, no retry', async () => {
      const [model] = await gatewayModels();
      await admin!.setFaults(DEMO_KEY, { dialect: 'new-api', modelUnavailable: true });
      const before = new Set((await admin!.requests()).map((r) => r.id));
      let error: unknown;
      try {
        const response = await model.sendRequest(
          [vscode.LanguageModelChatMessage.User('hello')],
          {},
          new vscode.CancellationTokenSource().token,
        );
        await collectText(response);
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof vscode.LanguageModelError, `not a LanguageModelError: ${String(error)}`);
      assert.strictEqual(error.code, vscode.LanguageModelError.NotFound.name);
      assert.match(error.message, /is not available to your key \(HTTP 503\)/);
      assert.match(error.message, /key group/);
      assert.doesNotMatch(error.message, /provider behind the gateway|server error/i);
      const posts = await newMessagesEntries(admin!, before);
      assert.deepStrictEqual(
        posts.map((r) => r.status),
        [503],
        'one POST, not replayed',
      );
    });

    it('turns a 429 into a LanguageModelError (Blocked) with the wait and the spec advice', async () => {
      const [model] = await gatewayModels();
      // A short Retry-After and enough 429s to outlast the client's own retries: the client keeps later
      // requests back for the whole wait, so a long one would hold up every test that follows.
      await admin!.setFaults(DEMO_KEY, { status: 429, count: 5, retryAfter: 1 });
      let error: unknown;
      try {
        const response = await model.sendRequest(
          [vscode.LanguageModelChatMessage.User('hello')],
          {},
          new vscode.CancellationTokenSource().token,
        );
        await collectText(response);
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof Error, 'the request did not fail');
      console.log(
        `[lm] error seen by the caller: ${(error as Error).name} code=${(error as { code?: string }).code} ${(error as Error).message}`,
      );
      assert.ok(error instanceof vscode.LanguageModelError, `not a LanguageModelError: ${(error as Error).name}`);
      assert.strictEqual(error.code, vscode.LanguageModelError.Blocked.name);
      assert.match(error.message, /429/);
      assert.match(error.message, /wait 1 s/);
      assert.ok(!error.message.includes(DEMO_KEY), 'the key leaked into the error');
    });
  });
});
