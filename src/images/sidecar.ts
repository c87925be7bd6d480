// The sidecar JSON written next to each saved image: what was asked for, so the gallery can list it and
// "Re-run with changes" can prefill the form. Never the key; only what the user typed and task ids.
import type { TaskKind } from './taskRecord';

export interface Sidecar {
  generator: 'model-gateway';
  version: 1;
  prompt: string;
  revisedPrompt?: string;
  model: string;
  size?: string;
  quality?: string;
  n: number;
  kind: TaskKind;
  taskId?: string;
  /** ISO time the request was submitted. */
  createdAt: string;
  /** This image's file name (same folder). */
  file: string;
  /** All images of the same request (file names, same folder). */
  files: string[];
  width?: number;
  height?: number;
  /** Workspace-relative paths of the edit inputs. */
  source?: string;
  mask?: string;
  references?: string[];
}

export function serializeSidecar(sidecar: Sidecar): string {
  return `${JSON.stringify(sidecar, null, 2)}\n`;
}

const str = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown) => v === undefined || str(v);

/** Reads a sidecar back; undefined for anything that is not one of ours (files in the folder are untrusted). */
export function parseSidecar(text: string): Sidecar | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Record<string, unknown>;
  if (s.generator !== 'model-gateway' || !str(s.prompt) || !str(s.model) || !str(s.file) || !str(s.createdAt))
    return undefined;
  if (s.kind !== 'generation' && s.kind !== 'edit') return undefined;
  if (![s.size, s.quality, s.taskId, s.revisedPrompt, s.source, s.mask].every(optStr)) return undefined;
  if (/[\\/]/.test(s.file) || s.file.startsWith('.')) return undefined; // a sidecar only ever names a sibling
  return {
    generator: 'model-gateway',
    version: 1,
    prompt: s.prompt,
    model: s.model,
    kind: s.kind,
    file: s.file,
    createdAt: s.createdAt,
    n: typeof s.n === 'number' ? s.n : 1,
    files: Array.isArray(s.files) ? s.files.filter(str) : [s.file],
    size: s.size as string | undefined,
    quality: s.quality as string | undefined,
    taskId: s.taskId as string | undefined,
    revisedPrompt: s.revisedPrompt as string | undefined,
    source: s.source as string | undefined,
    mask: s.mask as string | undefined,
    references: Array.isArray(s.references) ? s.references.filter(str) : undefined,
    width: typeof s.width === 'number' ? s.width : undefined,
    height: typeof s.height === 'number' ? s.height : undefined,
  };
}
