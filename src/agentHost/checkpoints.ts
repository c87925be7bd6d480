// Checkpoints: before the first write of an agent turn to a file, its bytes (or its absence) are saved in the
// extension's storage, one folder per turn (manifest.json + one blob per file). Restore reverts the workspace
// to the state before a turn by undoing that turn and every later one, newest first. Everything is on disk,
// so it survives a window reload.
import * as vscode from 'vscode';

export interface CheckpointFile {
  /** The file's URI (string form). */
  uri: string;
  /** False: the turn created the file; restoring deletes it. */
  existed: boolean;
  /** Blob name inside the turn's folder (when it existed and was small enough). */
  blob?: string;
  /** Too large to keep: restore leaves it as it is and says so. */
  tooLarge?: boolean;
}

export interface CheckpointInfo {
  turnId: string;
  /** Order of turns (increasing). */
  seq: number;
  createdAt: number;
  files: CheckpointFile[];
}

export interface RestoreReport {
  /** Turns undone, newest first. */
  turns: string[];
  files: Array<{ uri: string; action: 'rewritten' | 'deleted' | 'unchanged' | 'failed'; message?: string }>;
}

/** Files above this are not copied (a model that rewrites a 100 MB file is told nothing; restore says so). */
export const MAX_CHECKPOINT_FILE_BYTES = 20 * 1024 * 1024;

const TURN_ID = /^[A-Za-z0-9_-]{1,128}$/;

export class Checkpoints {
  private current: { info: CheckpointInfo; dir: vscode.Uri } | undefined;
  /** One storage operation at a time: manifest writes must not interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  /** `root`: a folder of the extension's own storage (e.g. <storageUri>/agent-checkpoints). */
  constructor(private readonly root: vscode.Uri) {}

  get currentTurn(): string | undefined {
    return this.current?.info.turnId;
  }

  /** Starts recording a turn. Its checkpoint exists (possibly empty) from now on. */
  begin(turnId: string): Promise<void> {
    if (!TURN_ID.test(turnId))
      return Promise.reject(new Error(`invalid turn id ${JSON.stringify(turnId)} (letters, digits, _ and - only)`));
    return this.serial(async () => {
      const existing = await this.listNow();
      const found = existing.find((c) => c.turnId === turnId);
      const dir = vscode.Uri.joinPath(this.root, turnId);
      if (found) {
        this.current = { info: found, dir };
        return;
      }
      const seq = existing.reduce((m, c) => Math.max(m, c.seq), 0) + 1;
      const info: CheckpointInfo = { turnId, seq, createdAt: Date.now(), files: [] };
      await vscode.workspace.fs.createDirectory(dir);
      await this.writeManifest(dir, info);
      this.current = { info, dir };
    });
  }

  /** Stops recording (later writes belong to no turn until the next begin). */
  end(): void {
    this.current = undefined;
  }

  /**
   * Records the file's content (or absence) before the current turn's first write to it. Returns false when
   * no turn is being recorded or the file was already recorded in this turn.
   */
  recordBeforeWrite(uri: vscode.Uri): Promise<boolean> {
    return this.serial(async () => {
      const cur = this.current;
      if (!cur) return false;
      const key = uri.toString();
      if (cur.info.files.some((f) => f.uri === key)) return false;
      const entry: CheckpointFile = { uri: key, existed: false };
      const stat = await vscode.workspace.fs.stat(uri).then(
        (s) => s,
        () => undefined,
      );
      if (stat && stat.type & vscode.FileType.Directory) return false;
      if (stat) {
        entry.existed = true;
        if (stat.size > MAX_CHECKPOINT_FILE_BYTES) {
          entry.tooLarge = true;
        } else {
          entry.blob = `${cur.info.files.length}.blob`;
          await vscode.workspace.fs.writeFile(
            vscode.Uri.joinPath(cur.dir, entry.blob),
            await vscode.workspace.fs.readFile(uri),
          );
        }
      }
      cur.info.files.push(entry);
      await this.writeManifest(cur.dir, cur.info);
      return true;
    });
  }

  /**
   * Deletes the checkpoints of these turns without restoring anything (their conversation was deleted: the copies
   * of files they changed go with it). A later Restore of another turn no longer undoes what these turns did.
   */
  discard(turnIds: readonly string[]): Promise<void> {
    const ids = turnIds.filter((id) => TURN_ID.test(id));
    if (ids.length === 0) return Promise.resolve();
    return this.serial(async () => {
      for (const id of ids) {
        if (this.current?.info.turnId === id) this.current = undefined;
        await vscode.workspace.fs
          .delete(vscode.Uri.joinPath(this.root, id), { recursive: true, useTrash: false })
          .then(undefined, () => undefined);
      }
    });
  }

  /** All checkpoints, oldest first. */
  list(): Promise<CheckpointInfo[]> {
    return this.serial(() => this.listNow());
  }

  /**
   * Reverts the workspace to its state before `turnId`: that turn and every later one are undone, newest first,
   * and their checkpoints removed (the states they recorded no longer exist).
   */
  restore(turnId: string): Promise<RestoreReport> {
    return this.serial(async () => {
      const all = await this.listNow();
      const from = all.find((c) => c.turnId === turnId);
      if (!from) throw new Error(`no checkpoint for turn ${turnId}`);
      const undo = all.filter((c) => c.seq >= from.seq).sort((a, b) => b.seq - a.seq);
      const report: RestoreReport = { turns: [], files: [] };
      for (const c of undo) {
        const dir = vscode.Uri.joinPath(this.root, c.turnId);
        for (const f of c.files) report.files.push({ uri: f.uri, ...(await this.restoreFile(dir, f)) });
        report.turns.push(c.turnId);
        await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false }).then(undefined, () => undefined);
        if (this.current?.info.turnId === c.turnId) this.current = undefined;
      }
      return report;
    });
  }

  private async restoreFile(
    dir: vscode.Uri,
    f: CheckpointFile,
  ): Promise<{ action: RestoreReport['files'][number]['action']; message?: string }> {
    const uri = vscode.Uri.parse(f.uri, true);
    try {
      if (!f.existed) {
        const exists = await vscode.workspace.fs.stat(uri).then(
          () => true,
          () => false,
        );
        if (!exists) return { action: 'unchanged' };
        await vscode.workspace.fs.delete(uri, { useTrash: false });
        return { action: 'deleted' };
      }
      if (f.tooLarge || !f.blob)
        return { action: 'failed', message: vscode.l10n.t('the file was too large to keep a copy of') };
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, f.blob));
      await vscode.workspace.fs.writeFile(uri, bytes);
      await this.syncOpenDocument(uri, bytes);
      return { action: 'rewritten' };
    } catch (e) {
      return { action: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /**
   * An editor holding unsaved changes of the file would keep showing them (and save them over the restored
   * file later): its buffer is set to the restored text and saved.
   */
  private async syncOpenDocument(uri: vscode.Uri, bytes: Uint8Array): Promise<void> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (!doc?.isDirty) return;
    const text = new TextDecoder().decode(bytes);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
    if (await vscode.workspace.applyEdit(edit)) await doc.save();
  }

  private async listNow(): Promise<CheckpointInfo[]> {
    let entries: [string, vscode.FileType][] = [];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.root);
    } catch {
      return [];
    }
    const out: CheckpointInfo[] = [];
    for (const [name, type] of entries) {
      if (!(type & vscode.FileType.Directory) || !TURN_ID.test(name)) continue;
      try {
        const raw = JSON.parse(
          new TextDecoder().decode(
            await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.root, name, 'manifest.json')),
          ),
        ) as CheckpointInfo;
        if (raw && raw.turnId === name && Array.isArray(raw.files) && typeof raw.seq === 'number') out.push(raw);
      } catch {
        // A folder without a readable manifest is not a checkpoint (e.g. cut by a crash before the first write).
      }
    }
    return out.sort((a, b) => a.seq - b.seq);
  }

  private async writeManifest(dir: vscode.Uri, info: CheckpointInfo): Promise<void> {
    // Write then rename, so a crash never leaves half a manifest.
    const tmp = vscode.Uri.joinPath(dir, 'manifest.json.tmp');
    await vscode.workspace.fs.writeFile(tmp, new TextEncoder().encode(JSON.stringify(info)));
    await vscode.workspace.fs.rename(tmp, vscode.Uri.joinPath(dir, 'manifest.json'), { overwrite: true });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
