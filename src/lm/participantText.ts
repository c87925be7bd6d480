// Pure: the markdown the @gateway participant writes. No `vscode` import (unit-tested in plain node).
// Model ids and file names come from the network or the disk: they are escaped before going into markdown.
// Words go through `l10n` (vscode.l10n from participant.ts; English in tests).
import { kindLabel } from '../catalog/classify';
import type { ModelKind } from '../shared/config';
import { english, type Localizer } from '../shared/l10n';

/** Escapes markdown control characters so that an id or a name renders as plain text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

export interface ModelsOverview {
  keyName?: string;
  baseUrl: string;
  chat: string[];
  image: string[];
  /** Listed models no chat or image flow offers (embedding, audio, …), by kind. */
  other?: { kind: ModelKind; ids: string[] }[];
  /** Epoch ms of the list's fetch. */
  fetchedAt?: number;
}

function bulletList(ids: string[], none: string): string {
  return ids.length > 0 ? ids.map((id) => `- \`${id.replace(/`/g, "'")}\``).join('\n') : `- _${none}_`;
}

export function modelsMarkdown(overview: ModelsOverview, l10n: Localizer = english): string {
  const baseUrl = escapeMarkdown(overview.baseUrl);
  const key = overview.keyName ? `**${escapeMarkdown(overview.keyName)}**` : undefined;
  const when = overview.fetchedAt ? new Date(overview.fetchedAt).toISOString() : undefined;
  const heading =
    key && when
      ? l10n.t('Models the gateway at {0} lists for the key {1} (list from {2}):', baseUrl, key, when)
      : key
        ? l10n.t('Models the gateway at {0} lists for the key {1}:', baseUrl, key)
        : when
          ? l10n.t('Models the gateway at {0} lists (list from {1}):', baseUrl, when)
          : l10n.t('Models the gateway at {0} lists:', baseUrl);
  return [
    heading,
    '',
    `**${l10n.t('Chat models')}**`,
    bulletList(overview.chat, l10n.t('none')),
    '',
    `**${l10n.t('Image models')}**`,
    bulletList(overview.image, l10n.t('none (image routes may be disabled for this key group)')),
    '',
    ...(overview.other ?? []).flatMap((group) => [
      `**${l10n.t('Not offered in chat or images: {0}', kindLabel(group.kind, l10n))}**`,
      bulletList(group.ids, l10n.t('none')),
      '',
    ]),
    l10n.t(
      'The list is scoped to your key and is the authority: a model seen elsewhere is not guaranteed to be callable.',
    ),
  ].join('\n');
}

export function imageCostAdvice(l10n: Localizer = english): string {
  return l10n.t(
    'Image charges depend on size, quality, quantity, reference images and edits, and are applied when the request is made; prices are in the gateway console.',
  );
}

export function imageUsage(l10n: Localizer = english): string {
  return l10n.t(
    'Describe the image after `/image`, for example `/image a lighthouse at dusk, watercolor`. One image at the default size is generated as an async task and saved into the workspace.',
  );
}

export function imageResultMarkdown(fileNames: string[], l10n: Localizer = english): string {
  if (fileNames.length === 0) return l10n.t('The task finished without an image.');
  return fileNames.length === 1
    ? l10n.t('Saved the image into the workspace:')
    : l10n.t('Saved the {0} images into the workspace:', fileNames.length);
}

export function noKeyMarkdown(l10n: Localizer = english): string {
  return l10n.t(
    "No API key is set for Model Gateway. Set one with **Model Gateway: Set API Key** (it is kept in VS Code's secret storage).",
  );
}
