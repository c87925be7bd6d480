// Edits as diffs: a proposed change is never written directly. Its original and proposed texts live in a
// small in-memory file system (scheme model-gateway-proposal), VS Code's diff editor shows them, and the user
// accepts or rejects. The proposed side is writable, so the user can adjust it before accepting; the model is
// then told what the user changed. Accepting applies a WorkspaceEdit to the document (undo, dirty editors and
// save participants behave as for any edit), computed against the text the editor holds, never the disk.
import * as vscode from 'vscode';
import { applySearchReplace, changedRange, proposalTitle, type SearchReplaceBlock } from './text';
import type { ResolvedPath } from './resolve';
import { ProposalFileSystem } from './proposalFileSystem';
import { documentHolding, settledDocument, targetMoved } from './settledDocument';
import { applyHunks, diffHunks, hunkKey, type Hunk } from '../agent/hunks';
import {
  acceptedOutcome,
  hunkInfo,
  lineStats,
  type ChangeKind,
  type ChangeOutcome,
  type HunkResult,
  type PendingChangeInfo,
} from './proposalTypes';

export {
  outcomeText,
  type ChangeKind,
  type ChangeOutcome,
  type HunkInfo,
  type HunkResult,
  type PendingChangeInfo,
} from './proposalTypes';
import { PROPOSAL_SCHEME_PREFIX, proposalTabs } from './staleProposalTabs';

export const PROPOSAL_SCHEME = PROPOSAL_SCHEME_PREFIX;

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
  /** A copy: after a hunk is accepted, `original` is the file's text with it (the diff's left side). */
  req: ProposeRequest;
  /** The proposed text as the model sent it (what the model is told the result differs from). */
  modelProposed: string | undefined;
  /** Hunks decided one by one, and how the last hunk write was saved. */
  parts: { accepted: number; rejected: number };
  lastWrite?: { saved: boolean; unsaved?: 'user-changes' | 'save-failed' };
  originalUri: vscode.Uri;
  proposedUri: vscode.Uri;
  settle(outcome: ChangeOutcome): void;
  done: Promise<ChangeOutcome>;
  busy: boolean;
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
    this.registration = vscode.Disposable.from(
      vscode.workspace.registerFileSystemProvider(this.scheme, this.fsp, { isCaseSensitive: true }),
      // The user edits a proposed side: the hunks the chat lists follow.
      vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.scheme === this.scheme && this.fire()),
    );
  }

  dispose(): void {
    void this.rejectAll('the window is closing');
    this.registration.dispose();
    this.emitter.dispose();
  }

  /** The pending changes, their line counts and hunks as of the two sides' current texts. */
  list(): PendingChangeInfo[] {
    return [...this.pending.values()].map((p) => {
      const hunks = this.hunksOf(p);
      return { ...p.info, ...lineStats(hunks), hunks: p.req.kind === 'edit' ? hunks.map(hunkInfo) : undefined };
    });
  }

  /** The hunks between the diff's two sides now (the proposed side as the user left it). */
  private hunksOf(p: Pending): Hunk[] {
    return diffHunks(p.req.original ?? '', this.finalText(p) ?? '');
  }

  /** The pending change a diff side belongs to, the side, and the hunks of that change now. */
  changeOfSide(uri: vscode.Uri): { id: string; side: 'original' | 'proposed'; hunks: Hunk[] } | undefined {
    const key = uri.toString();
    for (const p of this.pending.values()) {
      const side = p.proposedUri.toString() === key ? 'proposed' : p.originalUri.toString() === key ? 'original' : '';
      if (side) return { id: p.info.id, side, hunks: this.hunksOf(p) };
    }
    return undefined;
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
      added: 0,
      removed: 0,
    };
    const parts = { accepted: 0, rejected: 0 };
    const p: Pending = {
      info,
      req: { ...req },
      modelProposed: req.proposed,
      parts,
      originalUri,
      proposedUri,
      settle,
      done,
      busy: false,
    };
    this.pending.set(id, p);
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
    // Parts accepted one by one stay written: the change ends as partly accepted.
    const outcome: ChangeOutcome =
      p.parts.accepted > 0 ? this.partsDone(p, this.hunksOf(p).length) : { status: 'rejected', reason };
    await this.finish(p, outcome);
    return outcome;
  }

  /** Accepts one hunk of an edit: the file gets exactly that part (checkpointed first); the others stay pending. */
  acceptHunk(id: string, key: string): Promise<HunkResult> {
    return this.decideHunk(id, key, true);
  }

  /** Rejects one hunk of an edit: it leaves the proposal, nothing is written. */
  rejectHunk(id: string, key: string): Promise<HunkResult> {
    return this.decideHunk(id, key, false);
  }

  /** The outcome of a change decided part by part once nothing is pending (`rejectedNow`: hunks rejected at the end). */
  private partsDone(p: Pending, rejectedNow: number): ChangeOutcome {
    const final = p.req.original ?? '';
    const w = p.lastWrite ?? { saved: true };
    const parts = { accepted: p.parts.accepted, rejected: p.parts.rejected + rejectedNow };
    return acceptedOutcome(p.modelProposed, final !== p.modelProposed, final, w, parts);
  }

  private async decideHunk(id: string, key: string, accept: boolean): Promise<HunkResult> {
    const p = this.pending.get(id);
    if (!p || p.busy) return { ok: false, message: vscode.l10n.t('That change is no longer pending.') };
    if (p.req.kind !== 'edit') {
      const whole = accept ? await this.accept(id) : await this.reject(id, 'the user rejected it');
      if (!whole) return { ok: false, message: vscode.l10n.t('That change is no longer pending.') };
      return whole.status === 'failed' ? { ok: false, message: whole.message } : { ok: true };
    }
    p.busy = true;
    try {
      const base = p.req.original ?? '';
      const proposed = this.finalText(p) ?? '';
      const hunks = diffHunks(base, proposed);
      const index = hunks.findIndex((h) => hunkKey(h) === key);
      if (index < 0) {
        this.fire();
        return {
          ok: false,
          message: vscode.l10n.t(
            'That part of the change is no longer pending: the proposal changed. The list is updated.',
          ),
        };
      }
      if (accept) {
        const next = applyHunks(base, hunks, (_h, i) => i === index);
        const written = await this.writeHunk(p, base, next);
        if (!written.ok) return written;
        p.req.original = next;
        p.req.blocks = undefined; // the model's blocks were for the text before this part
        this.fsp.replace(p.originalUri, next);
        p.parts.accepted++;
      } else {
        await this.setProposedSide(
          p,
          applyHunks(base, hunks, (_h, i) => i !== index),
        );
        p.parts.rejected++;
      }
      if (hunks.length > 1) this.fire();
      else
        await this.finish(
          p,
          p.parts.accepted > 0
            ? this.partsDone(p, 0)
            : { status: 'rejected', reason: 'the user rejected each part of it' },
        );
      return { ok: true };
    } catch (e) {
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    } finally {
      p.busy = false;
    }
  }

  /**
   * Writes one accepted hunk: the file (the editor's text, unsaved changes included) must still hold `expected`,
   * the text the hunk was shown against; otherwise nothing is written and the user is told why.
   */
  private async writeHunk(p: Pending, expected: string, next: string): Promise<HunkResult> {
    const display = p.req.target.display;
    if (await targetMoved(p.req.target))
      return {
        ok: false,
        message: vscode.l10n.t(
          '{0} now leads to another file than when this change was proposed; nothing was written.',
          display,
        ),
      };
    const uri = p.req.target.uri;
    const doc = await documentHolding(uri, expected);
    if (!doc)
      return {
        ok: false,
        message: vscode.l10n.t(
          '{0} changed on disk or in the editor since this change was proposed; this part was not written. Reject the change and ask the agent to propose it again.',
          display,
        ),
      };
    const w = await this.replaceText(doc, expected, next);
    if (!w) return { ok: false, message: vscode.l10n.t('VS Code refused the edit to {0}.', display) };
    p.lastWrite = w;
    return { ok: true };
  }

  /** New text for the proposed side: through the open editor when there is one (its undo keeps working). */
  private async setProposedSide(p: Pending, text: string): Promise<void> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.proposedUri.toString());
    if (!doc) return this.fsp.replace(p.proposedUri, text);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new Error(vscode.l10n.t('VS Code refused to update the proposed side.'));
    await doc.save();
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

  /** The text of the proposed side as the user left it: the editor's unsaved buffer if any, else the stored text. */
  private finalText(p: Pending): string | undefined {
    if (p.req.kind === 'delete') return undefined;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.proposedUri.toString());
    // A clean editor holds what the side stores, or is still loading an older text: the store decides then.
    return doc?.isDirty ? doc.getText() : (this.fsp.text(p.proposedUri) ?? p.req.proposed);
  }

  private async apply(p: Pending): Promise<ChangeOutcome> {
    const { req } = p;
    const uri = req.target.uri;
    const moved = await targetMoved(p.req.target);
    if (moved) return { status: 'failed', message: moved };
    let final = this.finalText(p);
    const userEdited = final !== undefined && final !== p.modelProposed;
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
      return acceptedOutcome(p.modelProposed, userEdited, final ?? '', { saved: true });
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
    const remaining = diffHunks(current, final ?? '').length;
    const w = await this.replaceText(doc, current, final ?? '');
    if (!w) return { status: 'failed', message: `VS Code refused the edit to ${req.target.display}.` };
    const decided = p.parts.accepted + p.parts.rejected > 0;
    const parts = decided ? { accepted: p.parts.accepted + remaining, rejected: p.parts.rejected } : undefined;
    return acceptedOutcome(p.modelProposed, userEdited, final ?? '', w, parts);
  }

  /** Replaces `current` (the document's text) with `final` by one WorkspaceEdit, checkpointed first; saves it. */
  private async replaceText(
    doc: vscode.TextDocument,
    current: string,
    final: string,
  ): Promise<{ saved: boolean; unsaved?: 'user-changes' | 'save-failed' } | undefined> {
    const wasDirty = doc.isDirty;
    await this.options.beforeWrite?.(doc.uri);
    const r = changedRange(current, final);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      doc.uri,
      new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.endA)),
      final.slice(r.start, r.endB),
    );
    if (!(await vscode.workspace.applyEdit(edit))) return undefined; // VS Code refused it
    // Saved unless the user had unsaved changes there: their work is theirs to save.
    if (wasDirty) return { saved: false, unsaved: 'user-changes' };
    const saved = await doc.save();
    return saved ? { saved } : { saved, unsaved: 'save-failed' };
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
