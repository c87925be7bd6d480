// The gateway tools inside a real VS Code, as another extension or an agent sees them: listed in
// vscode.lm.tools with their schemas, invoked through vscode.lm.invokeTool. Observed from outside: the
// emulator's request log and billing counters, and the files saved in the workspace.
//
// Outside a chat request (no toolInvocationToken) VS Code asks with a modal dialog before invoking a tool
// whose prepareInvocation returns confirmationMessages (ours always do for image tools: they spend balance).
// Nothing in the extension host can press that dialog, so the charged invocations use VS Code 1.139's own
// test switch for global auto-approve (the context key vscode.chat.tools.global.autoApprove.testMode plus
// chat.tools.global.autoApprove); VS Code 1.100 has no such switch and always asks, so there they are skipped.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { detectImageFormat } from '../../src/images/format';
import { parseSidecar } from '../../src/images/sidecar';
import { ToolNames } from '../../src/lm/toolText';
import { EmulatorAdmin } from '../support/emulatorAdmin';
import { DEMO_KEY, EXTENSION_ID, testHook, waitForValue } from '../support/hostTest';

const AUTO_APPROVE_TEST_MODE = 'vscode.chat.tools.global.autoApprove.testMode';

type Lm = { tools?: readonly vscode.LanguageModelToolInformation[]; invokeTool?: unknown };
const lm = (): Lm => (vscode as unknown as { lm?: Lm }).lm ?? {};

function invoke(name: string, input: object): Thenable<vscode.LanguageModelToolResult> {
  return vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
}

function text(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function rejection(promise: Thenable<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the tool call to fail');
}

describe('tools: gateway tools in vscode.lm', function () {
  this.timeout(120_000);
  const admin = process.env.MG_EMULATOR_URL ? EmulatorAdmin.fromEnv() : undefined;
  const root = () => vscode.workspace.workspaceFolders![0].uri;
  const readFile = (path: string) => vscode.workspace.fs.readFile(vscode.Uri.joinPath(root(), ...path.split('/')));
  const billable = async () => (await admin!.counters()).totalBillable;
  const imageRequests = async () => (await admin!.requests()).filter((r) => r.route.startsWith('images')).length;
  let autoApprove = false;
  /** A PNG saved by an earlier test of this suite (workspace-relative). */
  const anyPng = async () => {
    const found = await vscode.workspace.findFiles('images/*.png', undefined, 1);
    assert.ok(found[0], 'an image saved by an earlier test');
    return vscode.workspace.asRelativePath(found[0], false);
  };

  before(async function () {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    if (typeof lm().invokeTool !== 'function' || !admin) {
      console.log(`[tools] skipped: VS Code ${vscode.version} has no vscode.lm.invokeTool, or no emulator`);
      this.skip();
    }
    await vscode.workspace
      .getConfiguration('modelGateway')
      .update('images.mode', 'async', vscode.ConfigurationTarget.Global);
    // The runner's own "costs more" question stays on: after VS Code's confirmation the tools must not ask twice.
    await vscode.workspace
      .getConfiguration('modelGateway')
      .update('images.confirmCostlyRequests', true, vscode.ConfigurationTarget.Global);
    await testHook('refreshModels', { quiet: true });
    // VS Code's own test switch (1.139): global auto-approve without its opt-in dialog. Absent on 1.100.
    const inspect = vscode.workspace.getConfiguration('chat.tools.global').inspect('autoApprove');
    if (inspect?.defaultValue !== undefined) {
      await vscode.commands.executeCommand('setContext', AUTO_APPROVE_TEST_MODE, true);
      await vscode.workspace
        .getConfiguration('chat.tools.global')
        .update('autoApprove', true, vscode.ConfigurationTarget.Global);
      autoApprove = true;
    }
  });

  afterEach(async () => {
    await admin?.setFaults(DEMO_KEY, null);
  });

  after(async () => {
    if (autoApprove) {
      await vscode.workspace
        .getConfiguration('chat.tools.global')
        .update('autoApprove', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('setContext', AUTO_APPROVE_TEST_MODE, undefined);
    }
    await vscode.workspace
      .getConfiguration('modelGateway')
      .update('images.mode', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace
      .getConfiguration('modelGateway')
      .update('images.confirmCostlyRequests', undefined, vscode.ConfigurationTarget.Global);
  });

  /** The charged tool calls need a confirmation nobody can click outside chat unless VS Code auto-approves. */
  function needsAutoApprove(test: Mocha.Context): void {
    if (!autoApprove) {
      console.log(
        `[tools] charged invocation skipped: VS Code ${vscode.version} always asks with a modal dialog outside chat`,
      );
      test.skip();
    }
  }

  it('lists the three tools in vscode.lm.tools with their input schemas', async () => {
    const ours = await waitForValue('our tools in vscode.lm.tools', () => {
      const found = (lm().tools ?? []).filter((t) => (Object.values(ToolNames) as string[]).includes(t.name));
      return found.length === 3 ? found : undefined;
    });
    const byName = new Map(ours.map((t) => [t.name, t]));
    const schema = (name: string) =>
      byName.get(name)?.inputSchema as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    assert.deepStrictEqual(schema(ToolNames.generateImage)?.required, ['prompt']);
    assert.deepStrictEqual(Object.keys(schema(ToolNames.generateImage)?.properties ?? {}).sort(), [
      'model',
      'n',
      'prompt',
      'quality',
      'references',
      'size',
    ]);
    assert.deepStrictEqual(schema(ToolNames.editImage)?.required, ['source', 'prompt']);
    assert.ok(schema(ToolNames.editImage)?.properties?.mask, 'edit image takes a mask');
    assert.deepStrictEqual(schema(ToolNames.listModels)?.properties, {});
    for (const tool of ours) assert.ok(tool.description.length > 40, `${tool.name} has a model description`);
  });

  it("list gateway models returns the emulator's chat and image ids from the cache: no request, no key", async () => {
    const before = (await admin!.requests()).length;
    const result = text(await invoke(ToolNames.listModels, {}));
    assert.match(result, /^Chat models \(\d+\):$/m);
    assert.match(result, /^- claude-demo-sonnet$/m);
    assert.match(result, /^Image models \(\d+\):\n(- .*\n)*- gpt-image-demo$/m);
    assert.ok(!/^- gpt-image-demo$/m.test(result.split('Image models')[0]), 'image ids are not listed as chat models');
    assert.ok(!result.includes(DEMO_KEY), 'no key in the tool result');
    assert.strictEqual((await admin!.requests()).length, before, 'answered from the cached list: nothing sent');
  });

  it('an input path outside the workspace is refused with a clear error and nothing is sent', async () => {
    const before = await imageRequests();
    const relative = await rejection(invoke(ToolNames.editImage, { source: '../outside.png', prompt: 'make it blue' }));
    assert.match(relative.message, /source image path is not usable: "\.\.\/outside\.png" leaves the workspace/);
    const absolute = await rejection(invoke(ToolNames.editImage, { source: '/etc/hosts', prompt: 'make it blue' }));
    assert.match(absolute.message, /"\/etc\/hosts" is outside the workspace folder/);
    const reference = await rejection(
      invoke(ToolNames.generateImage, { prompt: 'x', references: ['images/../../secret.png'] }),
    );
    assert.match(reference.message, /reference image path is not usable/);
    assert.strictEqual(await imageRequests(), before, 'no image request for a refused input');
  });

  it('generate image runs the image task pipeline: a saved PNG with sidecar, its path returned, one billable submission', async function () {
    needsAutoApprove(this);
    const before = await billable();
    const beforeAsync = (await admin!.counters()).billable['images.generations.async'] ?? 0;
    const result = text(await invoke(ToolNames.generateImage, { prompt: 'Tool lighthouse', size: '256x256' }));
    const saved = [...result.matchAll(/^- (images\/\S+\.png)$/gm)].map((m) => m[1]);
    assert.strictEqual(saved.length, 1, result);
    assert.match(result, /model gpt-image-demo, size 256x256, task /);
    assert.strictEqual(detectImageFormat(await readFile(saved[0])), 'png');
    const sidecar = parseSidecar(new TextDecoder().decode(await readFile(saved[0].replace(/\.png$/, '.json'))));
    assert.strictEqual(sidecar?.prompt, 'Tool lighthouse');
    assert.strictEqual((await billable()) - before, 1, 'exactly one billable request');
    assert.strictEqual(
      ((await admin!.counters()).billable['images.generations.async'] ?? 0) - beforeAsync,
      1,
      'on the async route',
    );
    assert.ok(!result.includes(DEMO_KEY), 'no key in the tool result');
    // The persisted task record is the panel's: listed by Show Image Tasks as saved.
    const tasks = await testHook<Array<{ state: string; request: { prompt: string } }>>('imageTasks', {
      action: 'list',
    });
    assert.strictEqual(tasks.find((t) => t.request.prompt === 'Tool lighthouse')?.state, 'saved');
  });

  it('edit image takes a workspace file as the source and saves the result through the edit route', async function () {
    needsAutoApprove(this);
    const generated = text(await invoke(ToolNames.generateImage, { prompt: 'Tool edit source', size: '256x256' }));
    const source = /^- (images\/\S+\.png)$/m.exec(generated)?.[1];
    assert.ok(source, generated);
    const before = (await admin!.counters()).billable['images.edits.async'] ?? 0;
    // An edit is a charge factor: with confirmCostlyRequests on (the default), the runner would ask again in a
    // modal; the tool's own confirmation already named it, so there is exactly one question.
    const result = text(await invoke(ToolNames.editImage, { source, prompt: 'make it blue' }));
    const saved = [...result.matchAll(/^- (images\/\S+\.png)$/gm)].map((m) => m[1]);
    assert.strictEqual(saved.length, 1, result);
    assert.ok(result.startsWith(`Edited ${source}: saved 1 image`), result);
    const sidecar = parseSidecar(new TextDecoder().decode(await readFile(saved[0].replace(/\.png$/, '.json'))));
    assert.strictEqual(sidecar?.kind, 'edit');
    assert.strictEqual(sidecar?.source, source);
    assert.strictEqual(((await admin!.counters()).billable['images.edits.async'] ?? 0) - before, 1);
  });

  it("a gateway error comes back as the spec's advice, without the key", async function () {
    needsAutoApprove(this);
    await admin!.setFaults(DEMO_KEY, { status: 401, count: 1 });
    const error = await rejection(invoke(ToolNames.generateImage, { prompt: 'Tool unauthorized' }));
    assert.match(error.message, /401/);
    assert.match(error.message, /replace it/i);
    assert.ok(!error.message.includes(DEMO_KEY), 'no key in the error');
  });

  it('a missing source file or a model that is not an image model of the key is refused before anything is sent', async function () {
    // Confirmed first: a file may appear between VS Code's prepare and invoke calls, so only the input's shape
    // may skip the confirmation.
    needsAutoApprove(this);
    const before = await imageRequests();
    const missing = await rejection(invoke(ToolNames.editImage, { source: 'no-such-image.png', prompt: 'x' }));
    assert.match(missing.message, /"no-such-image\.png" does not exist in the workspace/);
    // A link inside the workspace to a file outside it: never read, never uploaded.
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mg-tools-')), 'outside.png');
    fs.writeFileSync(
      outside,
      new Uint8Array(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root(), ...(await anyPng()).split('/')))),
    );
    fs.symlinkSync(outside, path.join(root().fsPath, 'linked-outside.png'));
    try {
      const linked = await rejection(invoke(ToolNames.editImage, { source: 'linked-outside.png', prompt: 'x' }));
      assert.match(linked.message, /"linked-outside\.png" is a symbolic link/);
    } finally {
      fs.rmSync(path.join(root().fsPath, 'linked-outside.png'), { force: true });
    }
    const error = await rejection(invoke(ToolNames.generateImage, { prompt: 'x', model: 'claude-demo-sonnet' }));
    assert.match(error.message, /not an image model/);
    assert.strictEqual(await imageRequests(), before);
  });
});
