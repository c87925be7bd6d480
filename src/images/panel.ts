// The image panel: one WebviewPanel, restored after reload by its serializer, connected through the one webview
// channel (src/platform/webviewChannel.ts: validation, ready handshake, the panel's subscriptions). The host resolves
// every path the webview names inside the workspace, and maps gallery ids back through its own table (the webview
// never chooses a file to act on).
import * as vscode from 'vscode';
import type { CatalogSnapshot, Services } from '../platform/services';
import { WebviewChannel } from '../platform/webviewChannel';
import { renderWebviewHtml, webviewOptions } from '../platform/webviewHtml';
import { Views } from '../shared/commands';
import { DisposableStore } from '../shared/dispose';
import type { MessageOf } from '../shared/protocol/channel';
import {
  imagesGuard,
  type HostToImagesMessage,
  type ImageForm,
  type ImagesShapes,
  type PanelSnapshot,
  type SubmitResult,
  type TaskView,
} from '../shared/protocol/images';
import { webviewStringTable } from '../shared/webviewStrings';
import { readGallery, thumbnailOf, toGalleryItems, type GalleryEntry } from './gallery';
import { outputFolderSegments } from './paths';
import { COMMON_SIZES, workspaceImages } from './pickers';
import { LAST_SIZE_KEY, type ImageRunner } from './runner';
import { galleryAction } from './galleryActions';
import type { TaskRecord } from './taskRecord';
import { resumeTask } from './tasksCommand';
import { currentRoot, relativeToRoot, resolveInsideRoot } from './workspaceTarget';

export class ImagePanelManager implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private gallery = new Map<string, GalleryEntry>();
  private readonly subscriptions = new DisposableStore();
  private readonly channel: WebviewChannel<ImagesShapes>;

  constructor(
    private readonly services: Services,
    private readonly runner: ImageRunner,
    private readonly lastEditor: () => vscode.TextEditor | undefined,
  ) {
    this.channel = new WebviewChannel<ImagesShapes>({
      guard: imagesGuard,
      log: services.log,
      strings: () => webviewStringTable(vscode.l10n),
      onReady: () => this.sendSnapshot(),
      onNotification: (message) => this.handle(message),
      onRequest: (message) => this.submit(message.form),
      // A prefill (Re-run with changes) opens the panel: it must reach the page that is still loading.
      waitsForReady: (message) => message.type === 'prefill',
    });
    this.subscriptions.add(vscode.window.registerWebviewPanelSerializer(Views.imagePanel, this));
    this.subscriptions.add(this.channel);
  }

  /** Opens (or reveals) the panel, optionally with a form prefilled (Re-run with changes). */
  open(prefill?: ImageForm): void {
    if (!this.panel) {
      const panel = vscode.window.createWebviewPanel(
        Views.imagePanel,
        vscode.l10n.t('Images'),
        vscode.ViewColumn.Active,
        { ...webviewOptions(this.services.context.extensionUri), retainContextWhenHidden: false },
      );
      this.attach(panel);
    } else {
      this.panel.reveal();
    }
    if (prefill) this.post({ type: 'prefill', form: prefill });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    this.panel?.dispose();
    this.attach(panel);
  }

  dispose(): void {
    this.panel?.dispose();
    this.subscriptions.dispose();
  }

  get isOpen(): boolean {
    return !!this.panel;
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    const extensionUri = this.services.context.extensionUri;
    panel.webview.options = webviewOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.svg');
    panel.webview.html = renderWebviewHtml(panel.webview, extensionUri, {
      script: 'images',
      styles: ['common.css', 'images.css'],
      title: 'Images',
    });
    this.channel.attach(panel, [
      panel.onDidDispose(() => {
        if (this.panel === panel) this.panel = undefined;
      }),
      this.runner.tracker.onDidChange((record) => this.postTask(record)),
      this.runner.follower.onSaved(() => void this.sendGallery()),
      // Never fetch in reaction to a catalog change (a fetch fires it): show what it carries.
      this.services.catalog.onDidChange((snapshot) => this.postModels(imageIdsOf(snapshot))),
      this.services.config.onDidChange(() => void this.sendSnapshot()),
      this.watchSidecars(),
    ]);
  }

  private watchSidecars(): vscode.Disposable {
    const root = this.root();
    const segments = outputFolderSegments(this.services.config.current.images.outputFolder);
    if (!root || !segments.ok) return new vscode.Disposable(() => undefined);
    const folder = vscode.Uri.joinPath(root, ...segments.segments);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '*.json'));
    let timer: NodeJS.Timeout | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void this.sendGallery(), 300);
    };
    return vscode.Disposable.from(
      watcher,
      watcher.onDidCreate(refresh),
      watcher.onDidDelete(refresh),
      watcher.onDidChange(refresh),
    );
  }

  private root(): vscode.Uri | undefined {
    return currentRoot(this.services.context.globalState);
  }

  private post(message: HostToImagesMessage): void {
    this.channel.post(message);
  }

  private async handle(message: MessageOf<ImagesShapes['toHost']>): Promise<void> {
    switch (message.type) {
      case 'refreshModels':
        await this.services.catalog.refresh().catch((e: unknown) => this.services.errors.show(e, 'models'));
        return this.sendModels();
      case 'refreshGallery':
        return this.sendGallery();
      case 'pick':
        return this.pick(message.slot);
      case 'unpick':
        return;
      case 'formChanged':
        return;
      case 'cancelTask':
        this.runner.follower.cancel(message.localId);
        return;
      case 'resumeTask':
        void resumeTask(this.runner, message.localId);
        return;
      case 'galleryAction': {
        const entry = this.gallery.get(message.id);
        if (!entry) return;
        const prefill = await galleryAction(message.action, entry, this.root(), this.lastEditor());
        if (prefill) this.post({ type: 'prefill', form: prefill });
        return;
      }
    }
  }

  private async sendSnapshot(): Promise<void> {
    const root = this.root();
    const images = this.services.config.current.images;
    const models = await this.modelList();
    const size = this.services.context.globalState.get<string>(LAST_SIZE_KEY) ?? images.defaultSize;
    const sizes = [...new Set([images.defaultSize, size, ...COMMON_SIZES])];
    const snapshot: PanelSnapshot = {
      models: models.ids,
      modelsNotice: models.notice,
      sizes,
      form: {
        mode: 'generate',
        prompt: '',
        model: this.runner.defaultModel(models.ids) ?? '',
        size: images.defaultSize,
        quality: images.defaultQuality,
        n: 1,
        references: [],
      },
      gallery: [],
      tasks: this.taskViews(),
      requestMode: images.mode,
      folderName: root ? root.path.split('/').pop() : undefined,
      outputFolder: images.outputFolder,
    };
    this.post({ type: 'snapshot', snapshot });
    await this.sendGallery();
  }

  private async modelList(): Promise<{ ids: string[]; notice?: string }> {
    try {
      const ids = await this.runner.imageModelIds();
      return {
        ids,
        notice: ids.length
          ? undefined
          : vscode.l10n.t(
              'Your key lists no image models (GET /v1/models). Its key group may lack image route permission.',
            ),
      };
    } catch (error) {
      return {
        ids: [],
        notice: vscode.l10n.t(
          'Could not load the model list: {0}',
          error instanceof Error ? error.message : String(error),
        ),
      };
    }
  }

  private async sendModels(): Promise<void> {
    const models = await this.modelList();
    this.post({ type: 'models', models: models.ids, notice: models.notice });
  }

  private postModels(ids: string[]): void {
    this.post({
      type: 'models',
      models: ids,
      notice: ids.length
        ? undefined
        : vscode.l10n.t(
            'Your key lists no image models (GET /v1/models). Its key group may lack image route permission.',
          ),
    });
  }

  private async sendGallery(): Promise<void> {
    const root = this.root();
    const segments = outputFolderSegments(this.services.config.current.images.outputFolder);
    const entries = root && segments.ok ? await readGallery(root, segments.segments) : [];
    this.gallery = new Map(entries.map((e) => [e.id, e]));
    this.post({ type: 'gallery', items: await toGalleryItems(entries) });
  }

  private taskViews(): TaskView[] {
    const root = this.root()?.toString();
    return this.runner.tracker
      .list()
      .filter((r) => r.workspaceFolder === root)
      .slice(0, 20)
      .map(toTaskView);
  }

  private postTask(record: TaskRecord): void {
    if (record.workspaceFolder === this.root()?.toString()) this.post({ type: 'task', task: toTaskView(record) });
  }

  private async submit(form: ImageForm): Promise<SubmitResult> {
    const root = this.root();
    const inside = (p?: string) => (p && root ? resolveInsideRoot(root, p) : undefined);
    if (form.mode === 'edit' && !inside(form.source)) {
      return { ok: false, message: vscode.l10n.t('Pick a source image from the workspace first.') };
    }
    const references = form.references.map(inside).filter((u): u is vscode.Uri => !!u);
    const run = await this.runner.run({
      kind: form.mode === 'edit' ? 'edit' : 'generation',
      prompt: form.prompt,
      model: form.model || undefined,
      size: form.size,
      quality: form.quality,
      n: form.n,
      source: inside(form.source),
      mask: inside(form.mask),
      references,
    });
    return {
      ok: run.status === 'saved',
      message: run.status === 'saved' ? vscode.l10n.t('Saved {0}', run.paths.join(', ')) : run.message,
    };
  }

  private async pick(slot: 'source' | 'mask' | 'reference'): Promise<void> {
    const root = this.root();
    if (!root) return;
    const images = (await workspaceImages()).filter((u) => relativeToRoot(root, u) !== undefined);
    const picked = await vscode.window.showQuickPick(
      images.map((uri) => ({ label: relativeToRoot(root, uri) as string, uri })),
      {
        title:
          slot === 'source'
            ? vscode.l10n.t('Image to edit')
            : slot === 'mask'
              ? vscode.l10n.t('Mask image')
              : vscode.l10n.t('Reference image'),
        placeHolder: vscode.l10n.t('Images in this workspace'),
      },
    );
    if (!picked) return;
    this.post({ type: 'picked', slot, file: { path: picked.label, thumbnail: await thumbnailOf(picked.uri) } });
  }
}

function toTaskView(record: TaskRecord): TaskView {
  return {
    localId: record.localId,
    taskId: record.taskId,
    prompt: record.request.prompt,
    model: record.request.model,
    state: record.state,
    progress: record.progress,
    message: record.error,
    submittedAt: record.submittedAt,
  };
}

function imageIdsOf(snapshot: CatalogSnapshot | undefined): string[] {
  return (snapshot?.models ?? []).filter((m) => m.kind === 'image').map((m) => m.id);
}
