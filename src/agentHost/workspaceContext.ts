// What the approval policy needs to know about this window: real workspace folders, case sensitivity, the
// extension's own folders, secret patterns (defaults + setting + .modelgatewayignore) and the approval
// settings. Built fresh for every turn, so a changed setting or ignore file applies to the next turn.
import * as fs from 'fs';
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { DEFAULT_SECRET_PATTERNS, IGNORE_FILE_NAME, parseIgnoreFile, type PolicySettings } from '../agent';
import { readAgentSettings, type AgentSettings } from './settings';
import { realPathOf, workspaceFolderRealPaths } from './resolve';

/** The parts of the ExtensionContext the agent host uses (tests pass temporary folders). */
export interface AgentStorage {
  storageUri?: vscode.Uri;
  globalStorageUri: vscode.Uri;
  logUri?: vscode.Uri;
}

/** An ignore file larger than this is not a list of patterns (and would slow every decision). */
const MAX_IGNORE_FILE_BYTES = 64 * 1024;

export interface AgentWorkspaceSnapshot {
  policy: PolicySettings;
  settings: AgentSettings;
  /** All secret patterns in force (defaults included), for tools that filter listings and search results. */
  allSecretPatterns: string[];
}

export type Availability = { ok: true } | { ok: false; reason: string };

/** Agent mode needs a trusted workspace: its tools read, write and run code there. */
export function agentAvailability(): Availability {
  if (!vscode.workspace.isTrusted) {
    return {
      ok: false,
      reason: vscode.l10n.t(
        'Agent mode is unavailable in Restricted Mode: trust this workspace to let a model read files, propose edits and run commands. Ask mode still works.',
      ),
    };
  }
  return { ok: true };
}

/**
 * True when the file system at `dir` ignores case: the same directory is found under its case-swapped name.
 * Falls back to the platform's usual answer when the path has no letters or cannot be probed.
 */
export async function probeCaseInsensitive(dir: string | undefined): Promise<boolean> {
  const platformDefault = process.platform === 'win32' || process.platform === 'darwin';
  if (!dir) return platformDefault;
  const base = nodePath.basename(dir);
  const swapped = [...base].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  if (swapped === base) return platformDefault;
  try {
    const [a, b] = await Promise.all([
      fs.promises.stat(dir),
      fs.promises.stat(nodePath.join(nodePath.dirname(dir), swapped)),
    ]);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/** The extension's own state and the user's settings folder (settings.json, keybindings, other extensions' state). */
export async function protectedPathsOf(storage: AgentStorage): Promise<string[]> {
  const out = new Set<string>();
  const add = async (uri: vscode.Uri | undefined) => {
    if (!uri) return;
    if (uri.scheme !== 'file') {
      out.add(uri.path);
      return;
    }
    out.add((await realPathOf(uri.fsPath).catch(() => ({ real: uri.fsPath }))).real);
  };
  await add(storage.globalStorageUri);
  await add(storage.storageUri);
  await add(storage.logUri);
  // globalStorageUri is <user data>/User/globalStorage/<extension id>: the User folder holds settings.json.
  const g = storage.globalStorageUri;
  if (g.scheme === 'file' && nodePath.basename(nodePath.dirname(g.fsPath)) === 'globalStorage') {
    await add(vscode.Uri.file(nodePath.dirname(nodePath.dirname(g.fsPath))));
  }
  return [...out];
}

/** Patterns of `.modelgatewayignore` at each workspace folder's root (missing or oversized files add none). */
export async function ignoreFilePatterns(): Promise<string[]> {
  const out: string[] = [];
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(f.uri, IGNORE_FILE_NAME);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_IGNORE_FILE_BYTES) continue;
      out.push(...parseIgnoreFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri))));
    } catch {
      // No ignore file: only the defaults and the setting apply.
    }
  }
  return out;
}

export async function snapshotWorkspace(storage: AgentStorage): Promise<AgentWorkspaceSnapshot> {
  const settings = readAgentSettings();
  const workspaceFolders = await workspaceFolderRealPaths();
  const secretPatterns = [...new Set([...settings.secretPatterns, ...(await ignoreFilePatterns())])];
  const policy: PolicySettings = {
    workspaceFolders,
    caseInsensitive: await probeCaseInsensitive(workspaceFolders[0]),
    protectedPaths: await protectedPathsOf(storage),
    secretPatterns,
    autoApproveWrites: settings.autoApproveWrites,
    commandAllowList: settings.commandAllowList,
    // Approval prompts and refusal notes in the display language; the model still reads English reasons.
    l10n: vscode.l10n,
  };
  return { policy, settings, allSecretPatterns: [...DEFAULT_SECRET_PATTERNS, ...secretPatterns] };
}
