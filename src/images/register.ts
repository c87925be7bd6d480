// Wiring of the images feature: the task tracker over globalState, the runner, the commands, the
// panel (with its serializer) and ImageJobs for the @gateway /image chat participant.
import * as vscode from 'vscode';
import type { ImageJobs, Services } from '../platform/services';
import { Commands } from '../shared/commands';
import { isGatewayError } from '../gateway/errors';
import { editImageCommand, generateImageCommand } from './commands';
import { ImagePanelManager } from './panel';
import { ImageRunner } from './runner';
import { resumeOnActivation, showImageTasksCommand } from './tasksCommand';
import { TaskTracker } from './tracker';

export function registerImages(services: Services): vscode.Disposable & { jobs: ImageJobs; runner: ImageRunner } {
  const tracker = new TaskTracker(services.context.globalState);
  const runner = new ImageRunner(services, tracker);
  let lastEditor = vscode.window.activeTextEditor;
  const panel = new ImagePanelManager(services, runner, () => lastEditor);
  const disposables: vscode.Disposable[] = [
    panel,
    vscode.window.onDidChangeActiveTextEditor((editor) => { if (editor) lastEditor = editor; }),
    vscode.commands.registerCommand(Commands.generateImage, (arg?: unknown) => generateImageCommand(services, runner, arg)),
    vscode.commands.registerCommand(Commands.editImage, (first?: unknown, second?: unknown) => editImageCommand(services, runner, first, second)),
    vscode.commands.registerCommand(Commands.openImagePanel, () => panel.open()),
    vscode.commands.registerCommand(Commands.showImageTasks, (arg?: unknown) => showImageTasksCommand(services, runner, arg)),
  ];
  // Pending tasks of this folder resume once activation is done; a failure here must not break activation.
  const resume = setTimeout(() => void resumeOnActivation(services, runner).catch((error: unknown) => services.log.error('Resuming image tasks failed.', error)), 0);
  const jobs: ImageJobs = { generate: (request, options) => generateForJobs(runner, request, options) };
  return Object.assign(new vscode.Disposable(() => {
    clearTimeout(resume);
    disposables.forEach((d) => d.dispose());
  }), { jobs, runner });
}

/** ImageJobs.generate: same path as the command, errors returned to the caller instead of shown. */
async function generateForJobs(runner: ImageRunner, request: Parameters<ImageJobs['generate']>[0], options: Parameters<ImageJobs['generate']>[1] = {}): Promise<vscode.Uri[]> {
  const done = await runner.run(
    { kind: 'generation', prompt: request.prompt, model: request.model, size: request.size, n: request.n },
    { notification: false, presentErrors: false, announce: false, token: options.token, onProgress: options.onProgress },
  );
  if (done.status === 'saved') return done.files.map((f) => vscode.Uri.parse(f));
  if (isGatewayError(done.cause)) throw done.cause;
  const error = new Error(done.message ?? vscode.l10n.t("The image request ended as '{0}'.", done.status));
  throw Object.assign(error, { status: done.error?.status, kind: done.error?.kind });
}
