// VS Code facts the @-mentions read (glue for mentionHost.ts): the workspace's problems, the open editors, the words
// for a secret file and for a terminal without a recorded command.
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { matchIgnored } from '../../agent';
import type { ProblemEntry } from '../composer/mentions';
import type { TerminalState } from './terminalRecorder';

/** The agent's own words for a secret path (src/agent/policy.ts, rule secret-file). */
export function secretNote(path: string, pattern: string): string {
  return vscode.l10n.t('{0} matches the secrets ignore list ({1}): it is not shared with the model.', path, pattern);
}

export function terminalProblem(state: TerminalState): string {
  switch (state.kind) {
    case 'noTerminal':
      return vscode.l10n.t('No terminal is open.');
    case 'noShellIntegration':
      return vscode.l10n.t(
        'The terminal {0} has no shell integration, so its output cannot be read. Run the command in a terminal with shell integration (bash, zsh, fish, PowerShell).',
        state.terminal,
      );
    default:
      return vscode.l10n.t('No command has finished in the terminal {0} since the chat opened.', state.terminal);
  }
}

/** Diagnostics of files inside the workspace folders, secret files left out (messages can quote them). */
export function workspaceProblems(secretPatterns: readonly string[]): ProblemEntry[] {
  const severities = ['error', 'warning', 'info', 'hint'] as const;
  const out: ProblemEntry[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    if (!vscode.workspace.getWorkspaceFolder(uri)) continue;
    const path = vscode.workspace.asRelativePath(uri).replace(/\\/g, '/');
    if (secretPatterns.length && matchIgnored(path, secretPatterns)) continue;
    for (const d of diagnostics)
      out.push({
        path,
        line: d.range.start.line,
        character: d.range.start.character,
        severity: severities[d.severity] ?? 'info',
        message: d.message,
        source: d.source,
      });
  }
  return out;
}

/** Workspace-relative paths of the text editors' tabs, the active group's first. */
export function openEditorPaths(): string[] {
  const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const groups = [vscode.window.tabGroups.activeTabGroup, ...vscode.window.tabGroups.all];
  const uris = groups
    .flatMap((g) => g.tabs)
    .map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined))
    .filter((u): u is vscode.Uri => u?.scheme === 'file');
  return [...new Set(uris.map((u) => vscode.workspace.asRelativePath(u, multi).replace(/\\/g, '/')))];
}

/** The fence's language for a file not open in an editor: its extension, when it looks like one. */
export function fenceLanguage(path: string): string {
  const ext = nodePath.extname(path).slice(1);
  return /^[A-Za-z0-9_+-]{1,20}$/.test(ext) ? ext : 'plaintext';
}
