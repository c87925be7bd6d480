// Reads the project instructions for a request (VS Code side of src/agent/instructions.ts): the settings from the
// user's own scope only (a repository's .vscode/settings.json can neither switch the files on or off nor add
// instructions), the files only in a trusted workspace, and each judged on its real path by the rule read_file
// follows (instructionFileRefusal): an AGENTS.md that links to ~/.ssh/id_rsa, .git/config, .vscode/settings.json,
// a workspace file or a secret is not read, and the chat says which file was left out and why.
import * as fs from 'fs';
import * as vscode from 'vscode';
import {
  buildInstructions,
  containingFolder,
  instructionCandidates,
  instructionFileRefusal,
  INSTRUCTIONS_FILE_CAP,
  instructionSettingsFrom,
  relativeTo,
  type InstructionFile,
  type InstructionSettings,
  type PolicySettings,
  type ProjectInstructions,
} from '../agent';
import { gatewaySettings } from '../platform/settings';
import { readAgentSettings } from './settings';
import { realPathOf, workspaceFolderRealPaths } from './resolve';
import { ignoreFilePatterns, probeCaseInsensitive } from './workspaceContext';

/** Both settings as the user set them: workspace and folder values are ignored (instructionSettingsFrom). */
export function readInstructionSettings(): InstructionSettings {
  return instructionSettingsFrom(gatewaySettings.useInstructionFiles, gatewaySettings.agentInstructions);
}

/** Reads at most `bytes` (+ a few, so a cut is seen) of a file. */
export async function head(path: string, bytes: number): Promise<string> {
  const handle = await fs.promises.open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes + 4);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The project instructions as of now (the active editor's file decides the nearest AGENTS.md). */
export async function readProjectInstructions(): Promise<ProjectInstructions> {
  const settings = readInstructionSettings();
  const files: InstructionFile[] = [];
  const notes: string[] = [];
  if (settings.useFiles && !vscode.workspace.isTrusted)
    notes.push(vscode.l10n.t('Restricted Mode: the workspace’s instruction files (AGENTS.md, …) are not read.'));
  else if (settings.useFiles) {
    const read = await readInstructionFiles();
    files.push(...read.files);
    notes.push(...read.skipped);
  }
  const built = buildInstructions(files, settings.user, {}, vscode.l10n);
  return { ...built, notes: [...notes, ...built.notes] };
}

/**
 * The rule instruction files and agent definitions are judged by (read_file's): the workspace's real folders and the
 * secret patterns. Undefined without a workspace folder (nothing to read).
 */
export async function instructionFilePolicy(): Promise<
  Pick<PolicySettings, 'workspaceFolders' | 'caseInsensitive' | 'secretPatterns'> | undefined
> {
  const folders = await workspaceFolderRealPaths();
  if (folders.length === 0) return undefined;
  return {
    workspaceFolders: folders,
    caseInsensitive: await probeCaseInsensitive(folders[0]),
    secretPatterns: [...readAgentSettings().secretPatterns, ...(await ignoreFilePatterns())],
  };
}

async function readInstructionFiles(): Promise<{ files: InstructionFile[]; skipped: string[] }> {
  const skipped: string[] = [];
  const shared = await instructionFilePolicy();
  if (!shared) return { files: [], skipped };
  const { workspaceFolders: folders, caseInsensitive } = shared;
  const policy = { ...shared, l10n: vscode.l10n };
  const active = vscode.window.activeTextEditor?.document.uri;
  const activeReal =
    active?.scheme === 'file' ? (await realPathOf(active.fsPath).catch(() => undefined))?.real : undefined;
  const candidates = instructionCandidates(folders, activeReal, { caseInsensitive });
  const read = async (path: string): Promise<InstructionFile | undefined> => {
    try {
      const { real, exists } = await realPathOf(path);
      if (!exists) return undefined;
      const written = containingFolder(path, folders, { caseInsensitive });
      const writtenName = written === undefined ? path : relativeTo(path, written);
      const refusal = instructionFileRefusal(path, real, policy);
      if (refusal !== undefined) {
        skipped.push(vscode.l10n.t('{0} was not sent to the model: {1}', writtenName, refusal));
        return undefined;
      }
      const folder = containingFolder(real, folders, { caseInsensitive });
      if (folder === undefined || !(await fs.promises.stat(real)).isFile()) return undefined;
      // The chip names the file that is sent, not the link that led to it.
      return { path: real, name: relativeTo(real, folder), text: await head(real, INSTRUCTIONS_FILE_CAP) };
    } catch {
      return undefined;
    }
  };
  const out: InstructionFile[] = [];
  // The nearest AGENTS.md above the file being worked on first: it is the most specific.
  for (const path of candidates.nearest) {
    const file = await read(path);
    if (file) {
      out.push(file);
      break;
    }
  }
  for (const path of candidates.root) {
    const file = await read(path);
    if (file) out.push(file);
  }
  return { files: out, skipped };
}
