// Pure: the markdown the @gateway participant writes. No `vscode` import (unit-tested in plain node).
// Model ids and file names come from the network or the disk: they are escaped before going into markdown.

/** Escapes markdown control characters so that an id or a name renders as plain text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

export interface ModelsOverview {
  keyName?: string;
  baseUrl: string;
  chat: string[];
  image: string[];
  /** Epoch ms of the list's fetch. */
  fetchedAt?: number;
}

function bulletList(ids: string[], none: string): string {
  return ids.length > 0 ? ids.map((id) => `- \`${id.replace(/`/g, "'")}\``).join('\n') : `- _${none}_`;
}

export function modelsMarkdown(overview: ModelsOverview): string {
  const key = overview.keyName ? ` for the key **${escapeMarkdown(overview.keyName)}**` : '';
  const when = overview.fetchedAt ? ` (list from ${new Date(overview.fetchedAt).toISOString()})` : '';
  return [
    `Models the gateway at ${escapeMarkdown(overview.baseUrl)} lists${key}${when}:`,
    '',
    '**Chat models**',
    bulletList(overview.chat, 'none'),
    '',
    '**Image models**',
    bulletList(overview.image, 'none (image routes may be disabled for this key group)'),
    '',
    'The list is scoped to your key and is the authority: a model seen elsewhere is not guaranteed to be callable.',
  ].join('\n');
}

export const IMAGE_COST_ADVICE =
  'Image charges depend on size, quality, quantity, reference images and edits, and are applied when the request is made; prices are in the gateway console.';

export const IMAGE_USAGE =
  'Describe the image after `/image`, for example `/image a lighthouse at dusk, watercolor`. One image at the default size is generated as an async task and saved into the workspace.';

export function imageResultMarkdown(fileNames: string[]): string {
  if (fileNames.length === 0) return 'The task finished without an image.';
  const noun = fileNames.length === 1 ? 'image' : `${fileNames.length} images`;
  return `Saved the ${noun} into the workspace:`;
}

export const NO_KEY_MARKDOWN =
  'No API key is set for Model Gateway. Set one with **Model Gateway: Set API Key** (it is kept in VS Code\'s secret storage).';
