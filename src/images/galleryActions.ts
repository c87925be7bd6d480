// What the gallery's buttons do. Insert puts a markdown image link with a path relative to the
// document at the cursor of the last active text editor. Ask opens the chat with the image attached through the
// Explorer's Ask about This Image command (the same rules as an @-mentioned image, then the chat page scales it).
import * as vscode from 'vscode';
import { Commands } from '../shared/commands';
import type { GalleryAction, ImageForm } from '../shared/protocol/images';
import type { GalleryEntry } from './gallery';
import { markdownRelativeLink } from './paths';

/** Runs the action; resolves with a form for "Re-run with changes". */
export async function galleryAction(
  action: GalleryAction,
  entry: GalleryEntry,
  root: vscode.Uri | undefined,
  editor: vscode.TextEditor | undefined,
): Promise<ImageForm | undefined> {
  switch (action) {
    case 'ask':
      await vscode.commands.executeCommand(Commands.askAboutImage, entry.image);
      return undefined;
    case 'open':
      await vscode.commands.executeCommand('vscode.open', entry.image);
      return undefined;
    case 'reveal':
      await vscode.commands.executeCommand('revealInExplorer', entry.image);
      return undefined;
    case 'copyPath':
      await vscode.env.clipboard.writeText(entry.path);
      void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', entry.path), 3000);
      return undefined;
    case 'insert':
      await insertLink(entry, root, editor);
      return undefined;
    case 'rerun':
      return rerunForm(entry);
  }
}

async function insertLink(
  entry: GalleryEntry,
  root: vscode.Uri | undefined,
  editor: vscode.TextEditor | undefined,
): Promise<void> {
  const alt = entry.sidecar.prompt
    .replace(/[[\]\\\n\r]/g, ' ')
    .slice(0, 100)
    .trim();
  if (!editor || editor.document.isClosed) {
    const link = `![${alt}](${encodeURI(entry.path)})`;
    await vscode.env.clipboard.writeText(link);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Model Gateway: no text editor to insert into; the image link was copied to the clipboard.'),
    );
    return;
  }
  const doc = editor.document;
  const from =
    doc.isUntitled || doc.uri.scheme !== entry.image.scheme
      ? (root?.path ?? '/')
      : doc.uri.path.slice(0, doc.uri.path.lastIndexOf('/')) || '/';
  const link = `![${alt}](${markdownRelativeLink(from, entry.image.path)})`;
  await vscode.window.showTextDocument(doc, editor.viewColumn);
  await editor.edit((edit) => edit.insert(editor.selection.active, link));
}

function rerunForm(entry: GalleryEntry): ImageForm {
  const s = entry.sidecar;
  const edit = s.kind === 'edit' && !!s.source;
  return {
    mode: edit ? 'edit' : 'generate',
    prompt: s.prompt,
    model: s.model,
    size: s.size ?? '',
    quality: s.quality ?? 'auto',
    n: s.n,
    source: edit ? s.source : undefined,
    mask: edit ? s.mask : undefined,
    references: s.references ?? [],
  };
}
