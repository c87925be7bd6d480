// Edits as diffs: a proposed change is never written directly. Its original and proposed texts live in a
// small in-memory file system (scheme model-gateway-proposal), VS Code's diff editor shows them, and the user
// accepts or rejects. The proposed side is writable, so the user can adjust it before accepting; the model is
// then told what the user changed. Accepting applies a WorkspaceEdit to the document (undo, dirty editors and
// save participants behave as for any edit), computed against the text the editor holds, never the disk.
import * as vscode from 'vscode';
import { applySearchReplace, changedRange, describeUserChange, proposalTitle, type SearchReplaceBlock } from './text';
import { realPathOf, type ResolvedPath } from './resolve';
import { ProposalFileSystem } from './proposalFileSystem';
import { PROPOSAL_SCHEME_PREFIX, proposalTabs } from './staleProposalTabs';

export const PROPOSAL_SCHEME = PROPOSAL_SCHEME_PREFIX;

export type ChangeKind = 'edit' | 'create' | 'delete';

export type ChangeOutcome =
  /** saved false: `unsaved` says why (the user's own unsaved changes are theirs to save; or the save failed). */
  | {
      status: 'accepted';
      userEdited: boolean;
      saved: boolean;
      unsaved?: 'user-changes' | 'save-failed';
      userChange?: string;
    }
  | { status: 'rejected'; reason?: string }
  /** Nothing was written: the file changed under the proposal, or the write failed. */
  | { status: 'failed'; message: string };

/** A pending change as the chat UI lists it. */
export interface PendingChangeInfo {
  id: string;
  kind: ChangeKind;
  /** Workspace-relative path for display. */
  path: string;
  /** The target file's URI (string form). */
  uri: string;
  toolUseId?: string;
  turnId?: string;
  /** Lines added and removed by the proposal (for the chat card). */
  added: number;
  removed: number;
}

export interface ProposeRequest {
  kind: ChangeKind;
  target: ResolvedPath;
  /** The text the proposal was computed against (the editor's buffer when open); undefined for create. */
  original: string | undefined;
  /** The proposed text; undefined for delete. */
  proposed: string | undefined;
  /** Search/replace blocks the proposal came from: reapplied when the buffer changed during review. */
  blocks?: SearchReplaceBlock[];
  toolUseId?: string;
  turnId?: string;
}

interface Pending {
  info: PendingChangeInfo;
  req: ProposeRequest;
  originalUri: vscode.Uri;
  proposedUri: vscode.Uri;
  settle(outcome: ChangeOutcome): void;
  done: Promise<ChangeOutcome>;
  busy: boolean;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The document of `uri` holding the text a save would replace. A clean document can lag behind the disk for a
 * moment after another program (a formatter, a command the model ran) wrote the file; VS Code reloads it when
 * its watcher reports the change. An edit computed on that stale text would fail to save, or bring old text
 * back. Waits up to `ms` for a clean document to match the disk (files that do not decode as UTF-8 cannot be
 * compared and are taken as they are).
 */
export async function settledDocument(uri: vscode.Uri, ms = 3000): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const deadline = Date.now() + ms;
  for (;;) {
    if (doc.isDirty) return doc;
    const disk = await vscode.workspace.fs.readFile(uri).then(
      (b) => new TextDecoder().decode(b),
      () => undefined,
    );
    if (disk === undefined || disk.includes('\ufffd')) return doc;
    const text = doc.getText();
    if (disk === text || disk.replace(/\r\n/g, '\n') === text.replace(/\r\n/g, '\n') || Date.now() > deadline)
      return doc;
    await sleep(100);
  }
}

function lineCount(text: string | undefined): number {
  if (!text) return 0;
  const n = text.split(/\r?\n/).length;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Lines added and removed, from the changed middle (prefix and suffix lines in common are not counted). */
function lineStats(a: string | undefined, b: string | undefined): { added: number; removed: number } {
  const la = (a ?? '').split(/\r?\n/);
  const lb = (b ?? '').split(/\r?\n/);
  let s = 0;
  while (s < la.length && s < lb.length && la[s] === lb[s]) s++;
  let ea = la.length;
  let eb = lb.length;
  while (ea > s && eb > s && la[ea - 1] === lb[eb - 1]) {
    ea--;
    eb--;
  }
  if (a === undefined) return { added: lineCount(b), removed: 0 };
  if (b === undefined) return { added: 0, removed: lineCount(a) };
  return { added: eb - s, removed: ea - s };
}

export interface PendingChangesOptions {
  /** URI scheme of the two diff sides (default PROPOSAL_SCHEME; tests use their own next to the extension's). */
  scheme?: string;
  /** Called before the first write to a file (checkpoints). A throw cancels the write. */
  beforeWrite?(uri: vscode.Uri): Promise<void>;
}

/** The pending changes of this window, and the diff editors that show them. */
export class PendingChanges implements vscode.Disposable {
  private readonly fsp = new ProposalFileSystem();
  private readonly pending = new Map<string, Pending>();
  private readonly emitter = new vscode.EventEmitter<PendingChangeInfo[]>();
  private readonly registration: vscode.Disposable;
  private counter = 0;
  readonly scheme: string;
  /** Fires whenever the list changes (a change proposed, accepted, rejected). */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: PendingChangesOptions = {}) {
    this.scheme = options.scheme ?? PROPOSAL_SCHEME;
    this.registration = vscode.workspace.registerFileSystemProvider(this.scheme, this.fsp, { isCaseSensitive: true });
  }

  dispose(): void {
    void this.rejectAll('the window is closing');
    this.registration.dispose();
    this.emitter.dispose();
  }

  list(): PendingChangeInfo[] {
    return [...this.pending.values()].map((p) => ({ ...p.info }));
  }

  /** Registers a change for review. `done` settles when it is accepted, rejected or fails. */
  propose(req: ProposeRequest): { id: string; done: Promise<ChangeOutcome> } {
    const id = `${Date.now().toString(36)}-${(++this.counter).toString(36)}`;
    const shown = req.target.display.replace(/\\/g, '/').replace(/^\/+/, '') || 'file';
    const side = (query: 'original' | 'proposed') =>
      vscode.Uri.from({ scheme: this.scheme, authority: id, path: `/${shown}`, query });
    const originalUri = side('original');
    const proposedUri = side('proposed');
    this.fsp.set(originalUri, req.original ?? '', true);
    // A deletion's proposed side is read-only: there is nothing to adjust.
    this.fsp.set(proposedUri, req.proposed ?? '', req.kind === 'delete');
    let settle!: (o: ChangeOutcome) => void;
    const done = new Promise<ChangeOutcome>((resolve) => (settle = resolve));
    const info: PendingChangeInfo = {
      id,
      kind: req.kind,
      path: req.target.display,
      uri: req.target.uri.toString(),
      toolUseId: req.toolUseId,
      turnId: req.turnId,
      ...lineStats(req.original, req.proposed),
    };
    this.pending.set(id, { info, req, originalUri, proposedUri, settle, done, busy: false });
    this.fire();
    return { id, done };
  }

  /** Opens the diff editor: original (left, read-only) against proposed (right, editable). */
  async open(id: string): Promise<boolean> {
    const p = this.pending.get(id);
    if (!p) return false;
    const title = proposalTitle(
      p.req.kind,
      p.info.path,
      [...this.pending.values()].map((o) => o.info.path),
      vscode.l10n,
    );
    // A new file has nothing to compare with: it opens alone (a diff against an empty text showed a deleted line 1),
    // under the same kind of title (vscode.open's label).
    if (p.req.kind === 'create')
      await vscode.commands.executeCommand('vscode.open', p.proposedUri, { preview: false }, title);
    else await vscode.commands.executeCommand('vscode.diff', p.originalUri, p.proposedUri, title, { preview: false });
    return true;
  }

  /** The URIs of a change's two sides (for tests and for the chat UI's "show diff"). */
  sides(id: string): { original: vscode.Uri; proposed: vscode.Uri } | undefined {
    const p = this.pending.get(id);
    return p && { original: p.originalUri, proposed: p.proposedUri };
  }

  async accept(id: string): Promise<ChangeOutcome | undefined> {
    const p = this.pending.get(id);
    if (!p || p.busy) return undefined;
    p.busy = true;
    let outcome: ChangeOutcome;
    try {
      outcome = await this.apply(p);
    } catch (e) {
      outcome = {
        status: 'failed',
        message: `the edit could not be applied: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
    await this.finish(p, outcome);
    return outcome;
  }

  async reject(id: string, reason?: string): Promise<ChangeOutcome | undefined> {
    const p = this.pending.get(id);
    if (!p || p.busy) return undefined;
    p.busy = true;
    const outcome: ChangeOutcome = { status: 'rejected', reason };
    await this.finish(p, outcome);
    return outcome;
  }

  async acceptAll(): Promise<Array<{ id: string; outcome: ChangeOutcome | undefined }>> {
    const out: Array<{ id: string; outcome: ChangeOutcome | undefined }> = [];
    // One at a time: two changes to one file must apply in order, each against the other's result.
    for (const id of [...this.pending.keys()]) out.push({ id, outcome: await this.accept(id) });
    return out;
  }

  rejectAll(reason?: string): Promise<Array<{ id: string; outcome: ChangeOutcome | undefined }>> {
    return Promise.all([...this.pending.keys()].map(async (id) => ({ id, outcome: await this.reject(id, reason) })));
  }

  /** The text of the proposed side as the user left it: the open editor's buffer if any, else the stored text. */
  private finalText(p: Pending): string | undefined {
    if (p.req.kind === 'delete') return undefined;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.proposedUri.toString());
    return doc ? doc.getText() : (this.fsp.text(p.proposedUri) ?? p.req.proposed);
  }

  private async apply(p: Pending): Promise<ChangeOutcome> {
    const { req } = p;
    const uri = req.target.uri;
    if (uri.scheme === 'file') {
      // The approval was given for a real path: a symlink swapped since then must not redirect the write.
      const now = await realPathOf(uri.fsPath);
      if (now.real !== req.target.realPath) {
        return {
          status: 'failed',
          message: `${req.target.display} now resolves to ${now.real}, not to ${req.target.realPath} as when it was proposed; nothing was written.`,
        };
      }
    }
    let final = this.finalText(p);
    const userEdited = final !== undefined && final !== req.proposed;
    const exists = await vscode.workspace.fs.stat(uri).then(
      (s) => s.type,
      () => undefined,
    );
    if (req.kind === 'create') {
      if (exists !== undefined)
        return {
          status: 'failed',
          message: `${req.target.display} was created by someone else while the proposal was open; nothing was written. Read it and propose an edit instead.`,
        };
      await this.options.beforeWrite?.(uri);
      const edit = new vscode.WorkspaceEdit();
      edit.createFile(uri, { overwrite: false, contents: new TextEncoder().encode(final ?? '') });
      if (!(await vscode.workspace.applyEdit(edit)))
        return { status: 'failed', message: `VS Code refused to create ${req.target.display}.` };
      return this.accepted(p, userEdited, final ?? '', true);
    }
    if (exists === undefined)
      return { status: 'failed', message: `${req.target.display} no longer exists; nothing was written.` };
    if (exists & vscode.FileType.Directory)
      return { status: 'failed', message: `${req.target.display} is a directory.` };
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (req.kind === 'delete') {
      if (open?.isDirty)
        return {
          status: 'failed',
          message: `${req.target.display} has unsaved changes in the editor; it was not deleted.`,
        };
      await this.options.beforeWrite?.(uri);
      const edit = new vscode.WorkspaceEdit();
      edit.deleteFile(uri, { ignoreIfNotExists: false });
      if (!(await vscode.workspace.applyEdit(edit)))
        return { status: 'failed', message: `VS Code refused to delete ${req.target.display}.` };
      return { status: 'accepted', userEdited: false, saved: true };
    }
    // An edit: against the editor's current text (unsaved changes included), never the disk.
    const doc = await settledDocument(uri);
    const current = doc.getText();
    if (current !== req.original) {
      const redo = req.blocks && !userEdited ? applySearchReplace(current, req.blocks) : undefined;
      if (!redo?.ok) {
        return {
          status: 'failed',
          message: `${req.target.display} changed in the editor while the proposal was open, and the proposal no longer applies to it; nothing was written. Read the file again and propose again.`,
        };
      }
      final = redo.text;
    }
    const wasDirty = doc.isDirty;
    await this.options.beforeWrite?.(uri);
    const r = changedRange(current, final ?? '');
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      uri,
      new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.endA)),
      (final ?? '').slice(r.start, r.endB),
    );
    if (!(await vscode.workspace.applyEdit(edit)))
      return { status: 'failed', message: `VS Code refused the edit to ${req.target.display}.` };
    // Saved unless the user had unsaved changes there: their work is theirs to save.
    if (wasDirty) return this.accepted(p, userEdited, final ?? '', false, 'user-changes');
    const saved = await doc.save();
    return this.accepted(p, userEdited, final ?? '', saved, saved ? undefined : 'save-failed');
  }

  private accepted(
    p: Pending,
    userEdited: boolean,
    final: string,
    saved: boolean,
    unsaved?: 'user-changes' | 'save-failed',
  ): ChangeOutcome {
    return {
      status: 'accepted',
      userEdited,
      saved,
      unsaved,
      userChange: userEdited ? describeUserChange(p.req.proposed ?? '', final) : undefined,
    };
  }

  private async finish(p: Pending, outcome: ChangeOutcome): Promise<void> {
    this.pending.delete(p.info.id);
    this.fire();
    await this.closeDiff(p).catch(() => undefined);
    this.fsp.removeChange(p.info.id);
    p.settle(outcome);
  }

  /** Closes the change's diff tabs; an edited proposed side is saved to memory first, so no save prompt appears. */
  private async closeDiff(p: Pending): Promise<void> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.proposedUri.toString());
    if (doc?.isDirty) await doc.save();
    const tabs = proposalTabs(p.proposedUri);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  private fire(): void {
    this.emitter.fire(this.list());
  }
}

/** What the model is told about a reviewed change. */
export function outcomeText(kind: ChangeKind, path: string, o: ChangeOutcome): string {
  if (o.status === 'rejected')
    return `Rejected: the user rejected the ${kind === 'create' ? 'new file' : kind === 'delete' ? 'deletion of' : 'edit to'} ${path}; nothing was written.${o.reason ? ` Reason: ${o.reason}` : ''}`;
  if (o.status === 'failed') return `Not applied: ${o.message}`;
  const what = kind === 'create' ? `created ${path}` : kind === 'delete' ? `deleted ${path}` : `edited ${path}`;
  const save = o.saved
    ? ''
    : o.unsaved === 'save-failed'
      ? ' The change is in the editor but saving it to disk failed (the file may have changed on disk); the user has to resolve it.'
      : ' The file has other unsaved changes of the user in the editor, so it was not saved to disk yet.';
  if (o.userEdited)
    return `Accepted with user changes: the user changed your proposal before accepting, then ${what}: ${o.userChange ?? ''}${save}`;
  return `Accepted: ${what} as proposed.${save}`;
}
