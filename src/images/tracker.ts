// Persistent task tracker over a Memento-like store (globalState in the extension, a Map in tests).
// Every change is written through before the caller continues, and changes are serialised so two
// updates never race. claim() hands the right to save a task's images to exactly one caller in this
// process; the persisted 'saving' state with reserved file names makes a save interrupted by a
// reload complete into the same files instead of creating a second set.
import { randomUUID } from 'node:crypto';
import {
  isFinal,
  parseTaskRecord,
  transition,
  type TaskEvent,
  type TaskRecord,
  type TaskRequestSummary,
} from './taskRecord';

export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const TASKS_STORAGE_KEY = 'modelGateway.images.tasks.v1';
/** Final records older than this are dropped; the list stays short. */
const KEEP_FINAL_MS = 7 * 24 * 3600 * 1000;
const MAX_RECORDS = 100;

export interface NewTask {
  request: TaskRequestSummary;
  workspaceFolder: string;
  outputFolder: string;
}

export class TaskTracker {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly claims = new Set<string>();
  private readonly listeners = new Set<(record: TaskRecord) => void>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** All valid records, newest first. */
  list(): TaskRecord[] {
    const raw = this.store.get<unknown[]>(TASKS_STORAGE_KEY);
    const records = Array.isArray(raw) ? raw.map(parseTaskRecord).filter((r): r is TaskRecord => !!r) : [];
    return records.sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
  }

  get(localId: string): TaskRecord | undefined {
    return this.list().find((r) => r.localId === localId);
  }

  onDidChange(listener: (record: TaskRecord) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Records the intent to submit before the POST leaves (state 'submitting'). */
  begin(task: NewTask): Promise<TaskRecord> {
    const time = this.now().toISOString();
    const record: TaskRecord = {
      version: 1,
      localId: randomUUID(),
      request: task.request,
      submittedAt: time,
      updatedAt: time,
      workspaceFolder: task.workspaceFolder,
      outputFolder: task.outputFolder,
      state: 'submitting',
    };
    return this.write((records) => [record, ...records], record);
  }

  /** Applies a state-machine event and persists the result before resolving. */
  apply(localId: string, event: TaskEvent): Promise<TaskRecord> {
    return this.serialised(async () => {
      const records = this.list();
      const current = records.find((r) => r.localId === localId);
      if (!current) throw new Error(`Image task ${localId} is not tracked.`);
      const next = transition(current, event, this.now());
      await this.store.update(
        TASKS_STORAGE_KEY,
        records.map((r) => (r.localId === localId ? next : r)),
      );
      this.emit(next);
      return next;
    });
  }

  /** Progress is shown, not persisted on every poll (it would be a write per poll). */
  noteProgress(record: TaskRecord, progress: number | undefined): void {
    this.emit({ ...record, progress });
  }

  /**
   * The right to save this task's images, for one caller at a time in this process: true when the
   * task is pending or an interrupted save and nobody else holds it. Release with release().
   */
  claim(localId: string): boolean {
    const record = this.get(localId);
    if (!record || (record.state !== 'pending' && record.state !== 'saving') || this.claims.has(localId)) return false;
    this.claims.add(localId);
    return true;
  }

  isClaimed(localId: string): boolean {
    return this.claims.has(localId);
  }

  release(localId: string): void {
    this.claims.delete(localId);
  }

  /** Removes a record from the list (the user's choice; pending tasks keep running at the gateway). */
  remove(localId: string): Promise<void> {
    return this.write((records) => records.filter((r) => r.localId !== localId), undefined).then(() => undefined);
  }

  private write<T>(change: (records: TaskRecord[]) => TaskRecord[], result: T): Promise<T> {
    return this.serialised(async () => {
      const next = this.prune(change(this.list()));
      await this.store.update(TASKS_STORAGE_KEY, next);
      if (result && typeof result === 'object') this.emit(result as unknown as TaskRecord);
      return result;
    });
  }

  private prune(records: TaskRecord[]): TaskRecord[] {
    const cutoff = this.now().getTime() - KEEP_FINAL_MS;
    // Unfinished records are never dropped: they stand for work the gateway may still charge for.
    const open = records.filter((r) => !isFinal(r.state));
    const final = records.filter((r) => isFinal(r.state) && Date.parse(r.updatedAt) >= cutoff);
    return [...open, ...final.slice(0, Math.max(0, MAX_RECORDS - open.length))];
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private emit(record: TaskRecord): void {
    for (const listener of this.listeners) listener(record);
  }
}
