// What the user does with the agent's pending changes: a whole change from the chat's list (Open diff / Accept /
// Reject), one hunk of it from the list, and the same from the diff editor (its title bar and context menu: the
// hunk at the cursor, or what is left of the change). Every refusal comes back in words for the user.
import * as vscode from 'vscode';
import { hunkAtLine, hunkKey } from '../../agent/hunks';
import type { AgentHost } from '../../agentHost';

const notPending = () => vscode.l10n.t('That change is no longer pending.');

/** Open, Accept or Reject a whole change from the chat's list. */
export async function changeAction(
  host: AgentHost,
  id: string,
  action: 'open' | 'accept' | 'reject',
): Promise<string | undefined> {
  const done =
    action === 'open'
      ? await host.changes.open(id)
      : action === 'accept'
        ? await host.changes.accept(id)
        : await host.changes.reject(id, 'the user rejected it');
  return done ? undefined : notPending();
}

/** Accept or Reject one hunk of a change (the chat's list names it by its key). */
export async function hunkAction(
  host: AgentHost,
  id: string,
  key: string,
  action: 'accept' | 'reject',
): Promise<string | undefined> {
  const r = action === 'accept' ? await host.changes.acceptHunk(id, key) : await host.changes.rejectHunk(id, key);
  return r.ok ? undefined : r.message;
}

/**
 * The diff side a command from the editor means: the URI the menu passed (editor/title passes the diff's right
 * side), else the active editor's document. Undefined when it shows no pending change.
 */
function sideOf(
  host: AgentHost,
  arg: unknown,
): { change: NonNullable<ReturnType<AgentHost['changes']['changeOfSide']>>; editor?: vscode.TextEditor } | undefined {
  const editor = vscode.window.activeTextEditor;
  const uri = arg instanceof vscode.Uri ? arg : editor?.document.uri;
  if (!uri) return undefined;
  const fromEditor = editor && host.changes.changeOfSide(editor.document.uri);
  // The editor with the cursor, when it shows the same change as the menu's URI (either side of that diff).
  const change = host.changes.changeOfSide(uri);
  if (fromEditor && change && fromEditor.id === change.id) return { change: fromEditor, editor };
  return change && { change };
}

/** Accept or Reject the hunk at the cursor of a proposed change's diff editor. */
export async function hunkAtCursor(host: AgentHost, action: 'accept' | 'reject', arg?: unknown): Promise<void> {
  const found = sideOf(host, arg);
  if (!found) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Model Gateway: this editor shows no pending change.'));
    return;
  }
  const { change, editor } = found;
  const line = editor?.selection.active.line ?? 0;
  const index = editor ? hunkAtLine(change.hunks, line, change.side) : change.hunks.length === 1 ? 0 : -1;
  if (index < 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Model Gateway: put the cursor on a changed line of the proposed change first.'),
    );
    return;
  }
  const refused = await hunkAction(host, change.id, hunkKey(change.hunks[index]), action);
  if (refused) void vscode.window.showWarningMessage(refused);
}

/** Accept or Reject what is left of the change a diff editor shows. */
export async function remainingOfChange(host: AgentHost, action: 'accept' | 'reject', arg?: unknown): Promise<void> {
  const found = sideOf(host, arg);
  if (!found) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Model Gateway: this editor shows no pending change.'));
    return;
  }
  const outcome =
    action === 'accept'
      ? await host.changes.accept(found.change.id)
      : await host.changes.reject(found.change.id, 'the user rejected it');
  if (!outcome) void vscode.window.showWarningMessage(notPending());
  else if (outcome.status === 'failed') void vscode.window.showWarningMessage(outcome.message);
}
