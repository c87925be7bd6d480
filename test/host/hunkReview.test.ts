// Per-hunk review of a proposed edit inside a real VS Code: propose_edit with two edits gives a change of two hunks;
// one accepted and one rejected leaves the file holding exactly the accepted one (written through WorkspaceEdit and a
// checkpoint, undoable, the diff's left side following), and the model is told it was partly accepted. A hunk
// accepted after the file changed on disk is refused with a message and writes nothing; Reject all after one
// accepted hunk keeps that hunk; Restore brings back the text from before the turn.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Tool } from '../../src/agent';
import { runToolCalls } from '../../src/agent/toolRunner';
import { createAgentHost, type AgentHost } from '../../src/agentHost';
import { closeEditorsWithoutSaving, waitForValue } from '../support/hostTest';

const SCHEME = 'model-gateway-proposal-hunks';
const ORIGINAL = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n';
const TWO_EDITS = [
  { search: 'const a = 1;', replace: 'const a = 10;' },
  { search: 'const d = 4;', replace: 'const d = 40;' },
];

describe('agent: per-hunk review in the extension host', function () {
  this.timeout(120_000);
  let host: AgentHost;
  let storage: string;
  let dir: string;
  const rel = (name: string) => `${path.basename(dir)}/${name}`;
  const abs = (name: string) => path.join(dir, name);

  /** Runs propose_edit as the loop does (writes always ask here: the default settings); resolves with its result. */
  async function proposeEdit(name: string, edits: Array<{ search: string; replace: string }>): Promise<string> {
    const tools = new Map(host.tools({ vscodeTools: false }).map((t) => [t.name, t as Tool<never>]));
    const out = await runToolCalls(
      [
        {
          block: { type: 'tool_use', id: `tu_${Date.now()}`, name: 'propose_edit', input: { path: rel(name), edits } },
        },
      ],
      1,
      {
        tools,
        policy: (await host.snapshot()).policy,
        approve: async () => ({ approved: true }),
        emit: () => undefined,
        signal: new AbortController().signal,
      },
    );
    const c = out.results[0].content;
    return typeof c === 'string' ? c : (c ?? []).map((b) => ('text' in b ? b.text : '')).join('');
  }

  const pendingWithHunks = (n: number) =>
    waitForValue(`a pending change of ${n} hunks`, () => {
      const c = host.changes.list()[0];
      return c?.hunks?.length === n ? c : undefined;
    });

  before(() => {
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    dir = fs.mkdtempSync(path.join(root, 'agent-hunks-'));
    storage = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mg-agent-hunks-')));
    host = createAgentHost({
      storage: {
        globalStorageUri: vscode.Uri.file(path.join(storage, 'global')),
        storageUri: vscode.Uri.file(path.join(storage, 'ws')),
      },
      proposalScheme: SCHEME,
    });
  });

  afterEach(async () => {
    await host.changes.rejectAll('test cleanup');
    await closeEditorsWithoutSaving();
  });

  after(() => {
    host.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('agent: one hunk accepted and one rejected: the file holds exactly the accepted one; undo and Restore work', async () => {
    fs.writeFileSync(abs('two.js'), ORIGINAL);
    await host.beginTurn('hunk-turn-1');
    const running = proposeEdit('two.js', TWO_EDITS);
    const change = await pendingWithHunks(2);
    assert.deepStrictEqual(
      change.hunks!.map((h) => [h.line, h.added, h.removed, h.preview]),
      [
        [1, 1, 1, 'const a = 10;'],
        [4, 1, 1, 'const d = 40;'],
      ],
    );
    assert.deepStrictEqual([change.added, change.removed], [2, 2]);
    // The first hunk: written alone, at once; the second still pending and the diff's left side shows the new text.
    assert.deepStrictEqual(await host.changes.acceptHunk(change.id, change.hunks![0].key), { ok: true });
    assert.strictEqual(fs.readFileSync(abs('two.js'), 'utf8'), ORIGINAL.replace('a = 1;', 'a = 10;'));
    const left = host.changes.sides(change.id)!.original;
    assert.strictEqual(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(left)),
      ORIGINAL.replace('a = 1;', 'a = 10;'),
    );
    const rest = host.changes.list()[0];
    assert.deepStrictEqual(
      rest.hunks!.map((h) => h.preview),
      ['const d = 40;'],
    );
    // A stale key (the first hunk's) is refused, nothing changes.
    const stale = await host.changes.acceptHunk(change.id, change.hunks![0].key);
    assert.strictEqual(stale.ok, false);
    // The second hunk rejected: the change ends, partly accepted; the model is told which way the file differs.
    assert.deepStrictEqual(await host.changes.rejectHunk(change.id, rest.hunks![0].key), { ok: true });
    const result = await running;
    assert.match(result, /^Partly accepted: the user accepted 1 of 2 changed parts of your edit to .*two\.js/, result);
    assert.match(result, /const d = 4;/, result);
    assert.strictEqual(
      fs.readFileSync(abs('two.js'), 'utf8'),
      'const a = 10;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n',
    );
    assert.strictEqual(host.changes.list().length, 0);
    // Undo in the editor takes the accepted hunk back (it was one WorkspaceEdit).
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(abs('two.js')));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitForValue('undo', () => doc.getText() === ORIGINAL);
    await vscode.commands.executeCommand('redo');
    await waitForValue('redo', () => doc.getText() !== ORIGINAL);
    await doc.save();
    // The checkpoint holds the text from before the turn.
    await host.endTurn();
    await host.checkpoints.restore('hunk-turn-1');
    assert.strictEqual(fs.readFileSync(abs('two.js'), 'utf8'), ORIGINAL);
  });

  it('agent: a hunk accepted after the file changed on disk is refused and writes nothing', async () => {
    fs.writeFileSync(abs('moved.js'), ORIGINAL);
    const running = proposeEdit('moved.js', TWO_EDITS);
    const change = await pendingWithHunks(2);
    const elsewhere = ORIGINAL.replace('const b = 2;', 'const b = 22;');
    fs.writeFileSync(abs('moved.js'), elsewhere);
    const refused = await host.changes.acceptHunk(change.id, change.hunks![1].key);
    assert.strictEqual(refused.ok, false);
    assert.match(refused.ok ? '' : refused.message, /changed on disk or in the editor since this change was proposed/);
    assert.strictEqual(fs.readFileSync(abs('moved.js'), 'utf8'), elsewhere, 'nothing written');
    assert.strictEqual(host.changes.list()[0]?.hunks?.length, 2, 'still pending');
    await host.changes.reject(change.id, 'the user rejected it');
    assert.match(await running, /^Rejected:/);
  });

  it('agent: Reject all after one accepted hunk keeps that hunk; Accept all after one rejected applies the rest', async () => {
    fs.writeFileSync(abs('rest.js'), ORIGINAL);
    const first = proposeEdit('rest.js', TWO_EDITS);
    let change = await pendingWithHunks(2);
    assert.deepStrictEqual(await host.changes.acceptHunk(change.id, change.hunks![1].key), { ok: true });
    await host.changes.rejectAll('the user rejected all pending changes');
    assert.match(await first, /^Partly accepted: the user accepted 1 of 2/);
    assert.strictEqual(fs.readFileSync(abs('rest.js'), 'utf8'), ORIGINAL.replace('d = 4;', 'd = 40;'));

    fs.writeFileSync(abs('rest.js'), ORIGINAL);
    const second = proposeEdit('rest.js', TWO_EDITS);
    change = await pendingWithHunks(2);
    assert.deepStrictEqual(await host.changes.rejectHunk(change.id, change.hunks![0].key), { ok: true });
    // The proposed side now holds only the other hunk.
    const right = host.changes.sides(change.id)!.proposed;
    assert.strictEqual(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(right)),
      ORIGINAL.replace('d = 4;', 'd = 40;'),
    );
    await host.changes.acceptAll();
    assert.match(await second, /^Partly accepted: the user accepted 1 of 2/);
    assert.strictEqual(fs.readFileSync(abs('rest.js'), 'utf8'), ORIGINAL.replace('d = 4;', 'd = 40;'));
  });

  it("agent: the user's own edit of the proposed side is announced, and the hunks listed follow it", async () => {
    fs.writeFileSync(abs('typed.js'), ORIGINAL);
    const running = proposeEdit('typed.js', TWO_EDITS);
    const change = await pendingWithHunks(2);
    const announced: number[] = [];
    const listening = host.changes.onDidChange((list) => announced.push(list[0]?.hunks?.length ?? -1));
    try {
      // The user types the second part back to what it was, in the diff's right side (unsaved).
      const doc = await vscode.workspace.openTextDocument(host.changes.sides(change.id)!.proposed);
      const line = doc.lineAt(3);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, line.range, 'const d = 4;');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await waitForValue('the list announced with one hunk', () => announced.includes(1));
    } finally {
      listening.dispose();
    }
    const [only] = host.changes.list()[0].hunks!;
    assert.strictEqual(only.preview, 'const a = 10;');
    assert.deepStrictEqual(await host.changes.acceptHunk(change.id, only.key), { ok: true });
    assert.match(await running, /^Accepted with user changes/);
    assert.strictEqual(fs.readFileSync(abs('typed.js'), 'utf8'), ORIGINAL.replace('a = 1;', 'a = 10;'));
  });

  it('agent: a CRLF file without a final newline keeps both when one hunk is accepted', async () => {
    const crlf = 'one\r\ntwo\r\nthree\r\nfour';
    fs.writeFileSync(abs('crlf.txt'), crlf);
    const running = proposeEdit('crlf.txt', [
      { search: 'one', replace: 'ONE' },
      { search: 'four', replace: 'FOUR' },
    ]);
    const change = await pendingWithHunks(2);
    assert.deepStrictEqual(await host.changes.acceptHunk(change.id, change.hunks![1].key), { ok: true });
    await host.changes.rejectHunk(change.id, host.changes.list()[0].hunks![0].key);
    assert.match(await running, /^Partly accepted/);
    assert.strictEqual(fs.readFileSync(abs('crlf.txt'), 'utf8'), 'one\r\ntwo\r\nthree\r\nFOUR');
  });
});
