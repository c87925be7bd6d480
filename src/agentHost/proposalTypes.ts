// What the review of a proposed change reports (proposals.ts): the outcome, the pending list's entries and their hunks,
// and what the model is told. Pure: no vscode.
import { hunkKey, type Hunk } from '../agent/hunks';
import { describeUserChange } from './text';

export type ChangeKind = 'edit' | 'create' | 'delete';

export type ChangeOutcome =
  /** saved false: `unsaved` says why (the user's own unsaved changes are theirs to save; or the save failed). */
  | {
      status: 'accepted';
      userEdited: boolean;
      saved: boolean;
      unsaved?: 'user-changes' | 'save-failed';
      userChange?: string;
      /** Set when the user decided part by part: how many hunks went in and how many were rejected. */
      parts?: { accepted: number; rejected: number };
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
  /** Lines added and removed by what is still pending (for the chat card). */
  added: number;
  removed: number;
  /** An edit's parts still pending, each to accept or reject on its own (none for a new file or a deletion). */
  hunks?: HunkInfo[];
}

export interface HunkInfo {
  /** Names the hunk in acceptHunk / rejectHunk; another key once the hunk moved or changed. */
  key: string;
  /** 1-based line of the proposed side (the diff's right) where the hunk starts. */
  line: number;
  added: number;
  removed: number;
  /** Its first changed line, trimmed and capped (display only). */
  preview: string;
}

/** What a decision on one hunk did; `message` (refused) says why nothing was written, in the user's language. */
export type HunkResult = { ok: true } | { ok: false; message: string };

/** Lines added and removed (for the chat card), summed over the hunks. */
export function lineStats(hunks: readonly Hunk[]): { added: number; removed: number } {
  return {
    added: hunks.reduce((n, h) => n + h.added.length, 0),
    removed: hunks.reduce((n, h) => n + h.removed.length, 0),
  };
}

/** A hunk as the chat UI lists it: where the diff's right side shows it, its size and its first changed line. */
export function hunkInfo(h: Hunk): HunkInfo {
  const first = (h.added[0] ?? h.removed[0] ?? '').trim();
  return {
    key: hunkKey(h),
    line: h.propStart + 1,
    added: h.added.length,
    removed: h.removed.length,
    preview: first.length > 80 ? `${first.slice(0, 79)}…` : first,
  };
}

/** An accepted change's outcome: `final` was written; the model is told how it differs from its own proposal. */
export function acceptedOutcome(
  modelProposed: string | undefined,
  userEdited: boolean,
  final: string,
  write: { saved: boolean; unsaved?: 'user-changes' | 'save-failed' },
  parts?: { accepted: number; rejected: number },
): ChangeOutcome {
  return {
    status: 'accepted',
    userEdited,
    saved: write.saved,
    unsaved: write.unsaved,
    userChange: userEdited ? describeUserChange(modelProposed ?? '', final) : undefined,
    ...(parts ? { parts } : {}),
  };
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
  const parts = o.parts && o.parts.rejected > 0 ? o.parts : undefined;
  if (parts)
    return `Partly accepted: the user accepted ${parts.accepted} of ${parts.accepted + parts.rejected} changed parts of your edit to ${path} and rejected the others, so the file differs from your proposal: ${o.userChange ?? ''}${save}`;
  if (o.userEdited)
    return `Accepted with user changes: the user changed your proposal before accepting, then ${what}: ${o.userChange ?? ''}${save}`;
  return `Accepted: ${what} as proposed.${save}`;
}
