// Wiring of the images feature: the task tracker over globalState, the runner, the commands (one table of
// named handlers), the panel (with its serializer) and ImageJobs for the @gateway /image chat participant.
// Its own bundle (dist/features/images.js), loaded on first use; src/extension.ts registers the stubs and
// loads it at activation only when a task of an earlier window waits to be resumed (pending.ts).
import * as vscode from 'vscode';
import type { CommandTable, TestHooks } from '../platform/commands';
import type { ImageJobs, Services } from '../platform/services';
import { Commands } from '../shared/commands';
import { DisposableStore } from '../shared/dispose';
import { SYNC_ONLY_STATE_KEY } from '../platform/imageRoutes';
import { isGatewayError } from '../gateway/errors/errors';
import { editImageCommand, generateImageCommand } from './commands';
import { ImagePanelManager } from './panel';
import { ImageRunner } from './runner';
import { resumeOnActivation, showImageTasksCommand } from './tasksCommand';
import { TaskTracker } from './tracker';

/** What the images bundle gives activate() and the features that use images (native chat, tools). */
export interface ImagesFeature extends vscode.Disposable {
  readonly commands: CommandTable<'images'>;
  /** Generate and edit with an argument object (no input boxes), the task list and its actions (tasksCommand.ts). */
  readonly testHooks: TestHooks;
  readonly jobs: ImageJobs;
  readonly runner: ImageRunner;
  /** Resumes this folder's pending tasks (after a reload); never throws. */
  resume(): Promise<void>;
  /** The panel restored by VS Code after a reload. */
  deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

export function registerImages(services: Services): ImagesFeature {
  const store = new DisposableStore();
  const tracker = new TaskTracker(services.context.globalState);
  const runner = new ImageRunner(services, tracker);
  let lastEditor = vscode.window.activeTextEditor;
  const panel = store.add(new ImagePanelManager(services, runner, () => lastEditor));
  store.add(
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor) lastEditor = editor;
    }),
  );

  const generateImage = () => generateImageCommand(services, runner);
  // The explorer's context menu passes the file.
  const editImage = (uri?: unknown) => editImageCommand(services, runner, uri instanceof vscode.Uri ? uri : undefined);
  const openImagePanel = () => panel.open();
  const showImageTasks = () => showImageTasksCommand(services, runner);
  const commands: CommandTable<'images'> = {
    [Commands.generateImage]: generateImage,
    [Commands.editImage]: editImage,
    [Commands.openImagePanel]: openImagePanel,
    [Commands.showImageTasks]: showImageTasks,
  };

  let resumed: Promise<void> | undefined;
  const resume = (): Promise<void> =>
    (resumed ??= resumeOnActivation(services, runner).catch((error: unknown) =>
      services.log.error('Resuming image tasks failed.', error),
    ));
  const jobs: ImageJobs = { generate: (request, options) => generateForJobs(runner, request, options) };
  return {
    commands,
    jobs,
    runner,
    resume,
    testHooks: {
      generateImage: (arg: unknown) => generateImageCommand(services, runner, arg),
      editImage: (first: unknown, second?: unknown) => editImageCommand(services, runner, first, second),
      imageTasks: (arg: unknown) => showImageTasksCommand(services, runner, arg),
      // Tests share one emulator: forget which base URLs were found without async image routes.
      forgetSyncOnlyImageRoutes: () => services.context.globalState.update(SYNC_ONLY_STATE_KEY, undefined),
    },
    deserializeWebviewPanel: (webviewPanel) => panel.deserializeWebviewPanel(webviewPanel),
    dispose: () => store.dispose(),
  };
}

/** ImageJobs.generate: same path as the command, errors returned to the caller instead of shown. */
async function generateForJobs(
  runner: ImageRunner,
  request: Parameters<ImageJobs['generate']>[0],
  options: Parameters<ImageJobs['generate']>[1] = {},
): Promise<vscode.Uri[]> {
  const done = await runner.run(
    { kind: 'generation', prompt: request.prompt, model: request.model, size: request.size, n: request.n },
    {
      notification: false,
      presentErrors: false,
      announce: false,
      token: options.token,
      onProgress: options.onProgress,
    },
  );
  if (done.status === 'saved') return done.files.map((f) => vscode.Uri.parse(f));
  if (isGatewayError(done.cause)) throw done.cause;
  const error = new Error(done.message ?? vscode.l10n.t("The image request ended as '{0}'.", done.status));
  throw Object.assign(error, { status: done.error?.status, kind: done.error?.kind });
}
