// Editors the host tests type into: a workspace file with a given text, open, with the cursor at its end (where a
// completion is asked for).
import * as vscode from 'vscode';

/** Writes `text` to `name` in the first workspace folder, opens it (not as a preview) and puts the cursor at its end. */
export async function editorAtEnd(name: string, text: string): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
  editor.selection = new vscode.Selection(end, end);
  return editor;
}
