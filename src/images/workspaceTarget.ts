// Where images go: the workspace folder (or, with no workspace open, a folder the user picks once
// and that is remembered), plus the configured output folder checked to stay inside it.
import * as vscode from 'vscode';
import { outputFolderSegments, relativeInside } from './paths';
import type { FileSink } from './saver';

const REMEMBERED_FOLDER_KEY = 'modelGateway.images.folderWithoutWorkspace';

export interface ImageTarget {
  /** The folder that plays the workspace root. */
  folder: vscode.Uri;
  /** Output folder setting as given (validated). */
  outputFolder: string;
  segments: string[];
}

/** The root for a resource (its workspace folder), else the first workspace folder, else the remembered one. */
export function currentRoot(state: vscode.Memento, resource?: vscode.Uri): vscode.Uri | undefined {
  const owner = resource ? vscode.workspace.getWorkspaceFolder(resource) : undefined;
  if (owner) return owner.uri;
  const first = vscode.workspace.workspaceFolders?.[0];
  if (first) return first.uri;
  const remembered = state.get<string>(REMEMBERED_FOLDER_KEY);
  return remembered ? vscode.Uri.parse(remembered) : undefined;
}

/** The target for saving; asks for a folder when no workspace is open. Undefined when the user declines or the setting is unsafe. */
export async function resolveTarget(
  state: vscode.Memento,
  outputFolder: string,
  resource?: vscode.Uri,
): Promise<ImageTarget | undefined> {
  const checked = outputFolderSegments(outputFolder);
  if (!checked.ok) {
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t('Model Gateway: the image output folder setting is not usable: {0}', checked.reason),
        vscode.l10n.t('Open Settings'),
      )
      .then(
        (choice) =>
          choice && vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway.images.outputFolder'),
      );
    return undefined;
  }
  let folder = currentRoot(state, resource);
  if (!folder) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Save images here'),
      title: vscode.l10n.t('No folder is open: where should generated images be saved?'),
    });
    if (!picked?.[0]) return undefined;
    folder = picked[0];
    await state.update(REMEMBERED_FOLDER_KEY, folder.toString());
  }
  if (await hasSymlink(folder, checked.segments)) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'Model Gateway: the image output folder is (or passes through) a symbolic link; images are only written to real folders inside the workspace.',
      ),
    );
    return undefined;
  }
  return { folder, outputFolder, segments: checked.segments };
}

/** A symlinked output folder could point anywhere; refuse it rather than follow it. */
async function hasSymlink(root: vscode.Uri, segments: string[]): Promise<boolean> {
  let current = root;
  for (const segment of segments) {
    current = vscode.Uri.joinPath(current, segment);
    try {
      const stat = await vscode.workspace.fs.stat(current);
      if (stat.type & vscode.FileType.SymbolicLink) return true;
    } catch {
      return false; // does not exist yet: it will be created as a real folder
    }
  }
  return false;
}

/** A workspace-relative path from a webview or an argument, resolved inside the root or undefined. */
export function resolveInsideRoot(root: vscode.Uri, relative: string): vscode.Uri | undefined {
  const target = vscode.Uri.joinPath(root, ...relative.split(/[\\/]+/).filter(Boolean));
  return relativeInside(root.path, target.path) !== undefined && !relative.split(/[\\/]+/).includes('..')
    ? target
    : undefined;
}

/** Path of a file relative to the root ('/' separators), or undefined when outside. */
export function relativeToRoot(root: vscode.Uri, file: vscode.Uri): string | undefined {
  return file.scheme === root.scheme && file.authority === root.authority
    ? relativeInside(root.path, file.path)
    : undefined;
}

/** The FileSink of the saver over workspace.fs, rooted at a folder. */
export function workspaceSink(root: vscode.Uri): FileSink {
  return {
    async listNames(folder) {
      try {
        return (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(root, ...folder))).map(([name]) => name);
      } catch {
        return [];
      }
    },
    async write(path, bytes) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(root, ...path.slice(0, -1)));
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, ...path), bytes);
    },
  };
}
