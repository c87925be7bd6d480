// Attachment chips (the composer's pending context and a question's attachments): kind icon, name, "~N tokens", a
// note when the text was cut, the full path as tooltip, and in the composer a remove button (a real button: Tab
// reaches it, Enter or Space removes). Text only through textContent: paths and commands come from the workspace.
import type { AttachmentKind, ChatAttachment } from '../../shared/protocol/chat';
import { IMAGE_FORMAT_NAMES, nameAsSent } from '../../shared/imageFormat';
import { codicon, el, iconButton } from '../common/dom';
import { t, type WebviewStringKey } from '../common/strings';

export const KIND_ICONS: Record<AttachmentKind, string> = {
  image: 'file-media',
  file: 'file',
  selection: 'selection',
  folder: 'folder',
  problems: 'warning',
  terminal: 'terminal',
  changes: 'git-compare',
};

export const KIND_NAMES: Record<Exclude<AttachmentKind, 'file' | 'folder' | 'image'>, WebviewStringKey> = {
  selection: 'chat.mention.selection',
  problems: 'chat.mention.problems',
  terminal: 'chat.mention.terminal',
  changes: 'chat.mention.changes',
};

export const tokenCount = (n: number): string => t('chat.mentionTokens', Math.max(1, n).toLocaleString('en-US'));

/** The chip's name (the file's own name; its folder is in the tooltip) and its tooltip (the full path). */
function naming(a: ChatAttachment): { name: string; title: string } {
  const lines = a.startLine !== undefined ? `:${a.startLine}-${a.endLine ?? a.startLine}` : '';
  const base = a.path.split('/').filter(Boolean).pop() ?? a.path;
  switch (a.kind) {
    case 'file':
      return { name: base, title: a.path };
    case 'selection':
      return { name: `${base}${lines}`, title: `${a.path}${lines}` };
    case 'folder':
      return { name: `${base}/`, title: `${a.path}/` };
    case 'image':
      return { name: base, title: a.path };
    case 'problems':
      return { name: t(KIND_NAMES.problems), title: t(KIND_NAMES.problems) };
    default:
      return { name: `${t(KIND_NAMES[a.kind])}: ${a.path}`, title: `${t(KIND_NAMES[a.kind])}: ${a.path}` };
  }
}

/** An image's chip: its thumbnail (a data URL the host checked), name, pixel size, tokens, and whether it was scaled. */
function imageChip(a: ChatAttachment & { image: NonNullable<ChatAttachment['image']> }): HTMLElement {
  const { image } = a;
  const size = t('chat.imageSize', image.width, image.height);
  const kb = (bytes: number) => Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US');
  const scaled = image.original
    ? t('chat.imageScaled', image.original.width, image.original.height, kb(image.original.bytes), kb(image.bytes))
    : '';
  // The name says the format sent (a scaled PNG goes as a JPEG); the tooltip keeps the name it came with.
  const sentName = nameAsSent(naming(a).name, image.mediaType);
  const sentAs = sentName === naming(a).name ? '' : t('chat.imageSentAs', IMAGE_FORMAT_NAMES[image.mediaType].name);
  const tooltip = [a.path, size, a.tokens !== undefined ? tokenCount(a.tokens) : '', scaled, sentAs]
    .filter(Boolean)
    .join(' · ');
  const thumb = el('img', { className: 'chip-thumb', attrs: { alt: '', src: image.thumbnail } });
  return el(
    'span',
    { className: 'chip kind-image', attrs: { title: tooltip, 'data-kind': 'image' } },
    thumb,
    el('span', { className: 'chip-label', text: sentName }),
    el('span', { className: 'chip-size', text: size }),
    a.tokens !== undefined && el('span', { className: 'chip-tokens', text: tokenCount(a.tokens) }),
    image.original && el('span', { className: 'chip-scaled', text: t('chat.imageScaledShort') }),
  );
}

/**
 * The chip of an image the page is still preparing: the same look as the host's chip, from the image's header (name,
 * pixel size as sent, tokens), marked busy; `paintPreviewThumbnail` fills its thumbnail once the image is decoded, and
 * the host's chip replaces it once the image is stored.
 */
export function imagePreviewChip(
  name: string,
  preview: { width: number; height: number; original?: unknown },
  tokens: number,
): HTMLElement {
  const size = t('chat.imageSize', preview.width, preview.height);
  return el(
    'span',
    {
      className: 'chip kind-image preview',
      attrs: { title: `${name} · ${size}`, 'data-kind': 'image', 'aria-busy': 'true' },
    },
    el('canvas', { className: 'chip-thumb' }),
    el('span', { className: 'chip-label', text: name.split('/').filter(Boolean).pop() ?? name }),
    el('span', { className: 'chip-size', text: size }),
    el('span', { className: 'chip-tokens', text: tokenCount(tokens) }),
    preview.original !== undefined && el('span', { className: 'chip-scaled', text: t('chat.imageScaledShort') }),
  );
}

/** Draws the decoded thumbnail into a preview chip. */
export function paintPreviewThumbnail(chip: HTMLElement, thumbnail: OffscreenCanvas | HTMLCanvasElement): void {
  const canvas = chip.querySelector('canvas.chip-thumb');
  if (!(canvas instanceof HTMLCanvasElement)) return;
  canvas.width = thumbnail.width;
  canvas.height = thumbnail.height;
  canvas.getContext('2d')?.drawImage(thumbnail, 0, 0);
  canvas.dataset.painted = 'true';
}

export function attachmentChips(attachments: ChatAttachment[], removable = false): HTMLElement[] {
  return attachments.map((a) => {
    if (a.kind === 'image' && a.image) {
      const chip = imageChip({ ...a, image: a.image });
      if (removable)
        chip.append(
          iconButton('close', t('chat.removeAttachment', a.path), 'removeAttachment', { 'data-attachment-id': a.id }),
        );
      return chip;
    }
    const { name, title } = naming(a);
    const tooltip = [
      title,
      a.tokens !== undefined ? tokenCount(a.tokens) : '',
      a.truncated ? t('chat.attachmentCut') : '',
    ]
      .filter(Boolean)
      .join(' · ');
    const chip = el(
      'span',
      { className: `chip kind-${a.kind}`, attrs: { title: tooltip, 'data-kind': a.kind } },
      codicon(KIND_ICONS[a.kind] ?? 'file'),
      el('span', { className: 'chip-label', text: name }),
      a.tokens !== undefined && el('span', { className: 'chip-tokens', text: tokenCount(a.tokens) }),
      a.truncated && el('span', { className: 'chip-cut', text: t('chat.attachmentCutShort') }),
    );
    if (removable)
      chip.append(
        iconButton('close', t('chat.removeAttachment', title), 'removeAttachment', { 'data-attachment-id': a.id }),
      );
    return chip;
  });
}
