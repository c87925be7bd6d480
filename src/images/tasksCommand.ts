// Show Image Tasks, resume on activation, and the argument form of the command used by tests
// ({action: 'list' | 'resume' | 'cancel' | 'remove' | 'resumeAll' | 'simulateReload', localId?}).
import * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { result } from './results';
import type { ImageRunner } from './runner';
import { describeTask, needsResume, type TaskRecord } from './taskRecord';
import { currentRoot } from './workspaceTarget';

const ICONS: Record<TaskRecord['state'], string> = {
  submitting: '$(cloud-upload)',
  pending: '$(sync)',
  cancelled: '$(debug-pause)',
  saving: '$(save)',
  saved: '$(check)',
  failed: '$(error)',
  expired: '$(clock)',
  unknown: '$(question)',
};

/** After activation: orphaned submissions are reported as unknown, pending tasks of this folder are followed. */
export async function resumeOnActivation(services: Services, runner: ImageRunner): Promise<void> {
  const root = currentRoot(services.context.globalState)?.toString();
  const mine = runner.tracker.list().filter((r) => r.workspaceFolder === root);
  const orphans = mine.filter((r) => r.state === 'submitting' && !runner.follower.isFollowing(r.localId));
  for (const record of orphans) {
    await runner.tracker.apply(record.localId, {
      type: 'submitUnknown',
      error: vscode.l10n.t(
        'The window closed while the request was being sent; whether the gateway received (and charged) it is unknown.',
      ),
    });
  }
  if (orphans.length) {
    void vscode.window.showWarningMessage(
      orphans.length === 1
        ? vscode.l10n.t(
            'Model Gateway: 1 image request was being sent when the window closed. It was not sent again; check the console to see whether it ran.',
          )
        : vscode.l10n.t(
            'Model Gateway: {0} image requests were being sent when the window closed. They were not sent again; check the console to see whether they ran.',
            orphans.length,
          ),
    );
  }
  for (const record of mine.filter(needsResume)) {
    if (!runner.tracker.isClaimed(record.localId)) void runner.follower.follow(record.localId, {});
  }
}

/**
 * Show Image Tasks: the picker. With an action (the test hooks, src/images/register.ts): list, resume, cancel, remove,
 * resumeAll, simulateReload.
 */
export async function showImageTasksCommand(services: Services, runner: ImageRunner, arg?: unknown): Promise<unknown> {
  const a = (typeof arg === 'object' && arg !== null ? arg : {}) as { action?: string; localId?: string };
  switch (a.action) {
    case 'list':
      return runner.tracker.list();
    case 'resume':
      return a.localId ? resumeTask(runner, a.localId) : result('failed');
    case 'cancel':
      if (a.localId) runner.follower.cancel(a.localId);
      return undefined;
    case 'remove':
      return a.localId ? runner.tracker.remove(a.localId) : undefined;
    case 'resumeAll':
      return resumeOnActivation(services, runner);
    case 'simulateReload':
      await runner.follower.detachAll();
      return resumeOnActivation(services, runner);
    default:
      return pickTask(runner);
  }
}

/** Follows a task again (a cancelled one is resumed first): the explicit way back to a task. */
export async function resumeTask(runner: ImageRunner, localId: string) {
  runner.follower.uncancel(localId);
  if (runner.tracker.get(localId)?.state === 'cancelled') await runner.tracker.apply(localId, { type: 'resumed' });
  return runner.follower.follow(localId, {});
}

async function pickTask(runner: ImageRunner): Promise<void> {
  const records = runner.tracker.list();
  if (records.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Model Gateway: no image tasks yet.'));
    return;
  }
  const picked = await vscode.window.showQuickPick(
    records.map((record) => ({
      label: `${ICONS[record.state]} ${runner.follower.isFollowing(record.localId) ? vscode.l10n.t('{0} (polling)', stateWord(record.state)) : stateWord(record.state)}`,
      description: describeTask(record, vscode.l10n),
      detail: [
        new Date(record.submittedAt).toLocaleString(vscode.env.language),
        record.taskId ? vscode.l10n.t('task {0}', record.taskId) : undefined,
        record.error,
      ]
        .filter(Boolean)
        .join(' · '),
      record,
    })),
    {
      title: vscode.l10n.t('Image Tasks'),
      placeHolder: vscode.l10n.t('Pick a task to check, open, re-run or remove'),
      matchOnDescription: true,
    },
  );
  if (picked) await actOn(runner, picked.record);
}

function stateWord(state: TaskRecord['state']): string {
  const words: Record<TaskRecord['state'], string> = {
    submitting: vscode.l10n.t('submitting'),
    pending: vscode.l10n.t('pending'),
    cancelled: vscode.l10n.t('cancelled'),
    saving: vscode.l10n.t('saving'),
    saved: vscode.l10n.t('saved'),
    failed: vscode.l10n.t('failed'),
    expired: vscode.l10n.t('expired'),
    unknown: vscode.l10n.t('unknown'),
  };
  return words[state] ?? words.unknown;
}

async function actOn(runner: ImageRunner, record: TaskRecord): Promise<void> {
  const following = runner.follower.isFollowing(record.localId);
  const root = vscode.Uri.parse(record.workspaceFolder);
  const actions: Array<{ label: string; run: () => unknown }> = [];
  if (following)
    actions.push({
      label: `$(debug-stop) ${vscode.l10n.t('Stop waiting (the gateway may still finish and charge it)')}`,
      run: () => runner.follower.cancel(record.localId),
    });
  else if (['pending', 'cancelled', 'saving'].includes(record.state))
    actions.push({
      label: `$(sync) ${vscode.l10n.t('Check now and save the images')}`,
      run: () => resumeTask(runner, record.localId),
    });
  if (record.state === 'saved' && record.files?.length) {
    const first = vscode.Uri.joinPath(root, ...record.files[0].split('/'));
    actions.push({
      label: `$(go-to-file) ${vscode.l10n.t('Open')}`,
      run: () => vscode.commands.executeCommand('vscode.open', first),
    });
    actions.push({
      label: `$(files) ${vscode.l10n.t('Reveal in Explorer')}`,
      run: () => vscode.commands.executeCommand('revealInExplorer', first),
    });
  }
  if (record.taskId)
    actions.push({
      label: `$(copy) ${vscode.l10n.t('Copy task id')}`,
      run: () => vscode.env.clipboard.writeText(record.taskId as string),
    });
  if (['saved', 'failed', 'expired', 'unknown', 'cancelled'].includes(record.state)) {
    actions.push({
      label: `$(refresh) ${vscode.l10n.t('Re-run as a new request (charged again)')}`,
      run: () => rerun(runner, record),
    });
  }
  if (!following)
    actions.push({
      label: `$(trash) ${vscode.l10n.t('Remove from this list')}`,
      run: () => runner.tracker.remove(record.localId),
    });
  const chosen = await vscode.window.showQuickPick(actions, { title: describeTask(record, vscode.l10n) });
  await chosen?.run();
}

/** Re-running is always explicit; it is a new request, with the usual charge confirmation. */
function rerun(runner: ImageRunner, record: TaskRecord) {
  const root = vscode.Uri.parse(record.workspaceFolder);
  const file = (p?: string) => (p ? vscode.Uri.joinPath(root, ...p.split('/')) : undefined);
  const r = record.request;
  return runner.run({
    kind: r.kind,
    prompt: r.prompt,
    model: r.model,
    size: r.size,
    quality: r.quality,
    n: r.n,
    source: file(r.source),
    mask: file(r.mask),
    references: r.references?.map((p) => file(p) as vscode.Uri),
  });
}
