// Follows an accepted image task: polls it (the client honours Retry-After), shows progress in a
// cancellable notification and the panel, and saves its images exactly once. Cancel stops polling
// only: the gateway may still finish (and charge) the task, which stays listed to check later.
import * as vscode from 'vscode';
import { isGatewayError } from '../gateway/errors/errors';
import type { GeneratedImage, ImageTask } from '../gateway/types';
import { createDispatcher, planProxy } from '../platform/proxy';
import { readProxySettings } from '../platform/config';
import type { Services } from '../platform/services';
import { obtainImageBytes } from './download';
import { result, runError, type RunResult } from './results';
import { checkImage, saveTaskImages, type CheckedImage } from './saver';
import { describeTask, pollDeadline, type TaskRecord } from './taskRecord';
import type { TaskTracker } from './tracker';
import { workspaceSink } from './workspaceTarget';

export interface FollowOptions {
  /** Show a cancellable withProgress notification (default true). */
  notification?: boolean;
  token?: vscode.CancellationToken;
  onProgress?(message: string, percent?: number): void;
  /** Show "Saved ..." / "Stopped ..." messages (default true). */
  announce?: boolean;
}

type Report = (message: string, percent?: number) => void;

const cancelledMessage = (): string =>
  vscode.l10n.t(
    'Stopped waiting for the image task. The gateway may still finish it and charge for it; it stays in "Show Image Tasks" so you can check it later.',
  );

export class Follower {
  private readonly running = new Map<string, AbortController>();
  /** Cancels that arrived between a task's submission and the start of its follow: applied when the follow starts. */
  private readonly cancelBeforeFollow = new Set<string>();
  /** Follows stopped as if the window had gone away: their records stay as they are. */
  private readonly detached = new Set<string>();
  private readonly onSavedEmitter = new vscode.EventEmitter<RunResult>();
  readonly onSaved = this.onSavedEmitter.event;

  constructor(
    private readonly services: Services,
    private readonly tracker: TaskTracker,
  ) {}

  isFollowing(localId: string): boolean {
    return this.running.has(localId);
  }

  /** Stops polling a task (panel's Cancel); the record becomes 'cancelled'. */
  cancel(localId: string): void {
    const running = this.running.get(localId);
    if (running) running.abort();
    else if (['submitting', 'pending'].includes(this.tracker.get(localId)?.state ?? ''))
      this.cancelBeforeFollow.add(localId);
  }

  /** Forgets an earlier Cancel: the user asked to follow the task again. */
  uncancel(localId: string): void {
    this.cancelBeforeFollow.delete(localId);
  }

  /** Stops every follow without touching its record (what a window reload does), then waits for them to let go. */
  async detachAll(): Promise<void> {
    const ids = [...this.running.keys()];
    for (const id of ids) {
      this.detached.add(id);
      this.running.get(id)?.abort();
    }
    // Until every follower let go: a task still claimed after this is not resumed by resumeOnActivation, so a
    // silent give-up (it was 5 s) left it unfollowed and surfaced only as a timeout much later.
    const deadline = Date.now() + 60_000;
    while (ids.some((id) => this.tracker.isClaimed(id))) {
      if (Date.now() > deadline) throw new Error('Image tasks: a follower did not let go within 60 s of the reload.');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Polls a pending task (or completes an interrupted save) and saves its images once. */
  async follow(localId: string, options: FollowOptions = {}): Promise<RunResult> {
    if (!this.tracker.claim(localId)) {
      const record = this.tracker.get(localId);
      return result(this.isFollowing(localId) ? 'busy' : 'failed', {
        localId,
        taskId: record?.taskId,
        message: vscode.l10n.t('This task is already being followed or is finished.'),
      });
    }
    try {
      const record = this.tracker.get(localId) as TaskRecord;
      return await this.withUi(
        `Model Gateway: ${describeTask(record, vscode.l10n)}`,
        options,
        localId,
        (report, signal) => this.pollAndSave(record, report, signal, options),
      );
    } finally {
      this.tracker.release(localId);
    }
  }

  /** Runs work under a notification (when wanted), merging its cancel, the caller's token and the panel's Cancel into one signal. */
  withUi<T>(
    title: string,
    options: FollowOptions,
    localId: string | undefined,
    work: (report: Report, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    if (localId) this.running.set(localId, controller);
    if (localId && this.cancelBeforeFollow.delete(localId)) controller.abort();
    const outer = options.token?.onCancellationRequested(() => controller.abort());
    const cleanup = () => {
      outer?.dispose();
      if (localId) this.running.delete(localId);
    };
    const base: Report = (message, percent) => options.onProgress?.(message, percent);
    if (options.notification === false) return work(base, controller.signal).finally(cleanup);
    return Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          let last = 0;
          const report: Report = (message, percent) => {
            base(message, percent);
            const increment = percent !== undefined && percent > last ? percent - last : undefined;
            if (percent !== undefined) last = Math.max(last, percent);
            progress.report({ message, increment });
          };
          return work(report, controller.signal);
        },
      ),
    ).finally(cleanup);
  }

  private async pollAndSave(
    record: TaskRecord,
    report: Report,
    signal: AbortSignal,
    options: FollowOptions,
  ): Promise<RunResult> {
    if (!record.taskId) {
      const message = vscode.l10n.t(
        'The window closed before the images of a synchronous request were saved; they cannot be fetched again.',
      );
      await this.tracker.apply(record.localId, { type: 'failed', error: message });
      return result('failed', { localId: record.localId, message });
    }
    const client = await this.services.gateway.client();
    if (!client)
      return result('pending', {
        localId: record.localId,
        taskId: record.taskId,
        message: vscode.l10n.t('No API key or base URL: the task stays pending.'),
      });
    report(vscode.l10n.t('Waiting for the gateway...'), record.progress);
    let task: ImageTask;
    try {
      task = await client.waitForImageTask(record.taskId, {
        pollUrl: record.pollUrl,
        signal,
        // Never polled forever: counted from the submission, so a reload does not start the clock again.
        deadline: pollDeadline(record, this.services.config.current.images.taskTimeoutMs),
        onUpdate: (update) => {
          report(progressText(update), update.progress);
          this.tracker.noteProgress(record, update.progress);
        },
      });
    } catch (error) {
      return this.pollFailed(record, error, options);
    }
    if (task.status === 'failed') return this.taskFailed(record, task, options);
    if (task.outcomeUnknown) return this.taskTimedOut(record, options);
    report(vscode.l10n.t('Saving...'), 100);
    return this.saveImages(record.localId, task.images, options, signal);
  }

  private async pollFailed(record: TaskRecord, error: unknown, options: FollowOptions): Promise<RunResult> {
    const base = { localId: record.localId, taskId: record.taskId, error: runError(error), cause: error };
    if (isGatewayError(error) && error.kind === 'aborted' && this.detached.delete(record.localId)) {
      return result('pending', { ...base, message: vscode.l10n.t('Detached; the task stays pending.') });
    }
    if (isGatewayError(error) && error.kind === 'aborted') {
      if (record.state === 'pending') await this.tracker.apply(record.localId, { type: 'cancelled' });
      const message = cancelledMessage();
      if (options.announce !== false)
        void vscode.window
          .showInformationMessage(`Model Gateway: ${message}`, vscode.l10n.t('Show Image Tasks'))
          .then((c) => c && vscode.commands.executeCommand('modelGateway.showImageTasks'));
      return result('cancelled', { ...base, message });
    }
    if (isGatewayError(error) && error.kind === 'not_found') {
      return this.taskFailed(
        record,
        { expired: true, error: vscode.l10n.t('The gateway no longer knows this task.') },
        options,
      );
    }
    const message = vscode.l10n.t(
      'Could not read the image task ({0}). It stays pending and is checked again on the next start, or from "Show Image Tasks".',
      runError(error).message,
    );
    if (options.announce !== false) void this.services.errors.show(error, 'image');
    return result('pending', { ...base, message });
  }

  /** Still pending past its expiry or images.taskTimeoutMinutes: outcome unknown, not polled again. */
  private async taskTimedOut(record: TaskRecord, options: FollowOptions): Promise<RunResult> {
    const message = vscode.l10n.t(
      'Image task {0} did not finish within {1} minutes (or its own expiry): its outcome is unknown — check the console (usage / tasks). It is not polled any more.',
      record.taskId ?? '',
      Math.round(this.services.config.current.images.taskTimeoutMs / 60_000),
    );
    await this.tracker.apply(record.localId, { type: 'timedOut', error: message });
    if (options.announce !== false) void vscode.window.showWarningMessage(`Model Gateway: ${message}`);
    return result('unknown', {
      localId: record.localId,
      taskId: record.taskId,
      message,
      error: { message, kind: 'outcome_unknown' },
    });
  }

  private async taskFailed(
    record: TaskRecord,
    task: Pick<ImageTask, 'expired' | 'error'>,
    options: FollowOptions,
  ): Promise<RunResult> {
    const message = task.expired
      ? vscode.l10n.t(
          'The image task {0} expired before its images were read. It is not retried; re-run it explicitly if you still want it.',
          record.taskId ?? '',
        )
      : task.error
        ? vscode.l10n.t('The gateway reports that image task {0} failed: {1}', record.taskId ?? '', task.error)
        : vscode.l10n.t('The gateway reports that image task {0} failed.', record.taskId ?? '');
    await this.tracker.apply(record.localId, task.expired ? { type: 'expired' } : { type: 'failed', error: message });
    if (options.announce !== false) void vscode.window.showErrorMessage(`Model Gateway: ${message}`);
    return result(task.expired ? 'expired' : 'failed', {
      localId: record.localId,
      taskId: record.taskId,
      message,
      error: { message, kind: task.expired ? 'expired' : 'task_failed' },
    });
  }

  /** Downloads (at once: URLs expire), checks the bytes and writes files + sidecars exactly once. */
  async saveImages(
    localId: string,
    images: GeneratedImage[],
    options: FollowOptions,
    signal?: AbortSignal,
  ): Promise<RunResult> {
    const claimedHere = this.tracker.claim(localId);
    const record = this.tracker.get(localId) as TaskRecord;
    let checked: CheckedImage[];
    try {
      checked = await this.obtainAll(images, signal);
      if (checked.length === 0) throw new Error(vscode.l10n.t('The gateway reported success but returned no images.'));
    } catch (error) {
      if (claimedHere) this.tracker.release(localId);
      return this.saveFailed(localId, error, options, true);
    }
    try {
      const saved = await saveTaskImages(
        this.tracker,
        localId,
        checked,
        workspaceSink(vscode.Uri.parse(record.workspaceFolder)),
      );
      const root = vscode.Uri.parse(saved.workspaceFolder);
      const files = (saved.files ?? []).map((f) => vscode.Uri.joinPath(root, ...f.split('/')).toString());
      const done = result('saved', { localId, taskId: saved.taskId, files, paths: saved.files ?? [] });
      this.onSavedEmitter.fire(done);
      if (options.announce !== false) announceSaved(done);
      return done;
    } catch (error) {
      return this.saveFailed(localId, error, options, false);
    } finally {
      if (claimedHere) this.tracker.release(localId);
    }
  }

  private async obtainAll(images: GeneratedImage[], signal?: AbortSignal): Promise<CheckedImage[]> {
    const dispatcher = createDispatcher(planProxy(readProxySettings(), process.env));
    try {
      const checked: CheckedImage[] = [];
      for (const image of images) {
        const bytes = await obtainImageBytes(image, {
          dispatcher,
          signal,
          baseUrl: this.services.config.current.baseUrl || undefined,
        });
        checked.push(checkImage(bytes, image.revisedPrompt));
      }
      return checked;
    } finally {
      void dispatcher?.close().catch(() => undefined);
    }
  }

  /**
   * Missing or bad image data fails the task. A failed write keeps 'saving' (its names stay reserved)
   * so the next start completes the same files.
   */
  private async saveFailed(
    localId: string,
    error: unknown,
    options: FollowOptions,
    badData: boolean,
  ): Promise<RunResult> {
    const record = this.tracker.get(localId);
    const message = vscode.l10n.t('The images could not be saved: {0}', runError(error).message);
    if (badData && (record?.state === 'pending' || record?.state === 'saving'))
      await this.tracker.apply(localId, { type: 'failed', error: message });
    if (options.announce !== false) void vscode.window.showErrorMessage(`Model Gateway: ${message}`);
    return result('failed', { localId, taskId: record?.taskId, message, error: runError(error) });
  }
}

/** The toast's line: in the user's language (the gateway's own status word, e.g. "processing", stays in the log). */
function progressText(task: ImageTask): string {
  const words =
    task.status === 'succeeded'
      ? vscode.l10n.t('Finished at the gateway')
      : task.status === 'failed'
        ? vscode.l10n.t('Failed at the gateway')
        : vscode.l10n.t('The gateway is working on it');
  return task.progress !== undefined ? vscode.l10n.t('{0} ({1}%)', words, Math.round(task.progress)) : words;
}

function announceSaved(done: RunResult): void {
  const open = vscode.l10n.t('Open');
  const reveal = vscode.l10n.t('Reveal in Explorer');
  const text =
    done.paths.length === 1
      ? vscode.l10n.t('Model Gateway: saved {0}.', done.paths[0])
      : vscode.l10n.t('Model Gateway: saved {0} images ({1}, ...).', done.paths.length, done.paths[0]);
  void vscode.window.showInformationMessage(text, open, reveal).then(async (choice) => {
    const first = vscode.Uri.parse(done.files[0]);
    if (choice === open) await vscode.commands.executeCommand('vscode.open', first);
    if (choice === reveal) await vscode.commands.executeCommand('revealInExplorer', first);
  });
}
