// Editor state tools: get_editor_context (active editor, selection, open editors) and get_diagnostics.
import * as vscode from 'vscode';
import type { Tool } from '../../agent';
import { displayPath, realPathOf, secretMatch, pathTarget } from '../resolve';
import { capHeadTail } from '../text';
import { errorResult, int, ResolvedInputs, str, UNTRUSTED, type Input, type ToolHost } from './common';
import { PROPOSAL_SCHEME_PREFIX } from '../staleProposalTabs';

export const SELECTION_CAP = 32 * 1024;
export const OPEN_EDITORS_CAP = 50;
export const DIAGNOSTICS_DEFAULT = 100;
export const DIAGNOSTICS_MAX = 500;

async function realOf(uri: vscode.Uri): Promise<string> {
  if (uri.scheme !== 'file') return uri.path;
  return (await realPathOf(uri.fsPath).catch(() => ({ real: uri.fsPath }))).real;
}

function lexicalOf(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.path;
}

function uriOfTab(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  if (input instanceof vscode.TabInputText) return input.uri;
  if (input instanceof vscode.TabInputTextDiff) return input.modified;
  if (input instanceof vscode.TabInputNotebook) return input.uri;
  return undefined;
}

export function editorContextTool(host: ToolHost): Tool<Input> {
  return {
    name: 'get_editor_context',
    description: "Get the user's active editor (file, cursor, selected text) and the list of open editors.",
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    approvalClass: 'read',
    async target() {
      // The active file is what the selection text comes from: the policy judges it (a selected .env is refused).
      const editor = vscode.window.activeTextEditor;
      const snap = await host.snapshot();
      const uri = editor?.document.uri;
      // Untitled buffers, proposals and views (output, git, …) have no file behind them to judge.
      const fileScheme = vscode.workspace.workspaceFolders?.[0]?.uri.scheme ?? 'file';
      const paths =
        uri && (uri.scheme === 'file' || uri.scheme === fileScheme)
          ? [await realOf(uri)]
          : [...snap.policy.workspaceFolders];
      return { paths, summary: vscode.l10n.t('Read the active editor and the list of open editors') };
    },
    async invoke() {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const snap = await host.snapshot();
      const folders = snap.policy.workspaceFolders;
      const lines: string[] = [];
      const editor = vscode.window.activeTextEditor;
      const details: Record<string, unknown> = {};
      if (editor) {
        const doc = editor.document;
        const isFile =
          doc.uri.scheme === 'file' || doc.uri.scheme === vscode.workspace.workspaceFolders?.[0]?.uri.scheme;
        const real = isFile ? await realOf(doc.uri) : undefined;
        const name = real ? displayPath(real, lexicalOf(doc.uri), folders) : `${doc.uri.scheme}:${doc.uri.path}`;
        const sel = editor.selection;
        lines.push(
          `Active editor: ${name} (${doc.languageId}, ${doc.lineCount} lines${doc.isDirty ? ', unsaved changes' : ''})`,
        );
        lines.push(`Cursor: line ${sel.active.line + 1}, column ${sel.active.character + 1}`);
        const secret =
          real &&
          (secretMatch(real, folders, snap.allSecretPatterns, snap.policy.caseInsensitive) ||
            secretMatch(lexicalOf(doc.uri), folders, snap.allSecretPatterns, snap.policy.caseInsensitive));
        if (secret) {
          lines.push(`Selection: not shared (${name} matches the secrets ignore list).`);
        } else if (!sel.isEmpty) {
          const text = capHeadTail(doc.getText(sel), SELECTION_CAP).text;
          lines.push(`Selection (lines ${sel.start.line + 1}–${sel.end.line + 1}):\n${text}`);
        } else {
          lines.push('Selection: none');
        }
        details.active = name;
      } else {
        lines.push('Active editor: none');
      }
      const open: string[] = [];
      const seen = new Set<string>();
      for (const group of vscode.window.tabGroups.all) {
        for (const tab of group.tabs) {
          const uri = uriOfTab(tab);
          if (!uri || uri.scheme.startsWith(PROPOSAL_SCHEME_PREFIX)) continue;
          const shown =
            uri.scheme === 'untitled' ? `untitled:${uri.path}` : displayPath(lexicalOf(uri), lexicalOf(uri), folders);
          if (seen.has(shown)) continue;
          seen.add(shown);
          open.push(`${shown}${tab.isDirty ? ' (unsaved)' : ''}`);
        }
      }
      lines.push(
        `Open editors (${open.length}):${open.length ? '\n' + open.slice(0, OPEN_EDITORS_CAP).join('\n') : ' none'}${open.length > OPEN_EDITORS_CAP ? `\n[${open.length - OPEN_EDITORS_CAP} more]` : ''}`,
      );
      details.open = open.length;
      return { content: lines.join('\n'), details };
    },
  };
}

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

export function diagnosticsTool(host: ToolHost): Tool<Input> {
  const inputs = new ResolvedInputs();
  return {
    name: 'get_diagnostics',
    description: 'Get problems (errors, warnings) that VS Code reports for a file or for the whole workspace, capped.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Only this file (relative to the workspace folder). Default: all workspace files.',
        },
        minSeverity: {
          type: 'string',
          enum: [...SEVERITY],
          description: 'Least severe level to include (default "warning").',
        },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: DIAGNOSTICS_MAX,
          description: `Default ${DIAGNOSTICS_DEFAULT}.`,
        },
      },
      additionalProperties: false,
    },
    approvalClass: 'read',
    async target(input) {
      const snap = await host.snapshot();
      int(input, 'maxResults', 1, DIAGNOSTICS_MAX);
      const sev = str(input, 'minSeverity');
      if (sev !== undefined && !(SEVERITY as readonly string[]).includes(sev))
        throw new Error(`"minSeverity" must be one of ${SEVERITY.join(', ')}.`);
      if (str(input, 'path') === undefined)
        return {
          paths: [...snap.policy.workspaceFolders],
          summary: vscode.l10n.t('Read the problems of the workspace'),
        };
      const r = await inputs.forTarget(input, 'path', snap.policy.workspaceFolders);
      return { ...pathTarget(r), summary: vscode.l10n.t('Read the problems of {0}', r.display) };
    },
    async invoke(input) {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const snap = await host.snapshot();
      const folders = snap.policy.workspaceFolders;
      const lexicalFolders = (vscode.workspace.workspaceFolders ?? []).map((f) => lexicalOf(f.uri));
      const max = int(input, 'maxResults', 1, DIAGNOSTICS_MAX) ?? DIAGNOSTICS_DEFAULT;
      const minRank = SEVERITY.indexOf((str(input, 'minSeverity') ?? 'warning') as (typeof SEVERITY)[number]);
      let entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]>;
      if (str(input, 'path') !== undefined) {
        const r = await inputs.forInvoke(input, 'path', folders);
        entries = [[r.uri, vscode.languages.getDiagnostics(r.uri)]];
      } else {
        entries = vscode.languages.getDiagnostics().filter(([uri]) => {
          // Whole-workspace listing: only files inside the folders, never secret files (messages can quote them).
          const p = lexicalOf(uri);
          return lexicalFolders.some(
            (f) =>
              p === f ||
              p.startsWith(
                f.endsWith('/') || f.endsWith('\\')
                  ? f
                  : f + (uri.scheme === 'file' && process.platform === 'win32' ? '\\' : '/'),
              ),
          );
        });
      }
      const lines: string[] = [];
      let total = 0;
      for (const [uri, diags] of entries) {
        const p = lexicalOf(uri);
        if (secretMatch(p, lexicalFolders, snap.allSecretPatterns, snap.policy.caseInsensitive)) continue;
        const shown = displayPath(p, p, folders);
        for (const d of diags) {
          if (d.severity > minRank) continue;
          total++;
          if (lines.length >= max) continue;
          const code = typeof d.code === 'object' ? d.code.value : d.code;
          lines.push(
            `${shown}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${SEVERITY[d.severity]}${d.source ? ` [${d.source}${code !== undefined ? ` ${code}` : ''}]` : ''} ${d.message.split('\n')[0].slice(0, 500)}`,
          );
        }
      }
      const head =
        total === 0 ? 'No problems reported.' : `[${total} problems${total > max ? `; the first ${max} shown` : ''}]`;
      return { content: `${head}\n${lines.join('\n')}`.trimEnd(), details: { total } };
    },
  };
}
