// Generate Image and Edit Image. Both functions accept an optional argument object ({prompt, model, size, n,
// quality}; for edits also source, mask, references) so that the test hooks (src/images/register.ts) can skip
// the input boxes; the commands pass none (Edit Image: the explorer's file). They resolve with a RunResult.
import * as vscode from 'vscode';
import type { Services } from '../platform/services';
import { askPrompt, pickMask, pickModel, pickReferences, pickSize } from './pickers';
import { result, type RunResult } from './results';
import type { ImageRunner } from './runner';
import { currentRoot, resolveInsideRoot } from './workspaceTarget';

export interface ImageCommandArgs {
  prompt?: string;
  model?: string;
  size?: string;
  n?: number;
  quality?: string;
  /** Edit only: a Uri or a workspace-relative path. */
  source?: vscode.Uri | string;
  mask?: vscode.Uri | string;
  references?: Array<vscode.Uri | string>;
  /** Show the progress notification (default true). */
  notification?: boolean;
}

export function parseArgs(value: unknown): ImageCommandArgs {
  if (typeof value !== 'object' || value === null || value instanceof vscode.Uri) return {};
  const v = value as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' && x.trim() ? x : undefined);
  const file = (x: unknown) => (x instanceof vscode.Uri || typeof x === 'string' ? x : undefined);
  return {
    prompt: str(v.prompt),
    model: str(v.model),
    size: str(v.size),
    quality: str(v.quality),
    n: typeof v.n === 'number' && Number.isInteger(v.n) && v.n >= 1 && v.n <= 10 ? v.n : undefined,
    source: file(v.source),
    mask: file(v.mask),
    references: Array.isArray(v.references)
      ? v.references.map(file).filter((x): x is vscode.Uri | string => !!x)
      : undefined,
    notification: typeof v.notification === 'boolean' ? v.notification : undefined,
  };
}

export async function generateImageCommand(services: Services, runner: ImageRunner, arg?: unknown): Promise<RunResult> {
  const args = parseArgs(arg);
  const interactive = !args.prompt;
  const prompt = args.prompt ?? (await askPrompt(vscode.l10n.t('Generate Image (1/3): prompt')));
  if (!prompt) return result('declined');
  const model =
    args.model ??
    (interactive ? await pickModel(services, runner, vscode.l10n.t('Generate Image (2/3): model')) : undefined);
  if (interactive && !model) return result('declined');
  const size =
    args.size ?? (interactive ? await pickSize(services, vscode.l10n.t('Generate Image (3/3): size')) : undefined);
  if (interactive && !size) return result('declined');
  return withProgressLog((onProgress) =>
    runner.run(
      { kind: 'generation', prompt, model, size, n: args.n, quality: args.quality },
      { notification: args.notification, onProgress },
    ),
  );
}

/** Context menus pass (uri, selectedUris); the palette passes nothing; tests pass an argument object. */
export async function editImageCommand(
  services: Services,
  runner: ImageRunner,
  first?: unknown,
  second?: unknown,
): Promise<RunResult> {
  const args = parseArgs(first instanceof vscode.Uri ? second : first);
  const root = currentRoot(services.context.globalState);
  const toUri = (x: vscode.Uri | string | undefined) =>
    typeof x === 'string' ? (root ? resolveInsideRoot(root, x) : undefined) : x;
  if (args.source !== undefined && !toUri(args.source)) {
    return result('declined', { message: vscode.l10n.t('The source image must be a file inside the workspace.') });
  }
  const source = first instanceof vscode.Uri ? first : (toUri(args.source) ?? (await activeOrPickedImage()));
  if (!source) return result('declined', { message: vscode.l10n.t('No source image.') });
  const interactive = !args.prompt;
  const prompt =
    args.prompt ??
    (await askPrompt(vscode.l10n.t('Edit {0}: what should change?', source.path.split('/').pop() ?? '')));
  if (!prompt) return result('declined');
  let mask = toUri(args.mask);
  let references = args.references?.map(toUri).filter((u): u is vscode.Uri => !!u);
  if (interactive) {
    const pickedMask = await pickMask(source);
    if (pickedMask === 'cancel') return result('declined');
    mask = pickedMask;
    references = await pickReferences(source, mask);
    if (!references) return result('declined');
  }
  const model =
    args.model ?? (interactive ? await pickModel(services, runner, vscode.l10n.t('Edit Image: model')) : undefined);
  if (interactive && !model) return result('declined');
  return withProgressLog((onProgress) =>
    runner.run(
      { kind: 'edit', prompt, model, size: args.size, n: args.n, quality: args.quality, source, mask, references },
      { notification: args.notification, onProgress },
    ),
  );
}

/** Runs a request and returns its result with the progress reports seen on the way. */
async function withProgressLog(
  run: (onProgress: (message: string, percent?: number) => void) => Promise<RunResult>,
): Promise<RunResult> {
  const progress: Array<{ message: string; percent?: number }> = [];
  const done = await run((message, percent) => void progress.push({ message, percent }));
  return { ...done, progress, cause: undefined };
}

/** The image shown in the active editor (text or image preview tab), else one picked from disk. */
async function activeOrPickedImage(): Promise<vscode.Uri | undefined> {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText ? input.uri : undefined;
  if (uri && /\.(png|jpe?g|webp)$/i.test(uri.path)) return uri;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    title: vscode.l10n.t('Edit Image: source image'),
    filters: { [vscode.l10n.t('Images')]: ['png', 'jpg', 'jpeg', 'webp'] },
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return picked?.[0];
}
