// Pure: the gateway tools' names, input checks and the words they show to the user (VS Code's confirmation)
// and return to the calling model. No `vscode` import (unit-tested in plain node).
// Tool input comes from a language model and is untrusted: every field is checked here before anything is
// read or sent, and text quoted back into markdown is escaped.
import { costFactors } from '../shared/imageCost';
import { english, type Localizer } from '../shared/l10n';
import { relativeSegments } from '../images/paths';
import type { ImageRequestOf } from '../images/request';
import { escapeMarkdown } from './participantText';
import { redactKnownSecrets } from '../shared/secretRedaction';

/** Tool names (package.json contributes.languageModelTools declares exactly these; a unit test checks both ways). */
export const ToolNames = {
  generateImage: 'modelGateway_generateImage',
  editImage: 'modelGateway_editImage',
  listModels: 'modelGateway_listModels',
} as const;

export type ToolName = (typeof ToolNames)[keyof typeof ToolNames];

export const QUALITIES = ['auto', 'low', 'medium', 'high', 'standard', 'hd'] as const;
/** The image commands accept the same range (src/images/commands.ts parseArgs). */
export const MAX_IMAGES = 10;
export const MAX_REFERENCES = 8;
export const MAX_PROMPT_CHARS = 4000;

/** A checked image tool input; paths are still workspace-relative (or absolute) text, resolved by the host. */
export type ImageToolInput = ImageRequestOf<string> & { references: string[] };

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

function optionalString(value: unknown, name: string, max = 200): Checked<string | undefined> {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value !== 'string') return fail(`"${name}" must be a string.`);
  const trimmed = value.trim();
  if (trimmed.length > max) return fail(`"${name}" is longer than ${max} characters.`);
  return { ok: true, value: trimmed || undefined };
}

/**
 * Checks the input of generate image / edit image. Paths are checked for shape only here (not absolute
 * outside the workspace is the host's check, with the workspace folder at hand).
 */
export function checkImageInput(kind: 'generation' | 'edit', input: unknown): Checked<ImageToolInput> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('The input must be an object.');
  const v = input as Record<string, unknown>;
  if (typeof v.prompt !== 'string' || !v.prompt.trim())
    return fail('"prompt" is required: describe the image (or the change).');
  if (v.prompt.length > MAX_PROMPT_CHARS) return fail(`"prompt" is longer than ${MAX_PROMPT_CHARS} characters.`);
  const model = optionalString(v.model, 'model');
  if (!model.ok) return model;
  const size = optionalString(v.size, 'size', 20);
  if (!size.ok) return size;
  if (size.value && !/^\d{2,5}x\d{2,5}$/i.test(size.value))
    return fail(`"size" must be WIDTHxHEIGHT, for example 1024x1024 (got "${size.value}").`);
  const quality = optionalString(v.quality, 'quality', 20);
  if (!quality.ok) return quality;
  if (quality.value && !(QUALITIES as readonly string[]).includes(quality.value.toLowerCase())) {
    return fail(`"quality" must be one of ${QUALITIES.join(', ')} (got "${quality.value}").`);
  }
  if (v.n !== undefined && (typeof v.n !== 'number' || !Number.isInteger(v.n) || v.n < 1 || v.n > MAX_IMAGES)) {
    return fail(`"n" must be a whole number from 1 to ${MAX_IMAGES}.`);
  }
  const paths: Record<'source' | 'mask', string | undefined> = { source: undefined, mask: undefined };
  for (const name of ['source', 'mask'] as const) {
    const checked = optionalString(v[name], name, 1000);
    if (!checked.ok) return checked;
    paths[name] = checked.value;
  }
  if (kind === 'edit' && !paths.source) return fail('"source" is required: the workspace path of the image to edit.');
  if (kind === 'generation' && (paths.source || paths.mask))
    return fail('"source" and "mask" belong to the edit image tool.');
  if (v.references !== undefined && !Array.isArray(v.references))
    return fail('"references" must be a list of workspace paths.');
  const references: string[] = [];
  for (const item of (v.references as unknown[] | undefined) ?? []) {
    if (typeof item !== 'string' || !item.trim()) return fail('"references" must be a list of workspace paths.');
    references.push(item.trim());
  }
  if (references.length > MAX_REFERENCES) return fail(`At most ${MAX_REFERENCES} reference images.`);
  return {
    ok: true,
    value: {
      kind,
      prompt: v.prompt.trim(),
      model: model.value,
      size: size.value?.toLowerCase(),
      quality: quality.value?.toLowerCase(),
      n: v.n as number | undefined,
      source: paths.source,
      mask: paths.mask,
      references,
    },
  };
}

/** How the host should resolve a path: relative segments under the workspace folder, or an absolute path to check. */
export type PathShape =
  { kind: 'relative'; segments: string[] } | { kind: 'absolute'; path: string } | { kind: 'invalid'; reason: string };

/** Classifies a path from tool input. Relative paths reuse the images feature's rules (no '..', no reserved names). */
export function pathShape(input: string): PathShape {
  const value = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    return { kind: 'invalid', reason: `"${value}" is a URL; give a path inside the workspace.` };
  // An absolute path is accepted only when it lies inside the workspace folder (checked by the host).
  if (/^([a-zA-Z]:[\\/]|\/)/.test(value)) {
    return value.split(/[\\/]+/).includes('..')
      ? { kind: 'invalid', reason: `"${value}" leaves the workspace ('..').` }
      : { kind: 'absolute', path: value };
  }
  const checked = relativeSegments(value);
  if (!checked.ok) return { kind: 'invalid', reason: checked.reason };
  if (checked.segments.length === 0)
    return { kind: 'invalid', reason: `"${value}" names the workspace folder, not an image file.` };
  return { kind: 'relative', segments: checked.segments };
}

/** What the request will be, with the defaults filled in, for the confirmation. */
export interface ChargeSummary {
  input: ImageToolInput;
  model?: string;
  size: string;
  defaultSize: string;
  quality?: string;
  /** Workspace-relative paths for display. */
  source?: string;
  mask?: string;
  references: string[];
}

const quote = (text: string, max = 300): string => escapeMarkdown(text.length > max ? `${text.slice(0, max)}…` : text);

/** The charge factors in words (size, quality, count, edit, references); empty for the default request. */
export function chargeFactors(summary: ChargeSummary, l10n: Localizer = english): string[] {
  return costFactors(
    {
      kind: summary.input.kind === 'edit' || summary.references.length > 0 ? 'edit' : 'generation',
      n: summary.input.n ?? 1,
      size: summary.size,
      quality: summary.quality,
      referenceCount: summary.references.length,
      hasMask: !!summary.mask,
      hasSource: !!summary.source,
    },
    { size: summary.defaultSize },
    l10n,
  );
}

/**
 * VS Code's confirmation: title and markdown body naming every factor of the charge, in the user's language
 * (`l10n`; the values — prompt, model, paths — are escaped before they go into the translated sentences).
 */
export function imageConfirmation(
  summary: ChargeSummary,
  l10n: Localizer = english,
): { title: string; message: string } {
  const n = summary.input.n ?? 1;
  const edit = !!summary.source;
  const title = edit
    ? l10n.t('Edit an image with the gateway (charged to your key)?')
    : n === 1
      ? l10n.t('Generate an image with the gateway (charged to your key)?')
      : l10n.t('Generate {0} images with the gateway (charged to your key)?', n);
  const factors = chargeFactors(summary, l10n);
  const model = summary.model
    ? `\`${summary.model.replace(/`/g, "'")}\``
    : l10n.t('the default image model of your key');
  const size =
    summary.size === summary.defaultSize
      ? l10n.t('{0} (default)', escapeMarkdown(summary.size))
      : escapeMarkdown(summary.size);
  const editLine = !edit
    ? l10n.t('no')
    : summary.mask
      ? l10n.t('yes, of {0} with the mask {1}', quote(summary.source ?? '', 200), quote(summary.mask, 200))
      : l10n.t('yes, of {0}', quote(summary.source ?? '', 200));
  const lines = [
    `**${l10n.t('Prompt:')}** ${quote(summary.input.prompt)}`,
    '',
    `- ${l10n.t('Model: {0}', model)}`,
    `- ${l10n.t('Size: {0}', size)}`,
    `- ${l10n.t('Quality: {0}', summary.quality ? escapeMarkdown(summary.quality) : l10n.t('gateway default'))}`,
    `- ${n === 1 ? l10n.t('Count: 1 image') : l10n.t('Count: {0} images', n)}`,
    `- ${l10n.t('Edit: {0}', editLine)}`,
    `- ${l10n.t('Reference images: {0}', summary.references.length === 0 ? l10n.t('none') : summary.references.map((r) => quote(r, 200)).join(', '))}`,
    '',
    factors.length > 0
      ? l10n.t('This request costs more than the default one: {0}.', escapeMarkdown(factors.join(l10n.t('; '))))
      : l10n.t('One image at the default size: the cheapest request.'),
    l10n.t(
      'Charges are applied when the request is sent (prices are in your gateway console). It is sent once and never repeated automatically; the images are saved into the workspace.',
    ),
  ];
  return { title, message: lines.join('\n') };
}

/** The short line VS Code shows while the tool runs. */
export function imageInvocationMessage(input: ImageToolInput, l10n: Localizer = english): string {
  const short = input.prompt.length > 60 ? `${input.prompt.slice(0, 60)}…` : input.prompt;
  return input.kind === 'edit'
    ? l10n.t('Editing an image on the gateway: "{0}"', short)
    : l10n.t('Generating an image on the gateway: "{0}"', short);
}

/** The text returned to the calling model after a save. */
export function imageResultText(saved: {
  paths: string[];
  model?: string;
  size?: string;
  taskId?: string;
  kind: 'generation' | 'edit';
  source?: string;
}): string {
  if (saved.paths.length === 0) return 'The image task finished without an image; nothing was saved.';
  const what = saved.kind === 'edit' ? `Edited ${saved.source ?? 'the image'}` : 'Generated';
  const details = [
    saved.model && `model ${saved.model}`,
    saved.size && `size ${saved.size}`,
    saved.taskId && `task ${saved.taskId}`,
  ]
    .filter(Boolean)
    .join(', ');
  return [
    `${what}: saved ${saved.paths.length} image${saved.paths.length === 1 ? '' : 's'} into the workspace${details ? ` (${details})` : ''}:`,
    ...saved.paths.map((p) => `- ${p}`),
    "A JSON sidecar next to each image records the prompt, model and task. The request was charged to the user's gateway key; do not repeat it unless the user asks.",
  ].join('\n');
}

export interface ModelsToolView {
  keyName?: string;
  baseUrl: string;
  fetchedAt?: number;
  listUnavailable?: boolean;
  chat: string[];
  image: string[];
}

/** The text returned by list gateway models. Ids come from the network: one per line, nothing else added to them. */
export function modelsResultText(view: ModelsToolView): string {
  const oneLine = (id: string) => id.replace(/[\r\n\t]+/g, ' ');
  const source = view.listUnavailable
    ? 'the gateway has no model list route; these are the models declared in the settings'
    : view.fetchedAt
      ? `list fetched ${new Date(view.fetchedAt).toISOString()}`
      : 'declared in the settings (no list fetched yet)';
  return [
    `Models the gateway at ${view.baseUrl} lists for the active key${view.keyName ? ` "${view.keyName}"` : ''} (${source}).`,
    `Chat models (${view.chat.length}):`,
    ...(view.chat.length ? view.chat.map((id) => `- ${oneLine(id)}`) : ['- none']),
    `Image models (${view.image.length}):`,
    ...(view.image.length
      ? view.image.map((id) => `- ${oneLine(id)}`)
      : ['- none (the key group may not have image route permission)']),
    'Only these ids may be used with this key; image tools accept only the image models.',
  ].join('\n');
}

/** Removes the active secret from any text that leaves the extension (defence in depth: texts are redacted at the edge). */
export function scrubSecret(text: string, secret: string | undefined): string {
  return redactKnownSecrets(text, secret ? [secret] : []);
}
