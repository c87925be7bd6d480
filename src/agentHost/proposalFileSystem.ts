// The in-memory file system behind the diff editor of proposed changes (proposals.ts registers it under its scheme).
import * as vscode from 'vscode';

/**
 * In-memory files for the two sides of each diff. The original side is read-only. A side's URI is
 * scheme://<change id>/<the file's workspace-relative path>?<side>: what VS Code shows of it (tab, breadcrumb) is the
 * file's own path, never the change's id.
 */
export class ProposalFileSystem implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; readonly: boolean; mtime: number }>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  private static key(uri: vscode.Uri, path = uri.path): string {
    return `${uri.authority}|${uri.query}|${path}`;
  }

  set(uri: vscode.Uri, text: string, readonly: boolean): void {
    this.files.set(ProposalFileSystem.key(uri), { data: new TextEncoder().encode(text), readonly, mtime: Date.now() });
  }

  /** New text for an existing side (a part of the change was decided); open editors of it reload. */
  replace(uri: vscode.Uri, text: string): void {
    const f = this.files.get(ProposalFileSystem.key(uri));
    this.set(uri, text, f?.readonly ?? false);
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  text(uri: vscode.Uri): string | undefined {
    const f = this.files.get(ProposalFileSystem.key(uri));
    return f && new TextDecoder().decode(f.data);
  }

  /** Drops both sides of one change. */
  removeChange(id: string): void {
    for (const key of [...this.files.keys()]) if (key.startsWith(`${id}|`)) this.files.delete(key);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(ProposalFileSystem.key(uri));
    if (f) {
      return {
        type: vscode.FileType.File,
        ctime: f.mtime,
        mtime: f.mtime,
        size: f.data.length,
        permissions: f.readonly ? vscode.FilePermission.Readonly : undefined,
      };
    }
    const dir = ProposalFileSystem.key(uri, uri.path.endsWith('/') ? uri.path : uri.path + '/');
    if ([...this.files.keys()].some((k) => k.startsWith(dir)))
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const dir = ProposalFileSystem.key(uri, uri.path.endsWith('/') ? uri.path : uri.path + '/');
    const names = new Map<string, vscode.FileType>();
    for (const key of this.files.keys()) {
      if (!key.startsWith(dir)) continue;
      const rest = key.slice(dir.length).split('/');
      names.set(rest[0], rest.length > 1 ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...names];
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(ProposalFileSystem.key(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const f = this.files.get(ProposalFileSystem.key(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    if (f.readonly) throw vscode.FileSystemError.NoPermissions(uri);
    this.files.set(ProposalFileSystem.key(uri), { data: content, readonly: false, mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
