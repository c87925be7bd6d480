// Write tools: propose_edit, create_file, delete_file. None of them writes: each registers a pending change
// (see proposals.ts), opens the diff and waits for the user's accept or reject, then tells the model what
// happened. When the policy would auto-approve the write (the user's autoApproveWrites setting, and not a
// protected path), the change is accepted at once, still through WorkspaceEdit and a checkpoint.
import * as vscode from 'vscode';
import * as fs from 'fs';
import * as nodePath from 'path';
import { changedPackageKeys, decide, type Tool, type ToolContext, type ToolResult } from '../../agent';
import { outcomeText, type ProposeRequest } from '../proposals';
import { settledDocument } from '../settledDocument';
import { pathTarget, type ResolvedPath } from '../resolve';
import { applySearchReplace, looksBinary, type SearchReplaceBlock } from '../text';
import { errorResult, openDocument, ResolvedInputs, str, UNTRUSTED, type Input, type ToolHost } from './common';

export interface EditToolOptions {
  /** Open the diff editor when a change waits for review (default true; the chat UI may open it itself). */
  openDiff?: boolean;
}

const MAX_EDIT_BYTES = 10 * 1024 * 1024;

async function review(
  host: ToolHost,
  toolName: string,
  req: ProposeRequest,
  ctx: ToolContext,
  options: EditToolOptions,
): Promise<ToolResult> {
  const snap = await host.snapshot();
  // The verdict the loop reached: 'auto' only when the settings auto-approve writes and no protection applies.
  const auto =
    (ctx.verdict ?? decide({ toolName, approvalClass: 'write', target: pathTarget(req.target) }, snap.policy))
      .decision === 'auto';
  const { id, done } = host.proposals.propose({
    ...req,
    toolUseId: ctx.toolUseId,
    turnId: host.checkpoints.currentTurn,
  });
  const onAbort = () => void host.proposals.reject(id, 'the user stopped the turn');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    if (ctx.signal.aborted) onAbort();
    else if (auto) void host.proposals.accept(id);
    else {
      ctx.progress(
        `Waiting for the user to review the ${req.kind === 'edit' ? 'edit to' : req.kind === 'create' ? 'new file' : 'deletion of'} ${req.target.display}`,
      );
      // Not awaited: the user's decision (accept/reject, or Stop) ends the wait, not how long the diff editor takes to open.
      if (options.openDiff !== false) void host.proposals.open(id).catch(() => undefined);
    }
    const outcome = await done;
    return {
      content: outcomeText(req.kind, req.target.display, outcome),
      isError: outcome.status === 'failed',
      details: { changeId: id, kind: req.kind, path: req.target.display, outcome, autoApproved: auto },
    };
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * For a write to a package.json: the keys holding commands (scripts, hook managers) that the write would change,
 * judged on the text the edit applies to (the open editor's, else the file's). Undefined for other files.
 */
async function packageKeysOf(
  r: ResolvedPath,
  next: (before: string | undefined) => string | undefined,
): Promise<{ packageKeys: { file: string; keys: string[] } } | undefined> {
  if (nodePath.basename(r.realPath).toLowerCase() !== 'package.json') return undefined;
  const before =
    openDocument(vscode.workspace, r.uri)?.getText() ??
    (r.exists ? await fs.promises.readFile(r.realPath, 'utf8').catch(() => undefined) : undefined);
  const keys = changedPackageKeys(before, next(before));
  return keys.length > 0 ? { packageKeys: { file: r.display, keys } } : undefined;
}

function blocksOf(input: Input): SearchReplaceBlock[] | undefined {
  const v = input.edits;
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length === 0)
    throw new Error('"edits" must be a non-empty array of {search, replace} blocks.');
  return v.map((b, i) => {
    const o = b as { search?: unknown; replace?: unknown } | null;
    if (!o || typeof o.search !== 'string' || typeof o.replace !== 'string')
      throw new Error(`edit block ${i + 1} needs string "search" and "replace" fields.`);
    return { search: o.search, replace: o.replace };
  });
}

/** Whole-file content in the document's line endings (a model writes \n; a CRLF file stays CRLF). */
function inEol(text: string, original: string): string {
  return original.includes('\r\n') && !text.includes('\r\n') ? text.replace(/\n/g, '\r\n') : text;
}

async function currentText(uri: vscode.Uri): Promise<{ text: string } | { error: string }> {
  const open = openDocument(vscode.workspace, uri);
  if (!open) {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_EDIT_BYTES) return { error: `the file is ${stat.size} bytes, too large to edit here` };
    if (looksBinary(await vscode.workspace.fs.readFile(uri))) return { error: 'it is a binary file' };
  }
  // The editor's view of the file (unsaved changes, encoding, BOM) is what a WorkspaceEdit will change.
  return { text: (await settledDocument(uri)).getText() };
}

export function proposeEditTool(host: ToolHost, options: EditToolOptions = {}): Tool<Input> {
  const inputs = new ResolvedInputs();
  return {
    name: 'propose_edit',
    description:
      'Propose an edit to an existing file, as search/replace blocks (each search must match exactly once) or as the whole new content; the user reviews it in a diff.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the workspace folder.' },
        edits: {
          type: 'array',
          description:
            'Applied in order. Each "search" is exact text of the current file (whitespace included) that occurs exactly once; include enough surrounding lines to make it unique.',
          items: {
            type: 'object',
            properties: { search: { type: 'string' }, replace: { type: 'string' } },
            required: ['search', 'replace'],
            additionalProperties: false,
          },
        },
        content: { type: 'string', description: 'The complete new file content (instead of edits).' },
      },
      required: ['path'],
      additionalProperties: false,
    },
    approvalClass: 'write',
    async target(input) {
      const blocks = blocksOf(input);
      const content = str(input, 'content');
      if ((blocks === undefined) === (content === undefined))
        throw new Error('give either "edits" or "content", not both and not neither.');
      const { r } = await inputs.targetNow(host, input, 'path');
      const scripts = await packageKeysOf(r, (before) => {
        if (before === undefined) return undefined;
        if (!blocks) return content;
        const applied = applySearchReplace(before, blocks);
        return applied.ok ? applied.text : before;
      });
      return {
        ...pathTarget(r),
        ...scripts,
        summary: !blocks
          ? vscode.l10n.t('Edit {0} (whole file)', r.display)
          : blocks.length === 1
            ? vscode.l10n.t('Edit {0} (1 block)', r.display)
            : vscode.l10n.t('Edit {0} ({1} blocks)', r.display, blocks.length),
      };
    },
    async invoke(input, ctx) {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const { r } = await inputs.invokeNow(host, input, 'path');
      if (!r.exists) return errorResult(`${r.display} does not exist: use create_file for a new file.`);
      const blocks = blocksOf(input);
      const content = str(input, 'content');
      const cur = await currentText(r.uri);
      if ('error' in cur) return errorResult(`${r.display} cannot be edited: ${cur.error}.`);
      let proposed: string;
      if (blocks) {
        const applied = applySearchReplace(cur.text, blocks);
        if (!applied.ok) return errorResult(`${r.display}: ${applied.message}`);
        proposed = applied.text;
      } else {
        proposed = inEol(content ?? '', cur.text);
      }
      if (proposed === cur.text) return { content: `No change: the proposal leaves ${r.display} as it is.` };
      return review(
        host,
        'propose_edit',
        { kind: 'edit', target: r, original: cur.text, proposed, blocks },
        ctx,
        options,
      );
    },
  };
}

export function createFileTool(host: ToolHost, options: EditToolOptions = {}): Tool<Input> {
  const inputs = new ResolvedInputs();
  return {
    name: 'create_file',
    description:
      'Propose a new file with the given content (parent folders are created); the user reviews it in a diff.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'New file path relative to the workspace folder.' },
        content: { type: 'string', description: 'The complete file content.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    approvalClass: 'write',
    async target(input) {
      const content = str(input, 'content', true);
      const { r } = await inputs.targetNow(host, input, 'path');
      const scripts = await packageKeysOf(r, () => content);
      return { ...pathTarget(r), ...scripts, summary: vscode.l10n.t('Create {0}', r.display) };
    },
    async invoke(input, ctx) {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const { r } = await inputs.invokeNow(host, input, 'path');
      const content = str(input, 'content', true);
      if (
        r.exists ||
        (await vscode.workspace.fs.stat(r.uri).then(
          () => true,
          () => false,
        ))
      )
        return errorResult(`${r.display} already exists: read it and use propose_edit.`);
      return review(
        host,
        'create_file',
        { kind: 'create', target: r, original: undefined, proposed: content },
        ctx,
        options,
      );
    },
  };
}

export function deleteFileTool(host: ToolHost, options: EditToolOptions = {}): Tool<Input> {
  const inputs = new ResolvedInputs();
  return {
    name: 'delete_file',
    description: 'Propose deleting a file (not a folder); the user reviews it in a diff.',
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'File path relative to the workspace folder.' } },
      required: ['path'],
      additionalProperties: false,
    },
    approvalClass: 'write',
    async target(input) {
      const { r } = await inputs.targetNow(host, input, 'path');
      return { ...pathTarget(r), summary: vscode.l10n.t('Delete {0}', r.display) };
    },
    async invoke(input, ctx) {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const { r } = await inputs.invokeNow(host, input, 'path');
      if (!r.exists) return errorResult(`${r.display} does not exist.`);
      const stat = await vscode.workspace.fs.stat(r.uri);
      if (stat.type & vscode.FileType.Directory)
        return errorResult(`${r.display} is a folder; delete_file deletes files only.`);
      const cur = await currentText(r.uri).catch(() => ({ error: 'unreadable' }));
      const original = 'text' in cur ? cur.text : `[${cur.error}: ${stat.size} bytes]`;
      return review(host, 'delete_file', { kind: 'delete', target: r, original, proposed: undefined }, ctx, options);
    },
  };
}
