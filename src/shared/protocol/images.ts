// Messages of the image panel webview, both directions, declared once as a Protocol (./channel.ts): the host
// validates every incoming message with imagesGuard.toHost (the webview is untrusted input), the webview every
// host message with imagesGuard.toWebview.
import {
  arr,
  bool,
  guard,
  int,
  num,
  obj,
  oneOf,
  opt,
  str,
  type Check,
  type MessageOf,
  type Protocol,
  type RequestOf,
  type ToHost,
} from './channel';

export type ImageMode = 'generate' | 'edit';
export type InputSlot = 'source' | 'mask' | 'reference';

/** A workspace file the user picked, as the webview may see it (a relative path, no bytes). */
export interface PickedFile {
  path: string;
  /** Small thumbnail (data: URL) or undefined when too large. */
  thumbnail?: string;
}

/** The form of the panel. `references`, `source` and `mask` are workspace-relative paths picked via the host. */
export interface ImageForm {
  mode: ImageMode;
  prompt: string;
  model: string;
  size: string;
  quality: string;
  n: number;
  source?: string;
  mask?: string;
  references: string[];
}

export interface GalleryItem {
  /** Opaque id the host maps back to a file; never a path the host trusts. */
  id: string;
  /** Workspace-relative path, for display. */
  path: string;
  prompt: string;
  model: string;
  size?: string;
  quality?: string;
  createdAt: string;
  kind: 'generation' | 'edit';
  /** data: URL of the image (bytes verified as an image by the host), absent when too large. */
  thumbnail?: string;
}

export type TaskViewState =
  'submitting' | 'pending' | 'cancelled' | 'saving' | 'saved' | 'failed' | 'expired' | 'unknown';

export interface TaskView {
  localId: string;
  taskId?: string;
  prompt: string;
  model: string;
  state: TaskViewState;
  progress?: number;
  message?: string;
  submittedAt: string;
}

export interface PanelSnapshot {
  models: string[];
  /** Why the model list is empty or stale, in words. */
  modelsNotice?: string;
  sizes: string[];
  form: ImageForm;
  gallery: GalleryItem[];
  tasks: TaskView[];
  /** 'async' or 'sync' (setting modelGateway.images.mode). */
  requestMode: 'async' | 'sync';
  /** Workspace folder name, or undefined when none is open yet. */
  folderName?: string;
  outputFolder: string;
}

export const GALLERY_ACTIONS = ['ask', 'insert', 'reveal', 'open', 'copyPath', 'rerun'] as const;
export type GalleryAction = (typeof GALLERY_ACTIONS)[number];

export type ImagesToWebview = {
  snapshot: { snapshot: PanelSnapshot };
  models: { models: string[]; notice?: string };
  gallery: { items: GalleryItem[] };
  task: { task: TaskView };
  picked: { slot: InputSlot; file: PickedFile };
  prefill: { form: ImageForm };
};

export type ImagesToHostNotifications = {
  pick: { slot: InputSlot };
  unpick: { slot: InputSlot; path?: string };
  galleryAction: { action: GalleryAction; id: string };
  cancelTask: { localId: string };
  resumeTask: { localId: string };
  refreshModels: object;
  refreshGallery: object;
  formChanged: { form: ImageForm };
};

/** How a submitted request ended: saved (ok), or why not, in words. */
export interface SubmitResult {
  ok: boolean;
  message?: string;
}

export type ImagesRequests = {
  /** Runs the whole request (cost confirmation, the task, saving): no timeout. */
  submit: { params: { form: ImageForm }; result: SubmitResult };
};

export type ImagesShapes = { toWebview: ImagesToWebview; toHost: ImagesToHostNotifications; requests: ImagesRequests };

export type HostToImagesMessage = MessageOf<ImagesToWebview>;
export type ImagesToHostMessage = ToHost<ImagesShapes>;
export type ImagesRequest = RequestOf<ImagesShapes>;

const MAX_TEXT = 32_000;
const short = (max = 1000) => str(max);
const slot = oneOf<InputSlot>(['source', 'mask', 'reference']);
// What the host sends is checked for shape, not bounded.
const text = str(Number.MAX_SAFE_INTEGER);
const many = <T>(check: Check<T>) => arr(check, 1_000_000);

/** A form coming from the webview: every field typed and bounded. */
export const imageForm = obj<ImageForm>({
  mode: oneOf(['generate', 'edit'] as const),
  prompt: short(MAX_TEXT),
  model: short(200),
  size: short(20),
  quality: short(20),
  n: int(1, 10),
  source: opt(short()),
  mask: opt(short()),
  references: arr(short(), 16),
});
const galleryItem = obj<GalleryItem>({
  id: text,
  path: text,
  prompt: text,
  model: text,
  size: opt(text),
  quality: opt(text),
  createdAt: text,
  kind: oneOf(['generation', 'edit'] as const),
  thumbnail: opt(text),
});
const taskView = obj<TaskView>({
  localId: text,
  taskId: opt(text),
  prompt: text,
  model: text,
  state: oneOf<TaskViewState>([
    'submitting',
    'pending',
    'cancelled',
    'saving',
    'saved',
    'failed',
    'expired',
    'unknown',
  ]),
  progress: opt(num),
  message: opt(text),
  submittedAt: text,
});
const panelSnapshot = obj<PanelSnapshot>({
  models: many(text),
  modelsNotice: opt(text),
  sizes: many(text),
  form: imageForm,
  gallery: many(galleryItem),
  tasks: many(taskView),
  requestMode: oneOf(['async', 'sync'] as const),
  folderName: opt(text),
  outputFolder: text,
});

export const imagesProtocol: Protocol<ImagesShapes> = {
  name: 'images',
  toWebview: {
    snapshot: { snapshot: panelSnapshot },
    models: { models: many(text), notice: opt(text) },
    gallery: { items: many(galleryItem) },
    task: { task: taskView },
    picked: { slot, file: obj<PickedFile>({ path: text, thumbnail: opt(text) }) },
    prefill: { form: imageForm },
  },
  toHost: {
    pick: { slot },
    unpick: { slot, path: opt(short()) },
    galleryAction: { action: oneOf(GALLERY_ACTIONS), id: short(200) },
    cancelTask: { localId: short(100) },
    resumeTask: { localId: short(100) },
    refreshModels: {},
    refreshGallery: {},
    formChanged: { form: imageForm },
  },
  requests: {
    submit: { params: { form: imageForm }, result: obj<SubmitResult>({ ok: bool, message: opt(text) }) },
  },
};

export const imagesGuard = guard(imagesProtocol);
