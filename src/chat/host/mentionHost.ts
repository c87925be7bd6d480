// The host side of the composer's @-mentions (VS Code glue; the ranking and the texts are in mentions.ts): the list
// for a query (names and sizes only) and, once the user picks an entry, its attachment. The webview only names
// things: every path is resolved here, and a file is read only when it is inside a workspace folder (its real path,
// so a link cannot lead out), outside .git, and not a secret, the same rules the agent's read_file follows.
import * as fs from 'fs';
import * as nodePath from 'path';
import * as vscode from 'vscode';
import { matchIgnored } from '../../agent';
import type { AgentWorkspaceSnapshot } from '../../agentHost';
import { formatChanges, uncommittedChanges } from '../../agentHost/gitChanges';
import { defaultExcludes } from '../../agentHost/tools/files';
import { resolveToolPath, secretMatch, type ResolvedPath } from '../../agentHost/resolve';
import {
  imageTokens,
  imageTypeOfName,
  readImageHeader,
  scaledSize,
  type ImageMediaType,
} from '../../shared/imageFormat';
import { looksBinary } from '../../agentHost/text';
import { visibleToModel } from '../../agentHost/visible';
import type { ChatAttachment, MentionKind, MentionOption } from '../../shared/protocol/chat';
import { attachmentTokens, makeAttachment, mentionAttachment } from '../composer/attachments';
import {
  foldersOf,
  formatListing,
  formatProblems,
  formatTerminalRun,
  MENTION_RESULTS,
  namedKindsFor,
  problemCounts,
  rankPaths,
  type FolderEntry,
  type NamedKind,
} from '../composer/mentions';
import { fenceLanguage, openEditorPaths, secretNote, terminalProblem, workspaceProblems } from './mentionSources';
import type { TerminalRecorder } from './terminalRecorder';

/** Files listed from the workspace at most (findFiles honours files.exclude). */
const FILES_SCANNED = 20_000;
/** The list of workspace files is reused this long (one popup types several queries). */
const FILES_TTL_MS = 10_000;
/** A picked file above this is refused (read_file's limit). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

export type Resolved = ChatAttachment | { refusal: string };

/** Bytes read for an image's header (a JPEG's size follows its EXIF block, which stays under 64 KB). */
const IMAGE_HEAD_BYTES = 128 * 1024;
/** Binary files @ does not offer: a model reads none of them (the four image formats are offered as images). */
const BINARY_NAME =
  /\.(ico|bmp|tiff?|psd|heic|avif|pdf|zip|gz|tgz|bz2|xz|7z|rar|jar|war|class|exe|dll|so|dylib|o|a|lib|obj|wasm|pyc|node|bin|dat|db|sqlite3?|woff2?|ttf|otf|eot|mp3|mp4|m4a|mov|avi|mkv|wav|flac|ogg|webm|vsix)$/i;

async function readHead(path: string, max: number): Promise<Uint8Array | undefined> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(path, 'r');
    const buffer = Buffer.alloc(max);
    const { bytesRead } = await handle.read(buffer, 0, max, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

export class MentionHost {
  private files?: { at: number; paths: Promise<string[]> };

  constructor(
    private readonly snapshot: () => Promise<AgentWorkspaceSnapshot>,
    private readonly terminal: TerminalRecorder,
    private readonly newId: () => string,
    /** Removes every known secret from an attachment's text (a terminal's output, a file) before it is kept or sent. */
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** The entries for `query`: the named kinds it matches, then files and folders, best first. */
  async search(query: string): Promise<MentionOption[]> {
    const named = namedKindsFor(query).map((kind) => this.namedOption(kind));
    const snap = await this.snapshot();
    const files = await this.workspaceFiles();
    const secret = (p: string) => matchIgnored(p, snap.allSecretPatterns);
    // Secret files are listed only when asked for by name (a query), marked, and never readable.
    // Binaries other than the images a model reads are not offered at all (they could only be refused).
    const offered = files.filter((p) => !BINARY_NAME.test(p));
    const candidates = query.trim() ? offered : offered.filter((p) => !secret(p));
    const folders = foldersOf(candidates);
    const isFolder = new Set(folders);
    const limit = MENTION_RESULTS - named.length;
    let ranked = rankPaths(query, [...candidates, ...folders], limit);
    // A bare @ lists the files open in editors first (what one usually means), then the shortest paths.
    if (!query.trim()) {
      const known = new Set(candidates);
      const open = openEditorPaths().filter((p) => known.has(p));
      ranked = [...new Set([...open, ...ranked])].slice(0, limit);
    }
    const paths = await Promise.all(
      ranked.map(async (path): Promise<MentionOption> => {
        const kind = isFolder.has(path) ? 'folder' : 'file';
        const hit = secret(path);
        if (hit) return { kind, path, detail: secretNote(path, hit), unavailable: true };
        const dir = nodePath.posix.dirname(path);
        const option: MentionOption = { kind, path, detail: dir === '.' ? '' : dir };
        if (kind === 'file' && imageTypeOfName(path)) return this.imageOption(option);
        if (kind === 'file') {
          const size = await fs.promises.stat(this.absolute(path)).then(
            (s) => s.size,
            () => undefined,
          );
          if (size !== undefined) option.tokens = attachmentTokens('file', path, size);
        }
        return option;
      }),
    );
    return [...named, ...paths];
  }

  /** An image file's entry: its tokens from the pixel size in its header, as the page will scale it. */
  private async imageOption(option: MentionOption): Promise<MentionOption> {
    option.image = true;
    const head = await readHead(this.absolute(option.path ?? ''), IMAGE_HEAD_BYTES);
    const header = head && readImageHeader(head);
    if (header) {
      const size = scaledSize(header.width, header.height);
      option.tokens = imageTokens(size.width, size.height);
    }
    return option;
  }

  /** The attachment of a picked entry, or why it cannot be attached (the words the user sees). */
  async resolve(kind: MentionKind, path: string | undefined): Promise<Resolved> {
    const resolved = await this.resolveKind(kind, path);
    if ('refusal' in resolved) return resolved;
    return { ...resolved, text: this.redact(resolved.text), path: this.redact(resolved.path) };
  }

  private async resolveKind(kind: MentionKind, path: string | undefined): Promise<Resolved> {
    switch (kind) {
      case 'file':
      case 'folder':
        return path ? this.resolvePath(path) : { refusal: vscode.l10n.t('Pick a file or folder to attach.') };
      case 'problems':
        return this.problems();
      case 'terminal':
        return this.terminalOutput();
      case 'changes':
        return this.changes();
      case 'selection':
        return this.selection();
    }
  }

  private async workspaceFiles(): Promise<string[]> {
    if (!this.files || Date.now() - this.files.at > FILES_TTL_MS) {
      const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      const paths = Promise.resolve(vscode.workspace.findFiles('**/*', defaultExcludes(''), FILES_SCANNED)).then(
        (uris) => uris.map((u) => vscode.workspace.asRelativePath(u, multi).replace(/\\/g, '/')),
      );
      this.files = { at: Date.now(), paths };
      return paths;
    }
    return this.files.paths;
  }

  /** A workspace-relative path as a local path (the first folder, or the one a multi-root path names). */
  private absolute(path: string): string {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const [first, ...rest] = path.split('/');
    const named = folders.length > 1 ? folders.find((f) => f.name === first) : undefined;
    const base = named ?? folders[0];
    if (!base) return path;
    return nodePath.join(base.uri.fsPath, ...(named ? rest : [first, ...rest]));
  }

  private namedOption(kind: NamedKind): MentionOption {
    switch (kind) {
      case 'problems': {
        const { errors, warnings } = problemCounts(workspaceProblems([]));
        return { kind, detail: vscode.l10n.t('{0} errors, {1} warnings in the workspace', errors, warnings) };
      }
      case 'terminal': {
        const state = this.terminal.state();
        if (state.kind === 'run')
          return {
            kind,
            detail: this.redact(vscode.l10n.t('Last command in {0}: {1}', state.terminal, state.run.commandLine)),
          };
        return { kind, detail: terminalProblem(state), unavailable: true };
      }
      case 'changes':
        return { kind, detail: vscode.l10n.t('Uncommitted git changes (diff against HEAD)') };
      case 'selection': {
        const editor = vscode.window.activeTextEditor;
        if (!editor || editor.selection.isEmpty)
          return { kind, detail: vscode.l10n.t('No text is selected in the editor.'), unavailable: true };
        const s = editor.selection;
        return {
          kind,
          detail: `${vscode.workspace.asRelativePath(editor.document.uri)}:${s.start.line + 1}-${s.end.line + 1}`,
        };
      }
    }
  }

  /** A workspace path the rules let the model see (real path inside a folder, not secret, not .git), or why not. */
  private async checkedPath(
    path: string,
  ): Promise<{ refusal: string } | { r: ResolvedPath; snap: AgentWorkspaceSnapshot }> {
    const snap = await this.snapshot();
    const folders = snap.policy.workspaceFolders;
    const ci = snap.policy.caseInsensitive;
    let r;
    try {
      r = await resolveToolPath(path, folders);
    } catch (e) {
      return { refusal: e instanceof Error ? e.message : String(e) };
    }
    if (r.uri.scheme !== 'file' || !r.exists) return { refusal: vscode.l10n.t('{0} was not found.', r.display) };
    const hit =
      secretMatch(r.realPath, folders, snap.allSecretPatterns, ci) ??
      secretMatch(r.writtenPath, folders, snap.allSecretPatterns, ci);
    if (hit) return { refusal: secretNote(r.display, hit) };
    if (!(await visibleToModel(r.lexicalPath, folders, ci)))
      return {
        refusal: vscode.l10n.t('{0} is outside the workspace folders (or in .git): it is not attached.', r.display),
      };
    return { r, snap };
  }

  /**
   * The bytes of a workspace image for the page to scale (the same rules as an @-mentioned file), or why not. The
   * page gets the bytes of a file the model could be shown anyway, and never a path the rules refuse.
   */
  async readImage(
    path: string,
  ): Promise<{ name: string; mediaType: ImageMediaType; data: string } | { refusal: string }> {
    const checked = await this.checkedPath(path);
    if ('refusal' in checked) return checked;
    const { r } = checked;
    const stat = await fs.promises.stat(r.realPath);
    if (!stat.isFile() || !imageTypeOfName(r.display))
      return { refusal: vscode.l10n.t('{0} is not a PNG, JPEG, WebP or GIF image.', r.display) };
    if (stat.size > MAX_FILE_BYTES)
      return { refusal: vscode.l10n.t('{0} is larger than {1} MB: it is not attached.', r.display, 20) };
    const bytes = await fs.promises.readFile(r.realPath);
    const header = readImageHeader(bytes);
    if (!header) return { refusal: vscode.l10n.t('{0} is not a PNG, JPEG, WebP or GIF image.', r.display) };
    return { name: r.display, mediaType: header.mediaType, data: bytes.toString('base64') };
  }

  private async resolvePath(path: string): Promise<Resolved> {
    const checked = await this.checkedPath(path);
    if ('refusal' in checked) return checked;
    const { r, snap } = checked;
    const folders = snap.policy.workspaceFolders;
    const stat = await fs.promises.stat(r.realPath);
    if (stat.isDirectory()) return this.folder(r.realPath, r.display, folders, snap);
    if (imageTypeOfName(r.display))
      return {
        refusal: vscode.l10n.t('{0} is an image: pick it from the @ list to attach it as an image.', r.display),
      };
    if (stat.size > MAX_FILE_BYTES)
      return { refusal: vscode.l10n.t('{0} is larger than {1} MB: it is not attached.', r.display, 20) };
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === r.uri.toString());
    let text: string;
    if (open) text = open.getText();
    else {
      const bytes = await fs.promises.readFile(r.realPath);
      if (looksBinary(bytes)) return { refusal: vscode.l10n.t('{0} is a binary file: it is not attached.', r.display) };
      text = new TextDecoder('utf-8').decode(bytes);
    }
    return makeAttachment(this.newId(), {
      path: r.display,
      languageId: open?.languageId ?? fenceLanguage(r.display),
      text,
    });
  }

  private async folder(
    real: string,
    display: string,
    folders: readonly string[],
    snap: AgentWorkspaceSnapshot,
  ): Promise<Resolved> {
    const entries: FolderEntry[] = [];
    for (const e of await fs.promises.readdir(real, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const hit = secretMatch(
        nodePath.join(real, e.name),
        folders,
        snap.allSecretPatterns,
        snap.policy.caseInsensitive,
      );
      entries.push({ name: e.name, directory: e.isDirectory(), secret: hit });
    }
    return mentionAttachment(this.newId(), 'folder', display, formatListing(entries));
  }

  private async problems(): Promise<Resolved> {
    const snap = await this.snapshot();
    return mentionAttachment(
      this.newId(),
      'problems',
      'problems',
      formatProblems(workspaceProblems(snap.allSecretPatterns)),
    );
  }

  private terminalOutput(): Resolved {
    const state = this.terminal.state();
    if (state.kind !== 'run') return { refusal: terminalProblem(state) };
    return mentionAttachment(this.newId(), 'terminal', state.terminal, formatTerminalRun(state.run), 'console');
  }

  private async changes(): Promise<Resolved> {
    if (!vscode.workspace.isTrusted)
      return {
        refusal: vscode.l10n.t('Git changes are read only in a trusted workspace (git runs in the repository).'),
      };
    const snap = await this.snapshot();
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    const sections: string[] = [];
    let refusal: string | undefined;
    for (const folder of folders) {
      const isSecret = (rel: string) =>
        secretMatch(
          nodePath.join(folder.uri.fsPath, rel),
          [folder.uri.fsPath],
          snap.allSecretPatterns,
          snap.policy.caseInsensitive,
        );
      const result = await uncommittedChanges(folder.uri.fsPath, isSecret);
      if (result.kind === 'changes') {
        const text = formatChanges(result, isSecret);
        sections.push(folders.length > 1 ? `# ${folder.name}\n${text}` : text);
      } else if (result.kind === 'unsafeConfig')
        refusal ??= vscode.l10n.t(
          "{0}: the repository's git configuration names programs git would run ({1}), so git is not run there.",
          folder.name,
          result.keys.join(', '),
        );
      else if (result.kind === 'failed')
        refusal ??= vscode.l10n.t('git failed in {0}: {1}', folder.name, result.message);
    }
    if (sections.length === 0) return { refusal: refusal ?? vscode.l10n.t('No workspace folder is a git repository.') };
    const name = folders.length === 1 ? folders[0].name : vscode.l10n.t('the workspace');
    return mentionAttachment(this.newId(), 'changes', name, sections.join('\n\n'), 'diff');
  }

  private async selection(): Promise<Resolved> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.selection.isEmpty) return { refusal: vscode.l10n.t('No text is selected in the editor.') };
    return this.fromEditor(editor, false);
  }

  /**
   * The active editor's selection (or whole text when `whole` or nothing is selected) as an attachment: the same
   * secret rule for `@selection` and the Ask about Selection / File commands, so no route shares what another refuses.
   */
  async fromEditor(editor: vscode.TextEditor, whole: boolean): Promise<Resolved> {
    const { document, selection } = editor;
    const useSelection = !whole && !selection.isEmpty;
    if (document.uri.scheme === 'file') {
      const snap = await this.snapshot();
      const hit =
        secretMatch(
          document.uri.fsPath,
          snap.policy.workspaceFolders,
          snap.allSecretPatterns,
          snap.policy.caseInsensitive,
        ) ??
        secretMatch(
          await fs.promises.realpath(document.uri.fsPath).catch(() => document.uri.fsPath),
          snap.policy.workspaceFolders,
          snap.allSecretPatterns,
          snap.policy.caseInsensitive,
        );
      if (hit) return { refusal: secretNote(vscode.workspace.asRelativePath(document.uri), hit) };
    }
    return makeAttachment(this.newId(), {
      path: vscode.workspace.asRelativePath(document.uri),
      languageId: document.languageId,
      text: useSelection ? document.getText(selection) : document.getText(),
      selection: useSelection ? { startLine: selection.start.line, endLine: selection.end.line } : undefined,
    });
  }
}
