// What the chat asks VS Code to do for it: clipboard, editors, links, and the error cards' commands.
import * as vscode from 'vscode';
import type { ErrorActionId } from '../../shared/protocol/chat';
import { Commands } from '../../shared/commands';
import { checkLink, linkConfirmationDetail } from '../session/links';

export async function copyToClipboard(text: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
}

async function knownLanguage(languageId: string | undefined): Promise<string | undefined> {
  if (!languageId) return undefined;
  const languages = await vscode.languages.getLanguages();
  return languages.includes(languageId) ? languageId : undefined;
}

/** Inserts at the cursor of the last active text editor (replacing its selection); opens a new one when there is none. */
export async function insertCode(code: string, languageId: string | undefined): Promise<void> {
  const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
  if (!editor) return openCodeInEditor(code, languageId);
  await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, code);
  });
  await vscode.window.showTextDocument(editor.document, editor.viewColumn);
}

export async function openCodeInEditor(code: string, languageId: string | undefined): Promise<void> {
  const document = await vscode.workspace.openTextDocument({
    content: code,
    language: (await knownLanguage(languageId)) ?? 'plaintext',
  });
  await vscode.window.showTextDocument(document, { preview: false });
}

// One confirmation at a time: a second request (a double click, or a webview posting many) is dropped, not queued.
let linkPending = false;

/**
 * Opens a link from model output: refused unless checkLink accepts it, then only after a modal confirmation that
 * shows the exact ASCII address, and exactly once (vscode.env.openExternal). Returns why nothing opened, if so.
 */
export async function openLink(href: string): Promise<string | undefined> {
  const verdict = checkLink(href, vscode.l10n);
  if (!verdict.ok) return vscode.l10n.t('Link not opened: {0}.', verdict.reason);
  if (linkPending) return vscode.l10n.t('A link is already waiting for your confirmation.');
  linkPending = true;
  try {
    const open = vscode.l10n.t('Open Link');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Open this link in your browser?'),
      { modal: true, detail: linkConfirmationDetail(verdict, vscode.l10n) },
      open,
    );
    if (choice !== open) return undefined;
    await vscode.env.openExternal(vscode.Uri.parse(verdict.display, true));
    return undefined;
  } finally {
    linkPending = false;
  }
}

/** The command (and its argument) each error card action runs; 'openConsoleAdvice' only shows advice. */
const ERROR_ACTION_COMMANDS: Record<Exclude<ErrorActionId, 'retry' | 'openConsoleAdvice'>, [string, ...string[]]> = {
  replaceKey: [Commands.setApiKey],
  checkConnection: [Commands.checkConnection],
  openBaseUrlSetting: [Commands.openSettings, 'baseUrl'],
  refreshModels: [Commands.refreshModels],
  showLog: [Commands.showLog],
};

/** Runs an error card's action, except 'retry' (the session replays its own request). */
export async function runErrorAction(action: Exclude<ErrorActionId, 'retry'>): Promise<void> {
  if (action !== 'openConsoleAdvice') {
    await vscode.commands.executeCommand(...ERROR_ACTION_COMMANDS[action]);
    return;
  }
  await vscode.window.showInformationMessage(
    vscode.l10n.t(
      'In your gateway console, check: the key is active (not revoked or expired), its key group may use this model and route, the model is mapped for the group, and the balance covers the call.',
    ),
    { modal: false },
  );
}
