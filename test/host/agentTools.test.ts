// The agent's VS Code tools inside a real VS Code: real files in the test workspace, real symlinks, the real
// diff editor, WorkspaceEdit and undo, a real terminal (shell integration when it activates) and a real child
// process, checkpoints on disk read back by a second instance as after a reload. Tool calls go through the
// core's runToolCalls with the policy built from this window's settings, exactly as an agent turn runs them.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { decide, type AgentEvent, type ApprovalAnswer, type ApprovalRequest, type Tool } from '../../src/agent';
import { runToolCalls } from '../../src/agent/toolRunner';
import type { ToolResultBlockParam } from '../../src/gateway/types';
import {
  createAgentHost,
  excludedFromBridge,
  findRipgrep,
  lmToolsAvailable,
  type AgentHost,
} from '../../src/agentHost';
import { Checkpoints } from '../../src/agentHost/checkpoints';
import { realPathOf } from '../../src/agentHost/resolve';
import { closeEditorsWithoutSaving, waitForValue } from '../support/hostTest';
import { makeTempDir, removeTempDir } from '../support/tempDir';

const SCHEME = 'model-gateway-proposal-test';

/** A line in the harness's live progress output (which ripgrep, which command path): facts for the report. */
function report(line: string): void {
  const file = process.env.MG_HOST_RESULTS;
  if (file) fs.appendFileSync(`${file}.progress`, `[agent] ${line}\n`);
}

function text(result: ToolResultBlockParam): string {
  const c = result.content;
  if (typeof c === 'string') return c;
  return (c ?? []).map((b) => ('text' in b ? b.text : '')).join('');
}

function diffTabs(): vscode.TabInputTextDiff[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => t.input)
    .filter((i): i is vscode.TabInputTextDiff => i instanceof vscode.TabInputTextDiff && i.modified.scheme === SCHEME);
}

describe('agent tools in the extension host', function () {
  this.timeout(120_000);
  let host: AgentHost;
  let storage: string;
  let outside: string;
  let dir: string;
  const rel = (name: string) => `${path.basename(dir)}/${name}`;
  const abs = (name: string) => path.join(dir, name);
  const settings = () => vscode.workspace.getConfiguration('modelGateway.agent');

  /** Runs one tool call the way the loop does (target → policy → approval → invoke). */
  async function call(
    name: string,
    input: Record<string, unknown>,
    o: { approve?: (r: ApprovalRequest) => ApprovalAnswer; signal?: AbortSignal; h?: AgentHost } = {},
  ) {
    const h = o.h ?? host;
    const events: AgentEvent[] = [];
    const requests: ApprovalRequest[] = [];
    const tools = new Map(h.tools({ vscodeTools: false }).map((t) => [t.name, t as Tool<never>]));
    const out = await runToolCalls([{ block: { type: 'tool_use', id: `tu_${Date.now()}`, name, input } }], 1, {
      tools,
      policy: (await h.snapshot()).policy,
      approve: async (r) => {
        requests.push(r);
        return o.approve ? o.approve(r) : { approved: true };
      },
      emit: (e) => events.push(e),
      signal: o.signal ?? new AbortController().signal,
    });
    const result = out.results[0];
    const final = events.find((e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result');
    return {
      result,
      text: text(result),
      events,
      requests,
      details: final?.details as Record<string, unknown> | undefined,
    };
  }

  before(async () => {
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = fs.mkdtempSync(path.join(root, 'agent-test-'));
    storage = makeTempDir('agent-storage');
    outside = makeTempDir('agent-outside');
    host = createAgentHost({
      storage: {
        globalStorageUri: vscode.Uri.file(path.join(storage, 'global')),
        storageUri: vscode.Uri.file(path.join(storage, 'ws')),
      },
      proposalScheme: SCHEME,
      commands: { shellIntegrationWaitMs: 15_000 },
    });
  });

  afterEach(async () => {
    await host.changes.rejectAll('test cleanup');
    await closeEditorsWithoutSaving();
    for (const key of ['autoApproveWrites', 'secretPatterns', 'commandAllowList']) {
      await settings().update(key, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  after(async () => {
    host.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    removeTempDir(storage);
    removeTempDir(outside);
  });

  it('agent: is available in a trusted workspace and offers the built-in tools', () => {
    assert.deepStrictEqual(host.availability(), { ok: true });
    const names = host.tools({ vscodeTools: false }).map((t) => t.name);
    assert.deepStrictEqual(names, [
      'read_file',
      'list_directory',
      'find_files',
      'search_text',
      'get_editor_context',
      'get_diagnostics',
      'propose_edit',
      'create_file',
      'delete_file',
      'run_command',
    ]);
    for (const t of host.tools({ vscodeTools: false })) {
      assert.strictEqual((t.inputSchema as { type?: string }).type, 'object', t.name);
      assert.ok(t.description.length > 10 && !t.description.includes('\n'), t.name);
    }
  });

  it('agent: read_file reads a line range, refuses a binary file and caps a large one', async () => {
    fs.writeFileSync(abs('five.txt'), 'one\ntwo\nthree\nfour\nfive\n');
    const range = await call('read_file', { path: rel('five.txt'), startLine: 2, endLine: 3 });
    assert.ok(!range.result.is_error, range.text);
    assert.strictEqual(range.text, `[${rel('five.txt')}: lines 2–3 of 5]\ntwo\nthree`);

    fs.writeFileSync(abs('blob.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x41]));
    const binary = await call('read_file', { path: rel('blob.bin') });
    assert.strictEqual(binary.result.is_error, true);
    assert.match(binary.text, /binary file/);

    const line = 'x'.repeat(99) + '\n';
    fs.writeFileSync(abs('big.txt'), line.repeat(3000)); // 300,000 characters
    const big = await call('read_file', { path: rel('big.txt') });
    assert.ok(!big.result.is_error);
    assert.ok(big.text.length <= 256 * 1024 + 300, `capped: ${big.text.length}`);
    assert.match(big.text, /Truncated at 256 KB: lines 1–2621 of 3000 shown\. Read on with startLine 2622\./);
    const rest = await call('read_file', { path: rel('big.txt'), startLine: 2622 });
    assert.match(rest.text, /lines 2622–3000 of 3000/);
  });

  it('agent: a symlink inside the workspace that points outside resolves to the outside real path, and the policy refuses it', async () => {
    fs.writeFileSync(path.join(outside, 'private.txt'), 'outside content');
    fs.symlinkSync(path.join(outside, 'private.txt'), abs('link.txt'));
    const tool = host.tools({ vscodeTools: false }).find((t) => t.name === 'read_file')!;
    const target = await tool.target({ path: rel('link.txt') }, new AbortController().signal);
    assert.ok(target.paths?.includes(path.join(outside, 'private.txt')), JSON.stringify(target.paths));
    const verdict = decide({ toolName: 'read_file', approvalClass: 'read', target }, (await host.snapshot()).policy);
    assert.strictEqual(verdict.rule, 'symlink-escape');
    assert.strictEqual(verdict.decision, 'refuse');
    // Refused without asking, even with an approver that says yes: the content never reaches the result.
    const refused = await call('read_file', { path: rel('link.txt') }, { approve: () => ({ approved: true }) });
    assert.strictEqual(refused.requests.length, 0);
    assert.ok(!refused.text.includes('outside content'));
    // A dangling link to a file that does not exist yet: a write through it would land outside too.
    fs.symlinkSync(path.join(outside, 'later.txt'), abs('dangling.txt'));
    const create = host.tools({ vscodeTools: false }).find((t) => t.name === 'create_file')!;
    const t2 = await create.target({ path: rel('dangling.txt'), content: 'x' }, new AbortController().signal);
    assert.ok(t2.paths?.includes(path.join(outside, 'later.txt')), JSON.stringify(t2.paths));
  });

  it('agent: a folder link swapped to outside between approval and use is refused (run_command cwd, list_directory path)', async () => {
    fs.mkdirSync(abs('inside-dir'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'outside-name.txt'), 'x');
    const link = abs('swap-dir');
    const pointAt = (to: string) => {
      if (fs.existsSync(link) || fs.lstatSync(link, { throwIfNoEntry: false })) fs.unlinkSync(link);
      fs.symlinkSync(to, link, 'dir');
    };
    pointAt(abs('inside-dir'));
    // run_command asks: the link is swapped while the user reads the question.
    const ran = await call(
      'run_command',
      { command: 'ls', cwd: rel('swap-dir') },
      {
        approve: () => {
          pointAt(outside);
          return { approved: true };
        },
      },
    );
    assert.strictEqual(ran.requests.length, 1, 'the command asked');
    assert.match(ran.text, /now resolves to .*as when it was approved/);
    assert.ok(!ran.text.includes('outside-name.txt'), ran.text);
    // list_directory (a read: no question): the same input object from target() to invoke(), as the loop passes it.
    pointAt(abs('inside-dir'));
    const list = host.tools({ vscodeTools: false }).find((t) => t.name === 'list_directory')!;
    const input = { path: rel('swap-dir') };
    await list.target(input as never, new AbortController().signal);
    pointAt(outside);
    await assert.rejects(
      Promise.resolve().then(() => list.invoke(input as never, {} as never)),
      /now resolves to .*as when it was approved/,
    );
  });

  it('agent: an ignored .env, a setting pattern, an ignore-file pattern and a link to .env are refused; search never shows their text', async () => {
    const token = `tok${Date.now()}`;
    fs.writeFileSync(abs('.env'), `API_KEY=${token}\n`);
    fs.writeFileSync(abs('prod.tfvars'), `password = "${token}"\n`);
    fs.writeFileSync(abs('notes.private'), `${token}\n`);
    fs.symlinkSync(abs('.env'), abs('innocent.txt'));
    fs.writeFileSync(abs('plain.txt'), `the ${token} is mentioned here\n`);
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const ignoreFile = path.join(root, '.modelgatewayignore');
    const hadIgnore = fs.existsSync(ignoreFile);
    if (!hadIgnore) fs.writeFileSync(ignoreFile, '# test\n*.private\n!*.private\n');
    await settings().update('secretPatterns', ['*.tfvars'], vscode.ConfigurationTarget.Global);
    try {
      for (const name of ['.env', 'prod.tfvars', 'notes.private', 'innocent.txt']) {
        const r = await call('read_file', { path: rel(name) });
        assert.strictEqual(r.result.is_error, true, name);
        assert.match(r.text, /^Refused: .*secrets ignore list/, name);
        assert.ok(
          r.events.some((e) => e.type === 'tool_refused'),
          name,
        );
        assert.ok(!r.text.includes(token), name);
      }
      const search = await call('search_text', { query: token });
      assert.ok(!search.result.is_error, search.text);
      assert.match(search.text, new RegExp(`${rel('plain.txt').replace(/[.]/g, '\\.')}:1: the ${token}`));
      for (const name of ['.env', 'prod.tfvars', 'notes.private', 'innocent.txt'])
        assert.ok(!search.text.includes(`${name}:`), `${name} in ${search.text}`);
      const list = await call('list_directory', { path: path.basename(dir) });
      assert.match(list.text, /^\.env \(secret: not shared\)$/m);
      report(`search_text engine: ${String(search.details?.engine)}`);
    } finally {
      if (!hadIgnore) fs.rmSync(ignoreFile, { force: true });
    }
  });

  it('agent: search_text uses the ripgrep that VS Code ships when present, and finds text with a glob', async () => {
    const rg = await findRipgrep();
    report(
      `ripgrep: ${rg ? `${rg.source} ${rg.path}` : 'none (fallback search)'}; vscode.env.appRoot = ${vscode.env.appRoot}`,
    );
    // Every VS Code the harness runs ships its own ripgrep (the path differs between versions).
    assert.strictEqual(rg?.source, 'vscode', `ripgrep found: ${JSON.stringify(rg)}`);
    fs.writeFileSync(abs('needle.ts'), 'export const haystack = 1;\nexport const needleValue = 2;\n');
    fs.mkdirSync(abs('.config'), { recursive: true });
    fs.writeFileSync(abs('.config/hidden.ts'), 'export const needleValue = 3;\n');
    const r = await call('search_text', { query: 'needleValue', glob: `${path.basename(dir)}/*.ts` });
    assert.ok(!r.result.is_error, r.text);
    assert.match(r.text, new RegExp(`needle\\.ts:2: export const needleValue = 2;`));
    const hidden = await call('search_text', { query: 'needleValue = 3' });
    assert.match(hidden.text, /\.config\/hidden\.ts:1: export const needleValue = 3;/, 'dotfolders are searched');
    const files = await call('find_files', { pattern: `${path.basename(dir)}/*.ts` });
    assert.match(files.text, /needle\.ts/);
  });

  it('agent: find_files and search_text give the same sorted page on identical calls, say the total and page on by offset', async () => {
    const many = abs('many');
    fs.mkdirSync(many, { recursive: true });
    // Names whose creation order is not their sorted order (the file system's order is not a page's).
    const names = Array.from({ length: 250 }, (_, i) => `f${String((i * 97) % 250).padStart(3, '0')}.txt`);
    for (const name of names) fs.writeFileSync(path.join(many, name), `first line\npagingNeedle in ${name}\n`);
    const sorted = [...names].sort().map((n) => `${rel('many')}/${n}`);
    const pattern = `${rel('many')}/*.txt`;
    const lines = (t: string) => t.split('\n').slice(1);
    const first = await call('find_files', { pattern, maxResults: 100 });
    const again = await call('find_files', { pattern, maxResults: 100 });
    assert.equal(first.text, again.text, 'two identical calls, one answer');
    assert.deepStrictEqual(lines(first.text), sorted.slice(0, 100));
    assert.match(first.text.split('\n')[0], /files 1–100 of 250 .*sorted by path; the next page: offset 100/);
    const last = await call('find_files', { pattern, maxResults: 100, offset: 200 });
    assert.deepStrictEqual(lines(last.text), sorted.slice(200));
    assert.match(last.text.split('\n')[0], /files 201–250 of 250 [^;]*\]$/);

    const hits = await call('search_text', { query: 'pagingNeedle', maxResults: 100 });
    const hitsAgain = await call('search_text', { query: 'pagingNeedle', maxResults: 100 });
    assert.equal(hits.text, hitsAgain.text);
    assert.deepStrictEqual(
      lines(hits.text),
      sorted.slice(0, 100).map((p) => `${p}:2: pagingNeedle in ${path.basename(p)}`),
    );
    assert.match(hits.text.split('\n')[0], /matching lines 1–100 of 250 .*the next page: offset 100/);
    const hitsLast = await call('search_text', { query: 'pagingNeedle', maxResults: 100, offset: 200 });
    assert.equal(lines(hitsLast.text).length, 50);
  });

  it('agent: propose_edit opens a diff editor; accept writes through WorkspaceEdit and is undoable', async () => {
    fs.writeFileSync(abs('edit.txt'), 'const a = 1;\nconst b = 2;\n');
    const running = call('propose_edit', {
      path: rel('edit.txt'),
      edits: [{ search: 'const b = 2;', replace: 'const b = 3;' }],
    });
    const change = await waitForValue('a pending change', () => host.changes.list()[0]);
    assert.strictEqual(change.kind, 'edit');
    assert.strictEqual(change.path, rel('edit.txt'));
    const tab = await waitForValue('the diff tab', () => diffTabs()[0]);
    assert.strictEqual(tab.original.scheme, SCHEME);
    assert.strictEqual(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(tab.modified)),
      'const a = 1;\nconst b = 3;\n',
    );
    assert.strictEqual(
      fs.readFileSync(abs('edit.txt'), 'utf8'),
      'const a = 1;\nconst b = 2;\n',
      'nothing written before accept',
    );
    const outcome = await host.changes.accept(change.id);
    assert.strictEqual(outcome?.status, 'accepted');
    const done = await running;
    assert.match(done.text, /^Accepted: edited .*edit\.txt as proposed\.$/, done.text);
    assert.strictEqual(fs.readFileSync(abs('edit.txt'), 'utf8'), 'const a = 1;\nconst b = 3;\n');
    assert.strictEqual(diffTabs().length, 0, 'the diff closes');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs('edit.txt')));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitForValue('undo', () => doc.getText() === 'const a = 1;\nconst b = 2;\n');
    await doc.save();
  });

  it("agent: a proposal's tabs name the file by its workspace path, never the change's id; a new file opens alone, not against an empty text", async () => {
    fs.writeFileSync(abs('named.txt'), 'one\n');
    const editing = call('propose_edit', { path: rel('named.txt'), content: 'two\n' });
    const edit = await waitForValue('a pending change', () => host.changes.list()[0]);
    const tab = await waitForValue('the diff tab', () => diffTabs()[0]);
    for (const side of [tab.original, tab.modified]) {
      assert.strictEqual(side.path, `/${rel('named.txt')}`, "the path is the file's own");
      assert.ok(!side.path.includes(edit.id), `no change id in the path: ${side.toString()}`);
    }
    await host.changes.reject(edit.id);
    await editing;

    const creating = call('create_file', { path: rel('brand-new.txt'), content: 'fresh\n' });
    const created = await waitForValue('a pending new file', () => host.changes.list()[0]);
    assert.strictEqual(created.kind, 'create');
    const alone = await waitForValue("the new file's tab", () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .map((t) => t.input)
        .find((i): i is vscode.TabInputText => i instanceof vscode.TabInputText && i.uri.scheme === SCHEME),
    );
    assert.strictEqual(alone.uri.path, `/${rel('brand-new.txt')}`);
    assert.strictEqual(diffTabs().length, 0, 'no diff against an empty original');
    await host.changes.accept(created.id);
    assert.match((await creating).text, /^Accepted/);
    assert.strictEqual(fs.readFileSync(abs('brand-new.txt'), 'utf8'), 'fresh\n');
  });

  it("agent: a proposal's tab is titled by the file and 'proposed change' (new file, deletion alike), no change id in its title or path; two files of one name get their folders", async () => {
    fs.mkdirSync(abs('left'), { recursive: true });
    fs.mkdirSync(abs('right'), { recursive: true });
    fs.writeFileSync(abs('left/same.md'), 'left\n');
    fs.writeFileSync(abs('right/same.md'), 'right\n');
    fs.writeFileSync(abs('old.md'), 'old\n');
    const proposalTabs = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter(
          (t) =>
            (t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === SCHEME) ||
            (t.input instanceof vscode.TabInputText && t.input.uri.scheme === SCHEME),
        );
    const labels = () => proposalTabs().map((t) => t.label);
    const tabLabel = (label: string) =>
      waitForValue(`a tab "${label}"`, () => labels().includes(label)).catch((e: Error) => {
        throw new Error(`${e.message}; the tabs: ${labels().join(', ')}`);
      });
    const noIds = () => {
      const ids = host.changes.list().map((c) => c.id);
      for (const tab of proposalTabs()) {
        const uris =
          tab.input instanceof vscode.TabInputTextDiff
            ? [tab.input.original, tab.input.modified]
            : [(tab.input as vscode.TabInputText).uri];
        for (const uri of uris) {
          // The path is what VS Code shows of a side (its hover and breadcrumbs: test/ui/agent.test.ts).
          for (const id of ids) assert.ok(!uri.path.includes(id), `no change id in the path of ${uri.toString()}`);
          for (const id of ids) assert.ok(!tab.label.includes(id), `no change id in the title ${tab.label}`);
        }
      }
    };

    const editing = call('propose_edit', { path: rel('left/same.md'), content: 'LEFT\n' });
    await tabLabel('same.md (proposed change)');
    noIds();
    // A second file of the same name elsewhere: its title carries its folder, so the two tabs differ.
    const editingOther = call('propose_edit', { path: rel('right/same.md'), content: 'RIGHT\n' });
    await tabLabel(`${rel('right/same.md')} (proposed change)`);
    assert.strictEqual(new Set(labels()).size, labels().length, `two different titles: ${labels().join(', ')}`);
    noIds();
    await host.changes.rejectAll('seen');
    await Promise.all([editing, editingOther]);

    const creating = call('create_file', { path: rel('notes.md'), content: 'new\n' });
    await tabLabel('notes.md (proposed new file)');
    noIds();
    await host.changes.rejectAll('seen');
    await creating;

    const deleting = call('delete_file', { path: rel('old.md') });
    await tabLabel('old.md (proposed deletion)');
    noIds();
    await host.changes.rejectAll('seen');
    assert.match((await deleting).text, /^Rejected/);
    assert.ok(fs.existsSync(abs('old.md')));
  });

  it('agent: reject leaves the file untouched and tells the model', async () => {
    fs.writeFileSync(abs('keep.txt'), 'let x = 1;\n');
    const running = call('propose_edit', { path: rel('keep.txt'), content: 'let x = 2;\n' });
    const change = await waitForValue('a pending change', () => host.changes.list()[0]);
    await waitForValue('the diff tab', () => diffTabs()[0]);
    await host.changes.reject(change.id);
    const done = await running;
    assert.match(done.text, /^Rejected: the user rejected the edit to .*keep\.txt; nothing was written\./);
    assert.strictEqual(fs.readFileSync(abs('keep.txt'), 'utf8'), 'let x = 1;\n');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === abs('keep.txt') && d.isDirty));
  });

  it('agent: a block that does not match exactly once fails, naming the block; nothing is proposed', async () => {
    fs.writeFileSync(abs('twice.ts'), 'x();\nx();\ny();\n');
    const r = await call('propose_edit', {
      path: rel('twice.ts'),
      edits: [
        { search: 'y();', replace: 'z();' },
        { search: 'x();', replace: 'w();' },
      ],
    });
    assert.strictEqual(r.result.is_error, true);
    assert.match(r.text, /edit block 2 of 2 failed: its "search" text occurs more than once/);
    const missing = await call('propose_edit', { path: rel('twice.ts'), edits: [{ search: 'nope', replace: '' }] });
    assert.match(missing.text, /edit block 1 of 1 failed: its "search" text was not found/);
    assert.strictEqual(host.changes.list().length, 0);
    assert.strictEqual(fs.readFileSync(abs('twice.ts'), 'utf8'), 'x();\nx();\ny();\n');
  });

  it('agent: a dirty buffer is not clobbered: the proposal is computed on the editor text and applied to it', async () => {
    // code-server 4.100 defaults files.autoSave to afterDelay: VS Code itself would save the buffer mid-test.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      await dirtyBufferCase();
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  async function dirtyBufferCase(): Promise<void> {
    fs.writeFileSync(abs('dirty.txt'), 'const a = 1;\nconst b = 2;\n');
    const uri = vscode.Uri.file(abs('dirty.txt'));
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// unsaved note\n'));
    assert.ok(doc.isDirty);
    const running = call('propose_edit', {
      path: rel('dirty.txt'),
      edits: [{ search: 'const b = 2;', replace: 'const b = 20;' }],
    });
    const change = await waitForValue('a pending change', () => host.changes.list()[0]);
    const tab = await waitForValue('the diff tab', () => diffTabs()[0]);
    assert.strictEqual(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(tab.original)),
      '// unsaved note\nconst a = 1;\nconst b = 2;\n',
    );
    // The user keeps typing while the proposal is open: the blocks are applied again to the new text.
    const again = await vscode.window.showTextDocument(doc, { preview: false });
    await again.edit((b) => b.insert(new vscode.Position(1, 0), '// second note\n'));
    assert.ok(doc.isDirty);
    await host.changes.accept(change.id);
    const done = await running;
    assert.match(
      done.text,
      /^Accepted: edited .*dirty\.txt as proposed\. The file has other unsaved changes/,
      done.text,
    );
    assert.strictEqual(
      doc.getText(),
      '// unsaved note\n// second note\nconst a = 1;\nconst b = 20;\n',
      JSON.stringify(doc.getText()),
    );
    assert.ok(doc.isDirty, 'the user saves their own work');
    assert.strictEqual(fs.readFileSync(abs('dirty.txt'), 'utf8'), 'const a = 1;\nconst b = 2;\n');
  }

  it('agent: the user edits the proposed side before accepting: the model is told what changed', async () => {
    fs.writeFileSync(abs('adjust.ts'), 'export const n = 1;\n');
    const running = call('propose_edit', { path: rel('adjust.ts'), content: 'export const n = 2;\n' });
    const change = await waitForValue('a pending change', () => host.changes.list()[0]);
    const tab = await waitForValue('the diff tab', () => diffTabs()[0]);
    const proposed = await vscode.workspace.openTextDocument(tab.modified);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(tab.modified, new vscode.Range(0, 0, 1, 0), 'export const n = 42; // user\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(proposed.isDirty);
    await host.changes.accept(change.id);
    const done = await running;
    assert.match(
      done.text,
      /^Accepted with user changes: .*lines 1–1 of your proposal became:\nexport const n = 42; \/\/ user/s,
    );
    assert.strictEqual(fs.readFileSync(abs('adjust.ts'), 'utf8'), 'export const n = 42; // user\n');
  });

  it('cleanup closes unsaved editors without a save dialog: a file deleted on disk, an untitled draft', async () => {
    // A dialog here would block every later suite of this window (the helper serves 19 suites' hooks).
    fs.writeFileSync(abs('deleted-while-dirty.ts'), 'export const a = 1;\n');
    const onDisk = await vscode.workspace.openTextDocument(abs('deleted-while-dirty.ts'));
    await vscode.window.showTextDocument(onDisk);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(onDisk.uri, new vscode.Position(0, 0), '// unsaved\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    fs.rmSync(abs('deleted-while-dirty.ts'));
    const draft = await vscode.workspace.openTextDocument({ content: 'an unsaved draft' });
    await vscode.window.showTextDocument(draft, { preview: false });
    assert.ok(onDisk.isDirty && draft.isDirty);
    await closeEditorsWithoutSaving();
    assert.deepStrictEqual(
      vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()),
      [],
    );
    assert.strictEqual(vscode.window.tabGroups.all.flatMap((g) => g.tabs).length, 0);
  });

  it('agent: find_files and search_text treat symlinks as list_directory does: no names from outside or from .git', async () => {
    for (const name of ['farlink', 'gitlink']) fs.rmSync(abs(name), { force: true });
    fs.mkdirSync(path.join(outside, 'far'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'far', 'outside-secret-name.txt'), 'needleFar\n');
    fs.symlinkSync(path.join(outside, 'far'), abs('farlink'), 'dir');
    fs.mkdirSync(abs('nested/.git'), { recursive: true });
    fs.writeFileSync(abs('nested/.git/config-copy.txt'), 'needleGit\n');
    fs.symlinkSync(abs('nested/.git'), abs('gitlink'), 'dir');
    fs.writeFileSync(abs('visible-file.txt'), 'needleFar needleGit\n');
    const listed = await call('list_directory', { path: rel('farlink') });
    assert.strictEqual(listed.events.find((e) => e.type === 'tool_refused')?.type, 'tool_refused', listed.text);
    // Only these three names (the paging test leaves many other .txt files in the folder, beyond the first page).
    const found = await call('find_files', {
      pattern: `${path.basename(dir)}/**/{visible-file,outside-secret-name,config-copy}.txt`,
    });
    // The first line is the page's header, which repeats the pattern: only the listed names count.
    const names = found.text.split('\n').slice(1).join('\n');
    assert.match(names, /visible-file\.txt/, found.text);
    assert.ok(!names.includes('outside-secret-name'), found.text);
    assert.ok(!names.includes('config-copy'), found.text);
    for (const query of ['needleFar', 'needleGit']) {
      const search = await call('search_text', { query });
      assert.match(search.text, /visible-file\.txt/);
      assert.ok(!search.text.includes('outside-secret-name') && !search.text.includes('config-copy'), search.text);
    }
  });

  it('agent: allow-listed commands ask in a subfolder, with a code-running option, and where a repository config runs programs', async () => {
    await settings().update('commandAllowList', ['git status', 'npm test'], vscode.ConfigurationTarget.Global);
    const marker = path.join(outside, 'fsmonitor-ran');
    const repo = abs('armed-repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    const script = path.join(outside, 'fsmonitor.sh');
    fs.writeFileSync(script, `#!/bin/sh\necho ran > '${marker}'\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(repo, '.git', 'config'), `[core]\n\tfsmonitor = ${script}\n`);
    const deny = () => ({ approved: false, reason: 'test' });
    const status = await call('run_command', { command: 'git status' }, { approve: deny });
    assert.strictEqual(status.requests[0]?.verdict.rule, 'command-repo-config', status.text);
    assert.match(status.requests[0].verdict.reason, /core\.fsmonitor/);
    const sub = await call('run_command', { command: 'npm test', cwd: rel('') }, { approve: deny });
    assert.strictEqual(sub.requests[0]?.verdict.rule, 'command-cwd', sub.text);
    assert.ok(sub.requests[0].verdict.reason.includes(fs.realpathSync(dir)), sub.requests[0].verdict.reason);
    const option = await call(
      'run_command',
      { command: `npm test --node-options=--require=${path.join(outside, 'x.js')}` },
      { approve: deny },
    );
    assert.strictEqual(option.requests[0]?.verdict.rule, 'command-code-option', option.text);
    const prefix = await call('run_command', { command: `npm test --prefix ${outside}` }, { approve: deny });
    assert.strictEqual(prefix.requests[0]?.verdict.rule, 'command-code-option', prefix.text);
    assert.ok(!fs.existsSync(marker), 'nothing ran');
  });

  it('agent: under auto-approve, a package.json edit that changes scripts and a CI workflow still ask; other fields do not', async () => {
    await settings().update('autoApproveWrites', true, vscode.ConfigurationTarget.Global);
    fs.writeFileSync(abs('package.json'), '{\n  "version": "1.0.0",\n  "scripts": { "test": "mocha" }\n}\n');
    const deny = () => ({ approved: false, reason: 'test' });
    const scripts = await call(
      'propose_edit',
      { path: rel('package.json'), edits: [{ search: '"test": "mocha"', replace: '"test": "node evil.js"' }] },
      { approve: deny },
    );
    assert.strictEqual(scripts.requests[0]?.verdict.rule, 'package-scripts', scripts.text);
    assert.match(fs.readFileSync(abs('package.json'), 'utf8'), /"mocha"/);
    const version = await call('propose_edit', {
      path: rel('package.json'),
      edits: [{ search: '"1.0.0"', replace: '"1.0.1"' }],
    });
    assert.strictEqual(version.requests.length, 0, version.text);
    assert.match(fs.readFileSync(abs('package.json'), 'utf8'), /"1\.0\.1"/);
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const workflow = await call(
      'create_file',
      {
        path: path.relative(root, path.join(root, '.github', 'workflows', `agent-${Date.now()}.yml`)),
        content: 'on: push\n',
      },
      { approve: deny },
    );
    assert.strictEqual(workflow.requests[0]?.verdict.rule, 'ci-definition', workflow.text);
  });

  it('agent: auto-approved writes apply without review, but .vscode/settings.json still asks', async () => {
    await settings().update('autoApproveWrites', true, vscode.ConfigurationTarget.Global);
    fs.writeFileSync(abs('auto.ts'), 'a\n');
    const auto = await call('propose_edit', { path: rel('auto.ts'), content: 'b\n' });
    assert.strictEqual(auto.requests.length, 0, 'no approval asked');
    assert.match(auto.text, /^Accepted: edited/);
    assert.strictEqual(fs.readFileSync(abs('auto.ts'), 'utf8'), 'b\n');
    fs.mkdirSync(abs('.vscode'), { recursive: true });
    const asked = await call(
      'create_file',
      { path: rel('.vscode/settings.json'), content: '{"chat.tools.autoApprove": true}' },
      { approve: () => ({ approved: false, reason: 'no' }) },
    );
    assert.strictEqual(asked.requests.length, 1);
    assert.strictEqual(asked.requests[0].verdict.rule, 'vscode-dir');
    assert.ok(!fs.existsSync(abs('.vscode/settings.json')));
  });

  it("agent: permission settings count only from user settings, never from a repository's .vscode/settings.json", async () => {
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const file = path.join(root, '.vscode', 'settings.json');
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const existing = before ? (JSON.parse(before) as Record<string, unknown>) : {};
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...existing,
        'modelGateway.agent.autoApproveWrites': true,
        'modelGateway.agent.commandAllowList': ['rm', 'curl'],
        'modelGateway.agent.secretPatterns': ['*.ws-secret'],
        'modelGateway.agent.maxSteps': 5,
      }),
    );
    try {
      await waitForValue('the workspace settings to load', () =>
        settings().inspect<string[]>('secretPatterns')?.workspaceValue?.includes('*.ws-secret'),
      );
      const snap = await host.snapshot();
      assert.strictEqual(snap.policy.autoApproveWrites, false);
      assert.deepStrictEqual(snap.policy.commandAllowList, []);
      assert.ok(snap.policy.secretPatterns?.includes('*.ws-secret'), 'restrictions are taken from the workspace');
      assert.strictEqual(snap.settings.maxSteps, 5, 'a workspace may lower the step budget');
      assert.ok(snap.policy.protectedPaths?.includes(path.join(storage, 'ws')));
      await settings().update('autoApproveWrites', true, vscode.ConfigurationTarget.Global);
      await settings().update('commandAllowList', ['npm test'], vscode.ConfigurationTarget.Global);
      const user = await host.snapshot();
      assert.strictEqual(user.policy.autoApproveWrites, true);
      assert.deepStrictEqual(user.policy.commandAllowList, ['npm test']);
    } finally {
      if (before === undefined) fs.rmSync(file, { force: true });
      else fs.writeFileSync(file, before);
      await waitForValue(
        'the workspace settings to unload',
        () => !settings().inspect<string[]>('secretPatterns')?.workspaceValue,
      );
    }
  });

  it('agent: get_editor_context returns the selection; get_diagnostics returns VS Code problems', async () => {
    fs.writeFileSync(abs('ctx.ts'), 'function alpha() {}\nfunction beta() {}\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs('ctx.ts')));
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(1, 0, 1, 18);
    const ctx = await call('get_editor_context', {});
    assert.match(ctx.text, new RegExp(`Active editor: ${rel('ctx.ts').replace(/[.]/g, '\\.')}`));
    assert.match(ctx.text, /Selection \(lines 2–2\):\nfunction beta\(\) {}/);
    const collection = vscode.languages.createDiagnosticCollection('agent-test');
    try {
      collection.set(doc.uri, [
        new vscode.Diagnostic(new vscode.Range(0, 9, 0, 14), 'alpha is unused', vscode.DiagnosticSeverity.Warning),
      ]);
      const diags = await call('get_diagnostics', { path: rel('ctx.ts') });
      assert.match(diags.text, new RegExp(`ctx\\.ts:1:10: warning alpha is unused`));
      const all = await call('get_diagnostics', {});
      assert.match(all.text, /alpha is unused/);
    } finally {
      collection.dispose();
    }
  });

  it('agent: run_command in a terminal returns output 42 and exit code 3', async () => {
    const r = await call('run_command', {
      command: 'node -e "console.log(42); process.exit(3)"',
      cwd: path.basename(dir),
    });
    report(
      `run_command mode on VS Code ${vscode.version}: ${String(r.details?.mode)}${r.details?.mode === 'process' ? ' (shell integration did not activate)' : ''}`,
    );
    assert.ok(!r.result.is_error, r.text);
    assert.match(r.text, /^Exit code: 3$/m);
    assert.match(r.text, /^42$/m);
  });

  it('agent: run_command through the child-process fallback returns output 42 and exit code 3 and says so', async () => {
    const fallback = createAgentHost({
      storage: { globalStorageUri: vscode.Uri.file(path.join(storage, 'g2')) },
      proposalScheme: `${SCHEME}-2`,
      commands: { shellIntegrationWaitMs: 0 },
    });
    try {
      const r = await call('run_command', { command: 'node -e "console.log(42); process.exit(3)"' }, { h: fallback });
      assert.strictEqual(r.details?.mode, 'process');
      assert.match(r.text, /^\[Ran as a background process in the workspace folder, not in a terminal/);
      assert.match(r.text, /^Exit code: 3$/m);
      assert.match(r.text, /^42$/m);
      assert.ok(!r.text.includes(process.env.MODEL_GATEWAY_API_KEY || 'no key in this environment'));
      const env = await call(
        'run_command',
        { command: 'node -e "console.log(String(process.env.MODEL_GATEWAY_API_KEY))"' },
        { h: fallback },
      );
      assert.match(env.text, /^undefined$/m, 'the extension key is not in the command environment');
    } finally {
      fallback.dispose();
    }
  });

  for (const mode of ['terminal', 'process'] as const) {
    it(`agent: Stop during a never-ending command ends it (${mode})`, async () => {
      const h =
        mode === 'terminal'
          ? host
          : createAgentHost({
              storage: { globalStorageUri: vscode.Uri.file(path.join(storage, 'g3')) },
              proposalScheme: `${SCHEME}-3`,
              commands: { shellIntegrationWaitMs: 0 },
            });
      const pidFile = abs(`pid-${mode}.txt`);
      try {
        const stop = new AbortController();
        const running = call(
          'run_command',
          {
            command: `node -e "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)" "${pidFile}"`,
          },
          { h, signal: stop.signal },
        );
        const pid = Number(
          await waitForValue(
            'the command to start',
            () => (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8') || undefined : undefined),
            30_000,
          ),
        );
        stop.abort();
        const r = await running;
        assert.match(r.text, /Stopped by the user/);
        await waitForValue(
          `process ${pid} to end`,
          () => {
            try {
              process.kill(pid, 0);
              return undefined;
            } catch {
              return true;
            }
          },
          15_000,
        );
      } finally {
        if (h !== host) h.dispose();
      }
    });
  }

  it('agent: a command that outlives modelGateway.agent.commandTimeoutSeconds is interrupted and reported as timed out', async () => {
    const h = createAgentHost({
      storage: { globalStorageUri: vscode.Uri.file(path.join(storage, 'g4')) },
      proposalScheme: `${SCHEME}-4`,
      commands: { shellIntegrationWaitMs: 0 },
    });
    await settings().update('commandTimeoutSeconds', 5, vscode.ConfigurationTarget.Global);
    try {
      const r = await call(
        'run_command',
        { command: 'node -e "console.log(\'started\'); setInterval(() => {}, 1000)"' },
        { h },
      );
      assert.strictEqual(r.result.is_error, true);
      assert.match(r.text, /Timed out after 5 s and was interrupted/);
      assert.match(r.text, /^started$/m);
    } finally {
      await settings().update('commandTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
      h.dispose();
    }
  });

  it('agent: checkpoint restore brings back modified, created and deleted files, also from a new instance (reload)', async () => {
    fs.writeFileSync(abs('cp-mod.ts'), 'original\n');
    fs.writeFileSync(abs('cp-del.ts'), 'to be deleted\n');
    await settings().update('autoApproveWrites', true, vscode.ConfigurationTarget.Global);
    await host.beginTurn('turn_1');
    assert.match((await call('propose_edit', { path: rel('cp-mod.ts'), content: 'changed once\n' })).text, /^Accepted/);
    assert.match((await call('create_file', { path: rel('sub/cp-new.ts'), content: 'new file\n' })).text, /^Accepted/);
    assert.match((await call('delete_file', { path: rel('cp-del.ts') })).text, /^Accepted/);
    await host.endTurn();
    await host.beginTurn('turn_2');
    assert.match(
      (await call('propose_edit', { path: rel('cp-mod.ts'), content: 'changed twice\n' })).text,
      /^Accepted/,
    );
    await host.endTurn();
    assert.strictEqual(fs.readFileSync(abs('cp-mod.ts'), 'utf8'), 'changed twice\n');
    assert.ok(fs.existsSync(abs('sub/cp-new.ts')));
    assert.ok(!fs.existsSync(abs('cp-del.ts')));

    // A new instance on the same storage, as after a window reload.
    const reloaded = new Checkpoints(
      vscode.Uri.joinPath(vscode.Uri.file(path.join(storage, 'ws')), 'agent-checkpoints'),
    );
    const list = await reloaded.list();
    assert.deepStrictEqual(
      list.map((c) => [c.turnId, c.files.length]),
      [
        ['turn_1', 3],
        ['turn_2', 1],
      ],
    );
    const restored = await reloaded.restore('turn_1');
    assert.deepStrictEqual(restored.turns, ['turn_2', 'turn_1']);
    assert.strictEqual(fs.readFileSync(abs('cp-mod.ts'), 'utf8'), 'original\n');
    assert.ok(!fs.existsSync(abs('sub/cp-new.ts')));
    assert.strictEqual(fs.readFileSync(abs('cp-del.ts'), 'utf8'), 'to be deleted\n');
    assert.deepStrictEqual(await reloaded.list(), []);
  });

  it('agent: the real paths of the folders and storage are resolved; VS Code tools are bridged where lm.tools exists', async () => {
    const snap = await host.snapshot();
    assert.deepStrictEqual(snap.policy.workspaceFolders, [
      (await realPathOf(vscode.workspace.workspaceFolders![0].uri.fsPath)).real,
    ]);
    const available = lmToolsAvailable();
    const bridged = host.tools().filter((t) => t.approvalClass === 'external');
    report(
      `vscode.lm.tools on ${vscode.version}: ${
        available
          ? `${vscode.lm.tools.length} tools (${vscode.lm.tools
              .slice(0, 5)
              .map((t) => t.name)
              .join(', ')})`
          : 'not available'
      }`,
    );
    const expected = available ? vscode.lm.tools.filter((t) => !excludedFromBridge(t.name)) : [];
    assert.strictEqual(bridged.length, expected.length);
    assert.ok(!bridged.some((t) => t.name.startsWith('modelGateway_')), 'our own tools are not bridged back');
    assert.ok(!bridged.some((t) => t.name.endsWith('_internal')));
    for (const t of bridged) assert.match(t.name, /^[A-Za-z0-9_-]{1,64}$/);
  });
});
