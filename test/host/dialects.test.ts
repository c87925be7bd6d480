// A gateway without /v1/messages (the emulator's one-api dialect), in a real VS Code, through the extension's own
// client (its gateway access, dialect source and model provider): a question to a gateway model and a turn with a
// tool call both complete over /v1/chat/completions, the refusal of /v1/messages is met once and remembered, and
// the emulator sees no second billable request for anything. Needs the language-model provider API (1.104+).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { EXTENSION_ID, testHook, waitForValue } from '../support/hostTest';

const VENDOR = 'model-gateway';
const MODEL = 'claude-demo-sonnet';

const hasProviderApi = (): boolean =>
  typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider ===
  'function';

describe('dialects: a one-api gateway (no /v1/messages) through the extension', function () {
  this.timeout(90_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;

  before(async function () {
    if (!hasProviderApi() || !admin) {
      console.log(`[dialects] skipped: ${admin ? `VS Code ${vscode.version} has no provider API` : 'no emulator'}`);
      this.skip();
    }
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    await testHook('forgetLearnedDialects');
    await admin!.setDialect('one-api');
  });

  after(async () => {
    await admin?.setDialect(null).catch(() => undefined);
    // What this suite taught must not follow the other suites onto the emulator's own dialect.
    if (admin) await testHook('forgetLearnedDialects').then(undefined, () => undefined);
  });

  const since = async (): Promise<Set<string>> => new Set((await admin!.requests()).map((r) => r.id));
  const chatRequests = async (before: Set<string>): Promise<AdminRequestEntry[]> =>
    (await admin!.requests()).filter((r) => !before.has(r.id) && r.method === 'POST');
  const model = (): Promise<vscode.LanguageModelChat> =>
    waitForValue('the gateway model in vscode.lm', async () => {
      const [m] = await vscode.lm.selectChatModels({ vendor: VENDOR, id: MODEL });
      return m;
    });

  it('a question: refused once on /v1/messages (404, not billable), answered over chat-completions', async () => {
    const before = await since();
    const prompt = `Quote me over one-api: ${Date.now()}`;
    const response = await (
      await model()
    ).sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const chunk of response.text) text += chunk;
    assert.ok(text.includes(prompt), text.slice(0, 300));
    const posts = await chatRequests(before);
    assert.deepStrictEqual(
      posts.map((r) => `${r.path} ${r.status}`),
      ['/v1/messages 404', '/v1/chat/completions 200'],
    );
    assert.deepStrictEqual(
      posts.filter((r) => r.billable).map((r) => r.path),
      ['/v1/chat/completions'],
      'one billable request, never a second',
    );
  });

  it('a turn with a tool call: tool_calls out, the result back as a tool message, every step over chat-completions', async () => {
    const before = await since();
    const tools: vscode.LanguageModelChatTool[] = [
      {
        name: 'get_weather',
        description: 'Weather by city',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    const m = await model();
    const question = vscode.LanguageModelChatMessage.User('Weather in Oslo? [[tool]]');
    const first = await m.sendRequest([question], { tools }, new vscode.CancellationTokenSource().token);
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of first.stream) if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    assert.strictEqual(calls.length, 1);
    assert.strictEqual(calls[0].name, 'get_weather');
    assert.strictEqual(typeof (calls[0].input as Record<string, unknown>).city, 'string');
    const second = await m.sendRequest(
      [
        question,
        vscode.LanguageModelChatMessage.Assistant([calls[0]]),
        vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelToolResultPart(calls[0].callId, [new vscode.LanguageModelTextPart('sunny, 21 °C')]),
        ]),
      ],
      { tools },
      new vscode.CancellationTokenSource().token,
    );
    let text = '';
    for await (const chunk of second.text) text += chunk;
    assert.ok(text.length > 0, 'the turn finished with an answer');
    const posts = await chatRequests(before);
    assert.deepStrictEqual(
      posts.map((r) => `${r.path} ${r.status}`),
      ['/v1/chat/completions 200', '/v1/chat/completions 200'],
      'the learned dialect: no second refusal, no repeated step',
    );
  });
});
