// The gateway tools' work, loaded on the first prepare/invoke (src/lm/host/tools/register.ts imports it lazily).
// Image tools run the image panel's pipeline (ImageRunner: catalog check, persisted record before the POST,
// one submission, follower, saver with sidecar, resume after reload); nothing here talks to the gateway itself.
import * as vscode from 'vscode';
import type { ImageRunner } from '../../../images/runner';
import { currentRoot, relativeToRoot } from '../../../images/workspaceTarget';
import type { Services } from '../../../platform/services';
import { describeForLanguageModel } from '../../lmErrors';
import { languageModelError } from '../lmApi';
import {
  checkImageInput,
  imageConfirmation,
  imageInvocationMessage,
  imageResultText,
  modelsResultText,
  pathShape,
  scrubSecret,
  type ChargeSummary,
  type ImageToolInput,
} from '../../toolText';

export interface ToolDeps {
  services: Services;
  runner: ImageRunner;
}

/** An error whose message is meant for the calling model (and the user reading the tool call). */
class ToolInputError extends Error {}

interface Resolved {
  input: ImageToolInput;
  root: vscode.Uri;
  source?: vscode.Uri;
  mask?: vscode.Uri;
  references: vscode.Uri[];
}

/**
 * A path from tool input as a file inside the workspace folder, or a ToolInputError saying why not. The shape
 * (inside the workspace, no '..') is checked always; existence and file type only when `stat` is set: that
 * state can change between VS Code's prepare and invoke calls, so prepare never relies on it to skip the
 * confirmation.
 */
async function resolveFile(root: vscode.Uri, value: string, role: string, stat: boolean): Promise<vscode.Uri> {
  const shape = pathShape(value);
  if (shape.kind === 'invalid') throw new ToolInputError(`The ${role} path is not usable: ${shape.reason}`);
  let uri: vscode.Uri;
  if (shape.kind === 'relative') {
    uri = vscode.Uri.joinPath(root, ...shape.segments);
  } else {
    // Absolute: the same file system as the workspace folder, and inside it.
    const asFile = vscode.Uri.file(shape.path);
    uri = root.with({ path: asFile.path });
    if (relativeToRoot(root, uri) === undefined) {
      throw new ToolInputError(
        `The ${role} "${value}" is outside the workspace folder; only files inside the workspace can be used.`,
      );
    }
  }
  if (!stat) return uri;
  let info: vscode.FileStat;
  try {
    info = await vscode.workspace.fs.stat(uri);
  } catch {
    throw new ToolInputError(`The ${role} "${value}" does not exist in the workspace.`);
  }
  // A link inside the workspace may point anywhere: its target is never read or uploaded.
  if (info.type & vscode.FileType.SymbolicLink)
    throw new ToolInputError(`The ${role} "${value}" is a symbolic link; use the image file itself.`);
  if (!(info.type & vscode.FileType.File)) throw new ToolInputError(`The ${role} "${value}" is not a file.`);
  return uri;
}

async function resolveImageInput(
  deps: ToolDeps,
  kind: 'generation' | 'edit',
  raw: unknown,
  stat: boolean,
): Promise<Resolved> {
  const checked = checkImageInput(kind, raw);
  if (!checked.ok) throw new ToolInputError(checked.reason);
  const input = checked.value;
  const root = currentRoot(deps.services.context.globalState);
  if (!root)
    throw new ToolInputError(
      'No workspace folder is open: the image tools save into the workspace, so open a folder first.',
    );
  const source = input.source ? await resolveFile(root, input.source, 'source image', stat) : undefined;
  const mask = input.mask ? await resolveFile(root, input.mask, 'mask', stat) : undefined;
  const references: vscode.Uri[] = [];
  for (const reference of input.references)
    references.push(await resolveFile(root, reference, 'reference image', stat));
  return { input, root, source, mask, references };
}

function summaryOf(deps: ToolDeps, resolved: Resolved): ChargeSummary {
  const images = deps.services.config.current.images;
  const rel = (uri: vscode.Uri | undefined) => (uri ? (relativeToRoot(resolved.root, uri) ?? uri.path) : undefined);
  // The default model as the runner will pick it, from the cached list only (no network before the user agrees).
  const cached =
    deps.services.catalog
      .peek()
      ?.models.filter((m) => m.kind === 'image')
      .map((m) => m.id) ?? [];
  const model = resolved.input.model ?? (cached.length > 0 ? deps.runner.defaultModel(cached) : undefined);
  return {
    input: resolved.input,
    model,
    size: resolved.input.size ?? images.defaultSize,
    defaultSize: images.defaultSize,
    quality: resolved.input.quality ?? (images.defaultQuality || undefined),
    source: rel(resolved.source),
    mask: rel(resolved.mask),
    references: resolved.references.map((r) => rel(r) ?? ''),
  };
}

async function secret(services: Services): Promise<string | undefined> {
  return services.keys.activeSecret().catch(() => undefined);
}

/** Any failure as a LanguageModelError whose message is the spec's advice (adviseOnError), never the key. */
async function asToolError(services: Services, error: unknown): Promise<Error> {
  if (error instanceof vscode.CancellationError) return error;
  const key = await secret(services);
  if (error instanceof ToolInputError) return new Error(scrubSecret(error.message, key));
  const { code, message } = describeForLanguageModel(error, { baseUrl: services.config.current.baseUrl, secret: key });
  return languageModelError(code, message);
}

export async function prepareImage(
  deps: ToolDeps,
  kind: 'generation' | 'edit',
  raw: unknown,
): Promise<vscode.PreparedToolInvocation> {
  let resolved: Resolved;
  try {
    resolved = await resolveImageInput(deps, kind, raw, false);
  } catch (error) {
    // The input itself is unusable (not a state that may change before invoke): invoke refuses it with the
    // reason and sends nothing, so there is nothing to confirm.
    if (error instanceof ToolInputError) return { invocationMessage: vscode.l10n.t('Checking the image request') };
    throw error;
  }
  const confirmation = imageConfirmation(summaryOf(deps, resolved), vscode.l10n);
  return {
    invocationMessage: imageInvocationMessage(resolved.input, vscode.l10n),
    confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) },
  };
}

export async function invokeImage(
  deps: ToolDeps,
  kind: 'generation' | 'edit',
  raw: unknown,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  const { services, runner } = deps;
  try {
    const resolved = await resolveImageInput(deps, kind, raw, true);
    const { input } = resolved;
    const done = await runner.run(
      {
        kind,
        prompt: input.prompt,
        model: input.model,
        size: input.size,
        quality: input.quality,
        n: input.n,
        source: resolved.source,
        mask: resolved.mask,
        references: resolved.references,
      },
      // VS Code showed the charge factors in its confirmation (prepareImage) before calling invoke: no second
      // question. VS Code shows the tool's progress in chat; the task stays in Show Image Tasks for a later look.
      { notification: false, presentErrors: false, announce: false, token, chargeConfirmed: true },
    );
    if (done.status === 'saved') {
      const summary = summaryOf(deps, resolved);
      const text = imageResultText({
        paths: done.paths,
        model: summary.model,
        size: summary.size,
        taskId: done.taskId,
        kind,
        source: summary.source,
      });
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(scrubSecret(text, await secret(services))),
      ]);
    }
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (done.cause !== undefined) throw done.cause;
    throw new ToolInputError(done.message ?? `The image request ended as '${done.status}'; nothing was saved.`);
  } catch (error) {
    throw await asToolError(services, error);
  }
}

/** list gateway models: the cached list of the active key; one fetch only when nothing was fetched yet. */
export async function invokeListModels(deps: ToolDeps): Promise<vscode.LanguageModelToolResult> {
  const { services } = deps;
  try {
    const key = await services.keys.active();
    let snapshot = services.catalog.peek();
    // get() answers from a fresh cache, else fetches through the catalog's gate (one at a time, automatic
    // fetches rate-limited), so repeated tool calls never become a request loop.
    if (!snapshot || snapshot.fetchedAt === 0) snapshot = await services.catalog.get();
    if (!key || !snapshot) {
      throw new ToolInputError(
        'No API key is set for Model Gateway: the user sets one with the command "Model Gateway: Set API Key".',
      );
    }
    const text = modelsResultText({
      keyName: key.name,
      baseUrl: snapshot.baseUrl,
      fetchedAt: snapshot.fetchedAt,
      listUnavailable: snapshot.listUnavailable,
      chat: snapshot.models.filter((m) => m.kind === 'chat').map((m) => m.id),
      image: snapshot.models.filter((m) => m.kind === 'image').map((m) => m.id),
    });
    return new vscode.LanguageModelToolResult([
      new vscode.LanguageModelTextPart(scrubSecret(text, await secret(services))),
    ]);
  } catch (error) {
    throw await asToolError(services, error);
  }
}
