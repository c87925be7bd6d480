// The persisted record of one image request and its state machine. Pure: the tracker stores these
// in globalState through a Memento-like interface. Never holds the API key: only what the user typed
// (prompt, model, size, quality, n) and what the gateway answered (task id, poll URL).
import { english, type Localizer } from '../shared/l10n';

export type TaskKind = 'generation' | 'edit';

/**
 * submitting: the POST is on its way (no task id yet). A reload in this state means the outcome is unknown.
 * pending: the gateway accepted the task; poll it. cancelled: polling stopped by the user (resumable).
 * saving: the task succeeded and these file names were reserved; writing is in progress.
 * saved / failed / expired / unknown: final.
 */
export type TaskState = 'submitting' | 'pending' | 'cancelled' | 'saving' | 'saved' | 'failed' | 'expired' | 'unknown';

export interface TaskRequestSummary {
  kind: TaskKind;
  prompt: string;
  model: string;
  size?: string;
  quality?: string;
  n: number;
  /** Workspace-relative paths of the edit source, mask and reference images. */
  source?: string;
  mask?: string;
  references?: string[];
}

export interface TaskRecord {
  version: 1;
  /** Our own id (random), known before the gateway answers. */
  localId: string;
  /** The gateway's task id; absent for synchronous requests (nothing to poll). */
  taskId?: string;
  pollUrl?: string;
  request: TaskRequestSummary;
  /** ISO time of the submission. */
  submittedAt: string;
  updatedAt: string;
  /** Uri (string) of the folder the images are saved under. */
  workspaceFolder: string;
  /** Output folder, relative to workspaceFolder, fixed at submission. */
  outputFolder: string;
  state: TaskState;
  /** Reserved (saving) or written (saved) file paths, relative to workspaceFolder. */
  files?: string[];
  /** Last known progress, 0..100. */
  progress?: number;
  /** Why the task failed, in words (never with the key). */
  error?: string;
}

export type TaskEvent =
  | { type: 'submitted'; taskId?: string; pollUrl?: string }
  | { type: 'submitUnknown'; error: string }
  | { type: 'submitFailed'; error: string }
  | { type: 'saving'; files: string[] }
  | { type: 'saved'; files: string[] }
  | { type: 'failed'; error: string }
  | { type: 'expired' }
  /** Still pending when polling had to end (its expiry or images.taskTimeoutMinutes): the outcome is unknown. */
  | { type: 'timedOut'; error: string }
  | { type: 'cancelled' }
  | { type: 'resumed' };

const SUBMISSION_OUTCOMES: ReadonlyArray<TaskEvent['type']> = ['submitted', 'submitUnknown', 'submitFailed'];

const ALLOWED: Record<TaskState, ReadonlyArray<TaskEvent['type']>> = {
  submitting: SUBMISSION_OUTCOMES,
  pending: ['saving', 'failed', 'expired', 'cancelled', 'timedOut'],
  cancelled: ['resumed'],
  // 'saving' again: a save interrupted by a reload is completed into the same reserved names.
  saving: ['saving', 'saved', 'failed', 'expired'],
  saved: [],
  failed: [],
  expired: [],
  // A submission another activation took for orphaned (a reload, a second window on the same folder) may still
  // be alive: its own outcome, when it comes, replaces the guess (see `transition`).
  unknown: SUBMISSION_OUTCOMES,
};

/** States nothing more is known about by itself: a late submission outcome is the only way out of 'unknown'. */
const FINAL: ReadonlySet<TaskState> = new Set(['saved', 'failed', 'expired', 'unknown']);

export class TransitionError extends Error {
  constructor(
    readonly from: TaskState,
    readonly event: TaskEvent['type'],
  ) {
    super(`Image task: '${event}' is not allowed in state '${from}'.`);
    this.name = 'TransitionError';
  }
}

/** The record after `event`; throws TransitionError for a move the state machine forbids. */
export function transition(record: TaskRecord, event: TaskEvent, now: Date): TaskRecord {
  if (!ALLOWED[record.state].includes(event.type)) throw new TransitionError(record.state, event.type);
  // Out of 'unknown' only while it still stands for an unanswered submission (no task id yet): a pending task
  // whose polling ran out ('timedOut') has its answer already.
  if (record.state === 'unknown' && record.taskId !== undefined) throw new TransitionError(record.state, event.type);
  const base = { ...record, updatedAt: now.toISOString() };
  switch (event.type) {
    case 'submitted':
      return { ...base, state: 'pending', taskId: event.taskId, pollUrl: event.pollUrl };
    case 'submitUnknown':
      return { ...base, state: 'unknown', error: event.error };
    case 'submitFailed':
      return { ...base, state: 'failed', error: event.error };
    case 'saving':
      if (record.state === 'saving' && !sameFiles(record.files, event.files))
        throw new TransitionError(record.state, event.type);
      return { ...base, state: 'saving', files: event.files };
    case 'saved':
      return { ...base, state: 'saved', files: event.files, progress: 100 };
    case 'failed':
      return { ...base, state: 'failed', error: event.error };
    case 'expired':
      return { ...base, state: 'expired' };
    case 'timedOut':
      return { ...base, state: 'unknown', error: event.error };
    case 'cancelled':
      return { ...base, state: 'cancelled' };
    case 'resumed':
      return { ...base, state: 'pending' };
  }
}

function sameFiles(a: string[] | undefined, b: string[]): boolean {
  return !!a && a.length === b.length && a.every((f, i) => f === b[i]);
}

/** States in which the task should be polled (and saved) after activation. */
export function needsResume(record: TaskRecord): boolean {
  return record.state === 'pending' || record.state === 'saving';
}

export function isFinal(state: TaskState): boolean {
  return FINAL.has(state);
}

/** Validates a record read back from storage; anything malformed is dropped, never trusted. */
export function parseTaskRecord(value: unknown): TaskRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Partial<TaskRecord>;
  const req = r.request as Partial<TaskRequestSummary> | undefined;
  const states: TaskState[] = ['submitting', 'pending', 'cancelled', 'saving', 'saved', 'failed', 'expired', 'unknown'];
  if (r.version !== 1 || typeof r.localId !== 'string' || !states.includes(r.state as TaskState)) return undefined;
  if (
    !req ||
    typeof req.prompt !== 'string' ||
    typeof req.model !== 'string' ||
    (req.kind !== 'generation' && req.kind !== 'edit')
  )
    return undefined;
  if (typeof r.workspaceFolder !== 'string' || typeof r.outputFolder !== 'string' || typeof r.submittedAt !== 'string')
    return undefined;
  if (r.taskId !== undefined && typeof r.taskId !== 'string') return undefined;
  if (r.files !== undefined && !(Array.isArray(r.files) && r.files.every((f) => typeof f === 'string')))
    return undefined;
  return r as TaskRecord;
}

/** One line for lists and notifications. */
export function describeTask(record: TaskRecord, l10n: Localizer = english): string {
  const prompt = record.request.prompt.length > 60 ? `${record.request.prompt.slice(0, 57)}...` : record.request.prompt;
  const model = `${record.request.model}${record.request.size ? `, ${record.request.size}` : ''}`;
  return record.request.kind === 'edit'
    ? l10n.t('Edit: "{0}" ({1})', prompt, model)
    : l10n.t('Image: "{0}" ({1})', prompt, model);
}

/** When polling of this task ends: its submission plus images.taskTimeoutMinutes (a reload does not restart the clock). */
export function pollDeadline(record: Pick<TaskRecord, 'submittedAt'>, timeoutMs: number): number | undefined {
  const submitted = Date.parse(record.submittedAt);
  return Number.isNaN(submitted) ? undefined : submitted + timeoutMs;
}
