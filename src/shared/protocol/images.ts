// Owned by the images feature: messages of the image panel webview, both directions, plus the runtime
// guard the host applies to every message it receives (the webview is treated as untrusted input).

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

export type TaskViewState = 'submitting' | 'pending' | 'cancelled' | 'saving' | 'saved' | 'failed' | 'expired' | 'unknown';

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
  qualities: string[];
  form: ImageForm;
  gallery: GalleryItem[];
  tasks: TaskView[];
  /** 'async' or 'sync' (setting modelGateway.images.mode). */
  requestMode: 'async' | 'sync';
  /** Workspace folder name, or undefined when none is open yet. */
  folderName?: string;
  outputFolder: string;
}

export type HostToImagesMessage =
  | { type: 'snapshot'; snapshot: PanelSnapshot }
  | { type: 'models'; models: string[]; notice?: string }
  | { type: 'gallery'; items: GalleryItem[] }
  | { type: 'task'; task: TaskView }
  | { type: 'picked'; slot: InputSlot; file: PickedFile }
  | { type: 'prefill'; form: ImageForm }
  | { type: 'submitted'; requestId: string; ok: boolean; message?: string };

export type ImagesToHostMessage =
  | { type: 'ready' }
  | { type: 'submit'; requestId: string; form: ImageForm }
  | { type: 'pick'; slot: InputSlot }
  | { type: 'unpick'; slot: InputSlot; path?: string }
  | { type: 'galleryAction'; action: GalleryAction; id: string }
  | { type: 'cancelTask'; localId: string }
  | { type: 'resumeTask'; localId: string }
  | { type: 'refreshModels' }
  | { type: 'refreshGallery' }
  | { type: 'formChanged'; form: ImageForm };

export const GALLERY_ACTIONS = ['insert', 'reveal', 'open', 'copyPath', 'rerun'] as const;
export type GalleryAction = (typeof GALLERY_ACTIONS)[number];

const MAX_TEXT = 32_000;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isShortString = (v: unknown, max = 1000): v is string => typeof v === 'string' && v.length <= max;
const isSlot = (v: unknown): v is InputSlot => v === 'source' || v === 'mask' || v === 'reference';

/** Runtime check of a form coming from the webview. */
export function isImageForm(value: unknown): value is ImageForm {
  if (!isObject(value)) return false;
  const f = value;
  return (f.mode === 'generate' || f.mode === 'edit') &&
    isShortString(f.prompt, MAX_TEXT) && isShortString(f.model, 200) && isShortString(f.size, 20) && isShortString(f.quality, 20) &&
    typeof f.n === 'number' && Number.isInteger(f.n) && f.n >= 1 && f.n <= 10 &&
    (f.source === undefined || isShortString(f.source)) && (f.mask === undefined || isShortString(f.mask)) &&
    Array.isArray(f.references) && f.references.length <= 16 && f.references.every((r) => isShortString(r));
}

/** The host's guard: true only for a well-formed message of this protocol. */
export function isImagesToHostMessage(value: unknown): value is ImagesToHostMessage {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  const m = value;
  switch (m.type) {
    case 'ready':
    case 'refreshModels':
    case 'refreshGallery':
      return true;
    case 'submit':
      return isShortString(m.requestId, 100) && isImageForm(m.form);
    case 'formChanged':
      return isImageForm(m.form);
    case 'pick':
      return isSlot(m.slot);
    case 'unpick':
      return isSlot(m.slot) && (m.path === undefined || isShortString(m.path));
    case 'galleryAction':
      return (GALLERY_ACTIONS as readonly unknown[]).includes(m.action) && isShortString(m.id, 200);
    case 'cancelTask':
    case 'resumeTask':
      return isShortString(m.localId, 100);
    default:
      return false;
  }
}
