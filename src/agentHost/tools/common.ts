// Shared plumbing of the VS Code tools: what they receive from the host, input checks (model input is
// untrusted JSON), and the rule that a path approved in target() is the path invoke() touches.
import type * as vscode from 'vscode';
import type { ToolResult } from '../../agent';
import type { Checkpoints } from '../checkpoints';
import type { PendingChanges } from '../proposals';
import { resolveToolPath, type ResolvedPath } from '../resolve';
import type { AgentWorkspaceSnapshot } from '../workspaceContext';

export interface ToolHost {
  /** Settings, real folders and secret patterns, as of now. */
  snapshot(): Promise<AgentWorkspaceSnapshot>;
  proposals: PendingChanges;
  checkpoints: Checkpoints;
  /** False in untrusted workspaces: every tool then refuses. */
  trusted(): boolean;
}

export type Input = Record<string, unknown>;

export function str(input: Input, key: string, required: true): string;
export function str(input: Input, key: string, required?: false): string | undefined;
export function str(input: Input, key: string, required = false): string | undefined {
  const v = input[key];
  if (v === undefined || v === null) {
    if (required) throw new Error(`the "${key}" field is required.`);
    return undefined;
  }
  if (typeof v !== 'string') throw new Error(`the "${key}" field must be a string.`);
  return v;
}

export function int(input: Input, key: string, min: number, max: number): number | undefined {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`the "${key}" field must be an integer.`);
  if (v < min || v > max) throw new Error(`the "${key}" field must be between ${min} and ${max}.`);
  return v;
}

export function bool(input: Input, key: string): boolean | undefined {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new Error(`the "${key}" field must be true or false.`);
  return v;
}

export function errorResult(text: string): ToolResult {
  return { content: text, isError: true };
}

export const UNTRUSTED = 'Agent tools are unavailable in Restricted Mode (untrusted workspace).';

/**
 * Remembers the path resolved for the policy (target) so that invoke can check the file system still resolves
 * it the same way: a symlink swapped between approval and use must not redirect the call.
 */
export class ResolvedInputs {
  // Keyed by the very input object the loop passes to target() and then invoke(): a tool must not pass a copy (a copy
  // made in each call is never found, and the path approved would go unchecked).
  private readonly byInput = new WeakMap<object, ResolvedPath>();

  /** `fallback`: the path when the input has no string at `key` (a tool's default, e.g. the workspace folder '.'). */
  async forTarget(input: Input, key: string, folderReals: readonly string[], fallback?: string): Promise<ResolvedPath> {
    const r = await resolveToolPath(pathInput(input, key, fallback), folderReals);
    this.byInput.set(input, r);
    return r;
  }

  async forInvoke(input: Input, key: string, folderReals: readonly string[], fallback?: string): Promise<ResolvedPath> {
    const approved = this.byInput.get(input);
    const now = await resolveToolPath(pathInput(input, key, fallback), folderReals);
    if (approved && approved.realPath !== now.realPath) {
      throw new Error(
        `${now.display} now resolves to ${now.realPath}, not to ${approved.realPath} as when it was approved.`,
      );
    }
    return now;
  }

  /** forTarget in the workspace folders of a fresh snapshot, and the snapshot (for the tools that read more of it). */
  async targetNow(host: ToolHost, input: Input, key: string, fallback?: string): Promise<PathInSnapshot> {
    const snap = await host.snapshot();
    return { snap, r: await this.forTarget(input, key, snap.policy.workspaceFolders, fallback) };
  }

  /** forInvoke in the workspace folders of a fresh snapshot, and the snapshot. */
  async invokeNow(host: ToolHost, input: Input, key: string, fallback?: string): Promise<PathInSnapshot> {
    const snap = await host.snapshot();
    return { snap, r: await this.forInvoke(input, key, snap.policy.workspaceFolders, fallback) };
  }
}

/** The model's path at `key`; with a fallback, that path when the input holds no string there. */
function pathInput(input: Input, key: string, fallback: string | undefined): unknown {
  return fallback === undefined ? input[key] : (str(input, key) ?? fallback);
}

export interface PathInSnapshot {
  snap: AgentWorkspaceSnapshot;
  r: ResolvedPath;
}

/** An open editor's document for `uri`, if any (its text may differ from the disk). */
export function openDocument(workspace: typeof vscode.workspace, uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return workspace.textDocuments.find((d) => d.uri.toString() === key);
}
