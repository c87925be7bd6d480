// Saving a finished task's images exactly once. Pure over a FileSink (workspace.fs in the extension,
// a Map or temp folder in tests). Order: reserve names and persist them ('saving') → write files →
// persist 'saved'. A reload anywhere in between resumes into the reserved names: one set of files.
import { detectImageFormat, extensionOf, imageDimensions, type ImageFormat } from './format';
import { planFileNames, sidecarName } from './naming';
import { outputFolderSegments } from './paths';
import { serializeSidecar, type Sidecar } from './sidecar';
import type { TaskRecord } from './taskRecord';
import type { TaskTracker } from './tracker';

export interface FileSink {
  /** Names of the entries of a workspace-relative folder ([] when it does not exist). */
  listNames(folder: string[]): Promise<string[]>;
  /** Writes a file at a workspace-relative path, creating folders; replaces a file of ours. */
  write(path: string[], bytes: Uint8Array): Promise<void>;
}

export interface CheckedImage {
  bytes: Uint8Array;
  format: ImageFormat;
  revisedPrompt?: string;
}

export class NotAnImageError extends Error {
  constructor(byteLength: number) {
    super(
      `The gateway returned data that is not a PNG, JPEG, WebP or GIF image (${byteLength} bytes); nothing was saved.`,
    );
    this.name = 'NotAnImageError';
  }
}

/** Checks the bytes are an image (by magic, never by a server-supplied name or type). */
export function checkImage(bytes: Uint8Array, revisedPrompt?: string): CheckedImage {
  const format = detectImageFormat(bytes);
  if (!format) throw new NotAnImageError(bytes.byteLength);
  return { bytes, format, revisedPrompt };
}

/** Writes the images of a claimed task and its sidecars; resolves with the 'saved' record. */
export async function saveTaskImages(
  tracker: TaskTracker,
  localId: string,
  images: CheckedImage[],
  sink: FileSink,
): Promise<TaskRecord> {
  let record = requireRecord(tracker, localId);
  const folder = outputFolderSegments(record.outputFolder);
  if (!folder.ok) throw new Error(`Image output folder: ${folder.reason}`);
  const prefix = folder.segments.join('/');
  const reserved = record.state === 'saving' && record.files?.length === images.length ? record.files : undefined;
  const names = reserved
    ? reserved.map((f) => f.split('/').pop() as string)
    : planFileNames(
        record.request.prompt,
        new Date(record.submittedAt),
        images.map((i) => extensionOf(i.format)),
        await sink.listNames(folder.segments),
      );
  const files = names.map((name) => (prefix ? `${prefix}/${name}` : name));
  record = await tracker.apply(localId, { type: 'saving', files });
  for (const [index, image] of images.entries()) {
    await sink.write([...folder.segments, names[index]], image.bytes);
    await sink.write(
      [...folder.segments, sidecarName(names[index])],
      encode(serializeSidecar(sidecarFor(record, image, names, index))),
    );
  }
  return tracker.apply(localId, { type: 'saved', files });
}

function requireRecord(tracker: TaskTracker, localId: string): TaskRecord {
  const record = tracker.get(localId);
  if (!record) throw new Error(`Image task ${localId} is not tracked.`);
  return record;
}

function sidecarFor(record: TaskRecord, image: CheckedImage, names: string[], index: number): Sidecar {
  const size = imageDimensions(image.bytes);
  const r = record.request;
  return {
    generator: 'model-gateway',
    version: 1,
    prompt: r.prompt,
    revisedPrompt: image.revisedPrompt,
    model: r.model,
    size: r.size,
    quality: r.quality,
    n: r.n,
    kind: r.kind,
    taskId: record.taskId,
    createdAt: record.submittedAt,
    file: names[index],
    files: names,
    width: size?.width,
    height: size?.height,
    source: r.source,
    mask: r.mask,
    references: r.references?.length ? r.references : undefined,
  };
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
