// Runs one image request: checks the model against the catalog (docs/gateway-protocol.md#model-permission), asks before costlier
// calls, persists the request, submits it once (never replayed: docs/gateway-protocol.md#outcome-unknown), then hands over to the
// follower that polls and saves. Sync mode sends one blocking request instead.
import * as vscode from 'vscode';
import { isGatewayError } from '../gateway/errors/errors';
import { cancelOnlyWhileWaiting, type WaitNotice } from '../gateway/retry';
import type { GatewayClient, ImageEditRequest, ImageInput, ImageRequest } from '../gateway/types';
import type { Services } from '../platform/services';
import { costConfirmationMessage, costFactors } from '../shared/imageCost';
import { isAsyncRouteMissing, knownWithoutAsync, rememberWithoutAsync } from '../platform/imageRoutes';
import { Follower, type FollowOptions } from './follower';
import { RequestQueue } from './queue';
import { result, runError, type RunResult } from './results';
import { checkImage } from './saver';
import type { TaskRecord, TaskRequestSummary } from './taskRecord';
import type { TaskTracker } from './tracker';
import { relativeToRoot, resolveTarget, type ImageTarget } from './workspaceTarget';
import { mimeTypeOf } from './format';
import type { ImageRequestOf } from './request';

export type ImageRunRequest = ImageRequestOf<vscode.Uri>;

export interface RunOptions extends FollowOptions {
  /** False for callers that present errors themselves (the chat participant). Default true. */
  presentErrors?: boolean;
  /** True when the user already agreed to this request's charge factors elsewhere (VS Code's tool confirmation): no second question. */
  chargeConfirmed?: boolean;
}

export const LAST_MODEL_KEY = 'modelGateway.images.lastModel';
export const LAST_SIZE_KEY = 'modelGateway.images.lastSize';

interface Prepared {
  client: GatewayClient;
  target: ImageTarget;
  summary: TaskRequestSummary;
  body: ImageRequest | ImageEditRequest;
}

export class ImageRunner {
  readonly queue = new RequestQueue();
  readonly follower: Follower;

  constructor(
    private readonly services: Services,
    readonly tracker: TaskTracker,
  ) {
    this.follower = new Follower(services, tracker);
  }

  /** Models this key may send to image routes (docs/gateway-protocol.md#model-permission); throws what the catalog throws. */
  async imageModelIds(): Promise<string[]> {
    return (await this.services.catalog.imageModels()).map((m) => m.id);
  }

  /** The model to preselect: the setting, else the last used, else the first image model. */
  defaultModel(models: string[]): string | undefined {
    const candidates = [
      this.services.config.current.images.defaultModel,
      this.services.context.globalState.get<string>(LAST_MODEL_KEY),
    ];
    return candidates.find((m) => m && models.includes(m)) ?? models[0];
  }

  async run(input: ImageRunRequest, options: RunOptions = {}): Promise<RunResult> {
    // Reference images travel on the edit route (the generation route takes no images).
    const request: ImageRunRequest =
      input.kind === 'generation' && input.references?.length ? { ...input, kind: 'edit' } : input;
    const prepared = await this.prepare(request, options);
    if ('status' in prepared) return prepared;
    if (!options.chargeConfirmed && !(await this.confirmCost(request, prepared.summary)))
      return result('declined', { message: vscode.l10n.t('Not sent: the charge was not confirmed.') });
    await this.remember(prepared.summary);
    // A gateway known to lack the async routes (it answered 404 before) gets the synchronous route at once.
    const sync =
      this.services.config.current.images.mode === 'sync' ||
      knownWithoutAsync(this.services.context.globalState, prepared.client.baseUrl);
    return sync ? this.runSync(prepared, options) : this.runAsync(prepared, options);
  }

  private async prepare(request: ImageRunRequest, options: RunOptions): Promise<Prepared | RunResult> {
    const fail = (message: string, status: RunResult['status'] = 'unavailable'): RunResult => {
      if (options.presentErrors !== false) void vscode.window.showErrorMessage(`Model Gateway: ${message}`);
      return result(status, { message, error: { message, kind: 'precondition' } });
    };
    if (!request.prompt.trim()) return fail(vscode.l10n.t('An image request needs a prompt.'), 'declined');
    const client = await (options.presentErrors === false
      ? this.services.gateway.client()
      : this.services.gateway.clientOrExplain());
    if (!client) {
      const message = vscode.l10n.t('No API key or base URL is configured.');
      return result('unavailable', { message, error: { message, kind: 'precondition' } });
    }
    const model = await this.resolveModel(request.model, options);
    if (typeof model !== 'string') return model.message ? fail(model.message) : result('unavailable');
    const target = await resolveTarget(
      this.services.context.globalState,
      this.services.config.current.images.outputFolder,
      request.source,
    );
    if (!target) return result('declined', { message: vscode.l10n.t('No folder to save images into.') });
    const images = this.services.config.current.images;
    const summary: TaskRequestSummary = {
      kind: request.kind,
      prompt: request.prompt.trim(),
      model,
      size: request.size || images.defaultSize,
      quality: request.quality || images.defaultQuality || undefined,
      n: request.n ?? 1,
    };
    const inputs = request.kind === 'edit' ? await this.readInputs(request, target, summary) : undefined;
    if (typeof inputs === 'string') return fail(inputs, 'failed');
    const base: ImageRequest = {
      model,
      prompt: summary.prompt,
      size: summary.size,
      n: summary.n,
      quality: summary.quality,
    };
    return { client, target, summary, body: inputs ? { ...base, ...inputs } : base };
  }

  private async resolveModel(
    requested: string | undefined,
    options: RunOptions,
  ): Promise<string | { message?: string }> {
    let models: string[];
    try {
      models = await this.imageModelIds();
    } catch (error) {
      if (options.presentErrors !== false) await this.services.errors.show(error, 'models');
      return { message: options.presentErrors === false ? runError(error).message : undefined };
    }
    if (models.length === 0) {
      return {
        message: vscode.l10n.t(
          'GET /v1/models returns no image models for this key. Its key group may not have image route permission: check the key group in the console, or use a key that lists image models.',
        ),
      };
    }
    if (!requested) return this.defaultModel(models) as string;
    if (models.includes(requested)) return requested;
    return {
      message: vscode.l10n.t(
        '"{0}" is not an image model returned for this key by GET /v1/models (image routes only accept those: {1}).',
        requested,
        models.join(', '),
      ),
    };
  }

  /** Edit inputs: the source first, then reference images; every file checked to be an image by its bytes. */
  private async readInputs(
    request: ImageRunRequest,
    target: ImageTarget,
    summary: TaskRequestSummary,
  ): Promise<Pick<ImageEditRequest, 'images' | 'mask'> | string> {
    if (!request.source && !request.references?.length) return vscode.l10n.t('An edit needs a source image.');
    try {
      const read = async (uri: vscode.Uri): Promise<ImageInput> => {
        const checked = checkImage(await vscode.workspace.fs.readFile(uri));
        return { data: checked.bytes, filename: uri.path.split('/').pop(), mimeType: mimeTypeOf(checked.format) };
      };
      const references = request.references ?? [];
      const images = [
        ...(request.source ? [await read(request.source)] : []),
        ...(await Promise.all(references.map(read))),
      ];
      const mask = request.mask ? await read(request.mask) : undefined;
      const rel = (uri: vscode.Uri) => relativeToRoot(target.folder, uri) ?? uri.path.split('/').pop() ?? '';
      summary.source = request.source ? rel(request.source) : undefined;
      summary.mask = request.mask ? rel(request.mask) : undefined;
      summary.references = references.map(rel);
      return { images, mask };
    } catch (error) {
      return vscode.l10n.t(
        'Cannot use the selected image: {0}',
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  private async confirmCost(request: ImageRunRequest, summary: TaskRequestSummary): Promise<boolean> {
    const reasons = costFactors(
      {
        kind: summary.kind,
        n: summary.n,
        size: summary.size,
        quality: summary.quality,
        referenceCount: request.references?.length ?? 0,
        hasMask: !!request.mask,
        hasSource: !!request.source,
      },
      { size: this.services.config.current.images.defaultSize },
      vscode.l10n,
    );
    if (reasons.length === 0 || !this.services.config.current.images.confirmCostlyRequests) return true;
    const send = vscode.l10n.t('Send Request');
    const choice = await vscode.window.showWarningMessage(
      costConfirmationMessage(reasons, vscode.l10n),
      {
        modal: true,
        detail: vscode.l10n.t('Turn this question off with the setting modelGateway.images.confirmCostlyRequests.'),
      },
      send,
    );
    return choice === send;
  }

  private async remember(summary: TaskRequestSummary): Promise<void> {
    await this.services.context.globalState.update(LAST_MODEL_KEY, summary.model);
    if (summary.size) await this.services.context.globalState.update(LAST_SIZE_KEY, summary.size);
  }

  private async runAsync(prepared: Prepared, options: RunOptions): Promise<RunResult> {
    const { client, target, summary, body } = prepared;
    const record = await this.tracker.begin({
      request: summary,
      workspaceFolder: target.folder.toString(),
      outputFolder: target.outputFolder,
    });
    this.announcePause(options);
    options.onProgress?.(vscode.l10n.t('Submitting the image task...'));
    let ref: Awaited<ReturnType<typeof client.submitImageTask>>;
    try {
      // No abort signal: once the POST left, cancelling would only make its outcome unknown. A wait before
      // sending (429 Retry-After) is shown, like the queue's pause.
      const wait = { onWait: (notice: WaitNotice) => this.announceWait(notice, options) };
      ref = await this.queue.run(() =>
        summary.kind === 'edit'
          ? client.submitImageTask('edit', body as ImageEditRequest, wait)
          : client.submitImageTask('generation', body, wait),
      );
    } catch (error) {
      // No async route here (404/405 before any processing, nothing charged): the same request once on the sync route.
      if (isAsyncRouteMissing(error)) {
        await this.switchToSync(client.baseUrl, options);
        return this.runSync(prepared, options, record);
      }
      return this.submitFailed(record.localId, error, options);
    }
    // Outside the try: a failure to record the answer is not a failed submission (the task exists at the gateway).
    await this.tracker.apply(record.localId, { type: 'submitted', taskId: ref.id, pollUrl: ref.pollUrl });
    return this.follower.follow(record.localId, options);
  }

  /** Remembers that this base URL has no async image routes, and says so once. */
  private async switchToSync(baseUrl: string, options: RunOptions): Promise<void> {
    const first = await rememberWithoutAsync(this.services.context.globalState, baseUrl);
    const message = vscode.l10n.t(
      'This gateway has no async image routes (the async submit answered 404 before any processing, so nothing was charged). The request is sent once on the synchronous route, and later image requests to {0} use it directly.',
      baseUrl,
    );
    this.services.log.info(message);
    if (first && options.announce !== false) void vscode.window.showInformationMessage(`Model Gateway: ${message}`);
  }

  /** One blocking request; `existing`: the record of an async submit that found no async route. */
  private async runSync(prepared: Prepared, options: RunOptions, existing?: TaskRecord): Promise<RunResult> {
    const { client, target, summary, body } = prepared;
    const record =
      existing ??
      (await this.tracker.begin({
        request: summary,
        workspaceFolder: target.folder.toString(),
        outputFolder: target.outputFolder,
      }));
    this.announcePause(options);
    options.onProgress?.(vscode.l10n.t('Waiting for the gateway (synchronous request)...'));
    let images;
    try {
      const title =
        summary.kind === 'edit'
          ? vscode.l10n.t('Model Gateway: editing image')
          : vscode.l10n.t('Model Gateway: generating image');
      const response = await this.follower.withUi(title, options, undefined, (report, signal) => {
        // Cancel works during a wait before sending (429 Retry-After), never once the billable POST left.
        const wait = cancelOnlyWhileWaiting(signal, (notice) => {
          if (notice.ms > 0) report(waitText(notice));
          else report(vscode.l10n.t('Waiting for the gateway (synchronous request)...'));
        });
        return this.queue.run(() =>
          summary.kind === 'edit' ? client.editImage(body as ImageEditRequest, wait) : client.generateImage(body, wait),
        );
      });
      images = response.images;
    } catch (error) {
      return this.submitFailed(record.localId, error, options);
    }
    await this.tracker.apply(record.localId, { type: 'submitted' });
    return this.follower.saveImages(record.localId, images, options);
  }

  /** After a 429 the queue holds requests until Retry-After has passed: say so instead of looking stuck. */
  private announcePause(options: RunOptions): void {
    const pause = this.queue.pendingPauseMs();
    if (pause <= 0) return;
    const text = waitText({ ms: pause });
    options.onProgress?.(text);
    if (options.announce !== false) vscode.window.setStatusBarMessage(`$(watch) Model Gateway: ${text}`, pause);
  }

  /** The client waits before sending (429 Retry-After): say so, in the progress and the status bar. */
  private announceWait(notice: WaitNotice, options: RunOptions): void {
    if (notice.ms <= 0) return;
    options.onProgress?.(waitText(notice));
    if (options.announce !== false)
      vscode.window.setStatusBarMessage(`$(watch) Model Gateway: ${waitText(notice)}`, notice.ms);
  }

  /** Timeouts and dropped connections are "outcome unknown": reported, never resubmitted. */
  private async submitFailed(localId: string, error: unknown, options: RunOptions): Promise<RunResult> {
    const unknown = isGatewayError(error) && (error.outcomeUnknown || error.kind === 'timeout');
    const message = unknown
      ? vscode.l10n.t(
          'The gateway did not answer the image request. It may still have been processed and charged, so it was NOT sent again. Check the console (usage / tasks) before re-running it.',
        )
      : runError(error).message;
    await this.tracker.apply(
      localId,
      unknown ? { type: 'submitUnknown', error: message } : { type: 'submitFailed', error: message },
    );
    // The presenter words it per the spec (outcome unknown: not replayed; check the console) and logs the support record.
    if (options.presentErrors !== false) void this.services.errors.show(error, 'image');
    return result(unknown ? 'unknown' : 'failed', { localId, message, error: runError(error), cause: error });
  }
}

function waitText(notice: Pick<WaitNotice, 'ms'>): string {
  return vscode.l10n.t(
    'Rate limited by the gateway: this request waits {0} s (Retry-After) before it is sent.',
    Math.max(1, Math.ceil(notice.ms / 1000)),
  );
}
