// @gateway as an agent, in a real VS Code: the participant's agent turn (src/lm/host/gatewayAgent.ts, the function the
// @gateway handler calls) with real vscode.lm.tools, real vscode.lm.invokeTool, the real gateway client and the
// emulator's scripted model, which calls the tools a prompt names (`@tool NAME {json}`). The tool is another
// extension's: the test-only runner extension declares modelGatewayTest_echo (scripts/lib/hostRunner.mjs) and this
// file registers it. Where that declaration is absent (the payload route of 1.100.3), our own list-models tool is
// the called tool. Observed from outside: what the tool received, what the emulator logged, what the stream got.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { createGatewayClient } from '../../src/gateway';
import { workspaceFolderRealPaths } from '../../src/agentHost/resolve';
import {
  agentUnavailableReason,
  offeredTools,
  runGatewayAgent,
  type AgentChatRequest,
  type GatewayAgentResult,
} from '../../src/lm/host/gatewayAgent';
import { ToolNames } from '../../src/lm/toolText';
import { EmulatorAdmin, type AdminRequestEntry } from '../support/emulatorAdmin';
import { DEMO_KEY, EXTENSION_ID, sleep, waitForValue } from '../support/hostTest';

const MODEL = 'claude-demo-haiku';
const ECHO = 'modelGatewayTest_echo';

/** A ChatResponseStream stand-in that records what the agent writes. */
class Recorder {
  readonly parts: Array<{ kind: 'markdown' | 'progress'; value: string; trusted?: boolean }> = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push(
      typeof value === 'string'
        ? { kind: 'markdown', value }
        : { kind: 'markdown', value: value.value, trusted: value.isTrusted === true },
    );
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  get text(): string {
    return this.parts
      .filter((p) => p.kind === 'markdown')
      .map((p) => p.value)
      .join('');
  }
  get progressLines(): string[] {
    return this.parts.filter((p) => p.kind === 'progress').map((p) => p.value);
  }
}

interface EchoCall {
  input: { text?: string; wait?: boolean };
  cancelled: boolean;
  inChat: boolean;
}

describe('gateway agent: @gateway runs the agent core over VS Code tools', function () {
  this.timeout(90_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;
  const echoCalls: EchoCall[] = [];
  let echo: vscode.Disposable | undefined;

  before(async function () {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    const reason = agentUnavailableReason();
    console.log(`[gateway agent] VS Code ${vscode.version}: agent ${reason ? `unavailable (${reason})` : 'available'}`);
    if (reason || !admin) this.skip();
    try {
      echo = vscode.lm.registerTool<EchoCall['input']>(ECHO, {
        async invoke(options, token) {
          const call: EchoCall = {
            input: options.input,
            cancelled: false,
            inChat: options.toolInvocationToken !== undefined,
          };
          echoCalls.push(call);
          if (options.input.wait) {
            await new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
            call.cancelled = true;
            throw new vscode.CancellationError();
          }
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`echo: ${options.input.text}`)]);
        },
      });
    } catch (error) {
      console.log(
        `[gateway agent] the test tool cannot be registered here (${error instanceof Error ? error.message : String(error)}): using ${ToolNames.listModels}`,
      );
    }
    await waitForValue('our tools in vscode.lm.tools', () =>
      vscode.lm.tools.some((t) => t.name === ToolNames.listModels) ? true : undefined,
    );
    // On the payload route (1.100.3) registerTool accepts the undeclared tool but VS Code never lists it.
    const listed =
      echo &&
      (await waitForValue(
        'the test tool in vscode.lm.tools',
        () => (vscode.lm.tools.some((t) => t.name === ECHO) ? true : undefined),
        5_000,
      ).catch(() => false));
    if (!listed) {
      console.log(`[gateway agent] ${ECHO} is not listed in vscode.lm.tools here: its tests are skipped`);
      echo?.dispose();
      echo = undefined;
    }
  });

  afterEach(async () => {
    await admin?.setFaults(DEMO_KEY, null);
  });

  after(() => {
    echo?.dispose();
  });

  function needsEcho(test: Mocha.Context): void {
    if (!echo) test.skip();
  }

  const request = (prompt: string, referenced: string[]): AgentChatRequest => ({
    prompt,
    toolReferences: referenced.map((name) => ({ name })),
    toolInvocationToken: undefined,
  });

  async function messagesSince(before: Set<string>): Promise<AdminRequestEntry[]> {
    return (await admin!.requests()).filter((r) => !before.has(r.id) && r.path.startsWith('/v1/messages'));
  }

  async function turn(
    prompt: string,
    referenced: string[],
    stream: Recorder,
    token = new vscode.CancellationTokenSource().token,
    maxSteps = 25,
  ): Promise<GatewayAgentResult> {
    const req = request(prompt, referenced);
    const tools = offeredTools(req);
    return runGatewayAgent(
      {
        client: createGatewayClient({ baseUrl: process.env.MG_EMULATOR_URL!, apiKey: DEMO_KEY, maxRetries: 0 }),
        model: MODEL,
        maxTokens: 1024,
        messages: [{ role: 'user', content: prompt }],
        policy: { workspaceFolders: await workspaceFolderRealPaths() },
        maxSteps,
        describeError: (error) => `described: ${error instanceof Error ? error.message : String(error)}`,
      },
      req,
      tools,
      stream,
      token,
    );
  }

  it('offers exactly the tools attached with #, and none to a plain question', () => {
    assert.deepStrictEqual(offeredTools(request('hello', [])), []);
    assert.deepStrictEqual(
      offeredTools(request('x', [ToolNames.listModels, 'no_such_tool'])).map((t) => t.name),
      [ToolNames.listModels],
    );
  });

  it("the scripted model calls another extension's tool through vscode.lm.invokeTool: the tool gets the input, the model the result", async function () {
    needsEcho(this);
    const before = new Set((await admin!.requests()).map((r) => r.id));
    const stream = new Recorder();
    const marker = `hello-${Date.now()}`;
    const result = await turn(
      `Echo this.\n@tool ${ECHO} {"text":"${marker}"}\n@after-result-say Echo finished.`,
      [ECHO],
      stream,
    );
    assert.strictEqual(result.metadata.reason, 'end_turn', stream.text);
    assert.deepStrictEqual(
      echoCalls.map((c) => c.input.text).filter((t) => t === marker),
      [marker],
      "the tool ran once with the model's input",
    );
    // The scripted model quotes the first line of each tool result it was sent.
    assert.match(stream.text, new RegExp(`Echo finished\\.[\\s\\S]*Result 1: echo: ${marker}`));
    assert.ok(
      stream.progressLines.some((l) => l.startsWith(`Running modelGatewayTest\\_echo`) && l.includes(marker)),
      stream.progressLines.join('\n'),
    );
    assert.ok(
      stream.parts.every((p) => p.trusted !== true),
      'no trusted markdown',
    );
    assert.match(stream.text, /2 steps · tokens: input [\d,]+, output [\d,]+, cache read \d+, cache write \d+/);
    const sent = await messagesSince(before);
    assert.strictEqual(sent.length, 2, 'a tool step and the answer');
    assert.ok(sent.every((r) => r.status === 200 && r.stream === true && r.model === MODEL));
  });

  it('calls our own list-models tool the same way (the tool every VS Code with the API has)', async () => {
    const stream = new Recorder();
    const result = await turn(`Which models?\n@tool ${ToolNames.listModels}`, [ToolNames.listModels], stream);
    assert.strictEqual(result.metadata.reason, 'end_turn', stream.text);
    assert.strictEqual(result.metadata.steps, 2);
    assert.match(stream.text, /Result 1: \S/);
    assert.doesNotMatch(stream.text, /Result 1 \(error\)/);
  });

  it('refuses a call naming a secret file before the tool runs; the model is told', async function () {
    needsEcho(this);
    const marker = `secret-${Date.now()}`;
    const stream = new Recorder();
    const result = await turn(`Read it.\n@tool ${ECHO} {"text":"${marker}","path":".env"}`, [ECHO], stream);
    assert.strictEqual(result.metadata.reason, 'end_turn');
    assert.ok(!echoCalls.some((c) => c.input.text === marker), 'the tool never ran');
    assert.match(stream.text, /Result 1 \(error\): Refused/);
    assert.match(stream.text, /was not run: \.env matches the secrets ignore list/);
  });

  it('Stop while the model streams closes the socket: the emulator logs the request aborted, nothing follows', async () => {
    await admin!.setFaults(DEMO_KEY, { tokensPerSecond: 20 });
    const before = new Set((await admin!.requests()).map((r) => r.id));
    const stream = new Recorder();
    const cancel = new vscode.CancellationTokenSource();
    const running = turn('Talk for long. [[tokens=3000]]', [ToolNames.listModels], stream, cancel.token);
    await waitForValue('streamed text', () => (stream.text.length > 0 ? true : undefined));
    cancel.cancel();
    const result = await running;
    assert.strictEqual(result.metadata.reason, 'stopped');
    const entry = await waitForValue('the aborted request in the log', async () =>
      (await messagesSince(before)).find((r) => r.aborted === true),
    );
    assert.strictEqual(entry.model, MODEL);
    await sleep(300);
    assert.strictEqual((await messagesSince(before)).length, 1, 'no request after Stop');
  });

  it('Stop while a tool runs cancels the tool and ends the turn without another request', async function () {
    needsEcho(this);
    const before = new Set((await admin!.requests()).map((r) => r.id));
    const marker = `wait-${Date.now()}`;
    const stream = new Recorder();
    const cancel = new vscode.CancellationTokenSource();
    const running = turn(`Wait.\n@tool ${ECHO} {"text":"${marker}","wait":true}`, [ECHO], stream, cancel.token);
    const call = await waitForValue('the tool to start', () => echoCalls.find((c) => c.input.text === marker));
    cancel.cancel();
    const result = await running;
    assert.strictEqual(result.metadata.reason, 'stopped');
    await waitForValue('the tool to see the cancellation', () => (call.cancelled ? true : undefined), 5_000);
    await sleep(300);
    assert.strictEqual((await messagesSince(before)).length, 1, 'only the step that called the tool');
    assert.match(stream.text, /_Stopped\._/);
  });

  it("typed into VS Code's Chat view, @gateway with #tool runs the agent: the tool runs inside the chat request, the model continues", async function () {
    needsEcho(this);
    if (
      typeof (vscode.lm as { registerLanguageModelChatProvider?: unknown }).registerLanguageModelChatProvider !==
      'function'
    )
      this.skip();
    await waitForValue(
      'gateway models',
      async () => ((await vscode.lm.selectChatModels({ vendor: 'model-gateway' })).length > 0 ? true : undefined),
      30_000,
    );
    // A tool whose prepareInvocation asks nothing runs without a confirmation in the chat (checked on 1.139.1).
    try {
      const before = new Set((await admin!.requests()).map((r) => r.id));
      const marker = `chatview-${Date.now()}`;
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', {
        query: `@gateway #modelGatewayTestEcho echo it\n@tool ${ECHO} {"text":"${marker}"}`,
        modelSelector: { vendor: 'model-gateway', id: MODEL },
      });
      const call = await waitForValue(
        'the tool called from the Chat view',
        () => echoCalls.find((c) => c.input.text === marker),
        60_000,
      );
      assert.strictEqual(call.inChat, true, "invoked with the chat request's toolInvocationToken");
      const sent = await waitForValue(
        'the step after the tool',
        async () => {
          const m = await messagesSince(before);
          return m.length >= 2 && m.every((r) => r.status === 200) ? m : undefined;
        },
        30_000,
      );
      assert.ok(sent.every((r) => r.model === MODEL && r.stream === true));
    } finally {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
    }
  });

  it('the step budget ends a looping turn, and the response says so', async () => {
    const before = new Set((await admin!.requests()).map((r) => r.id));
    const stream = new Recorder();
    const result = await turn(
      `Loop.\n@tool ${ToolNames.listModels}\n@steps 5`,
      [ToolNames.listModels],
      stream,
      undefined,
      2,
    );
    assert.strictEqual(result.metadata.reason, 'step_budget');
    assert.strictEqual((await messagesSince(before)).length, 2);
    assert.match(stream.text, /Stopped after 2 steps: the step budget/);
    assert.match(stream.text, /2 steps · tokens: input/);
  });

  it("a gateway error ends the turn with the error's words in the chat's error details", async () => {
    await admin!.setFaults(DEMO_KEY, { status: 503, count: 1 });
    const stream = new Recorder();
    const result = await turn(`Fail.\n@tool ${ToolNames.listModels}`, [ToolNames.listModels], stream);
    assert.strictEqual(result.metadata.reason, 'error');
    assert.match(result.errorDetails?.message ?? '', /^Step 1: described: /);
    assert.ok(!(result.errorDetails?.message ?? '').includes(DEMO_KEY), 'no key in the words');
  });

  it('a cut stream ends the turn as outcome unknown and is not sent again', async () => {
    const before = new Set((await admin!.requests()).map((r) => r.id));
    const billable = (await admin!.counters()).billable.messages ?? 0;
    await admin!.setFaults(DEMO_KEY, { dropAfterEvents: 4 });
    const stream = new Recorder();
    const result = await turn('Answer at length. [[tokens=400]]', [ToolNames.listModels], stream);
    assert.strictEqual(result.metadata.reason, 'outcome_unknown', stream.text);
    assert.match(stream.text, /not sent again/);
    assert.strictEqual((await messagesSince(before)).length, 1);
    assert.strictEqual(((await admin!.counters()).billable.messages ?? 0) - billable, 1, 'billed once, never replayed');
  });
});
