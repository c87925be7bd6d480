// An image the page hands over (pasted, dropped, or a workspace file it read and scaled) as a chat attachment (pure).
// The page is not trusted to have scaled or typed it: the host reads the format and pixel size from the bytes, holds
// them to the limits of IMAGE_LIMITS, strips their metadata, stores them once by hash, and keeps only the hash and a thumbnail in the chip.
import { readImageHeader, IMAGE_LIMITS, imageTokens } from '../../shared/imageFormat';
import { stripImageMetadata } from '../../shared/imageMetadata';
import { english, type Localizer } from '../../shared/l10n';
import type { AddImageParams, ChatAttachment } from '../../shared/protocol/chat';
import type { ImageStore } from '../store/imageStore';

/** Long edge the host accepts at most (Anthropic refuses images above 8000 px; the page scales far below it). */
export const MAX_ACCEPTED_EDGE = 8000;

export async function imageAttachment(
  id: string,
  params: AddImageParams,
  store: ImageStore,
  pendingImages: number,
  l10n: Localizer = english,
): Promise<ChatAttachment | { refusal: string }> {
  if (pendingImages >= IMAGE_LIMITS.maxPerRequest)
    return { refusal: l10n.t('At most {0} images go with one question.', IMAGE_LIMITS.maxPerRequest) };
  const handed = new Uint8Array(Buffer.from(params.data, 'base64'));
  const header = readImageHeader(handed);
  if (!header) return { refusal: l10n.t('{0} is not a PNG, JPEG, WebP or GIF image.', params.name) };
  if (handed.length > IMAGE_LIMITS.maxBytes)
    return { refusal: l10n.t('{0} is larger than {1} MB: it is not attached.', params.name, 5) };
  // EXIF (GPS, camera, time), XMP, IPTC and text chunks never reach the store or the gateway (imageMetadata.ts).
  const bytes = stripImageMetadata(handed);
  if (Math.max(header.width, header.height) > MAX_ACCEPTED_EDGE)
    return { refusal: l10n.t('{0} is larger than {1} pixels: it is not attached.', params.name, MAX_ACCEPTED_EDGE) };
  const hash = await store.put(bytes);
  const name = params.name.slice(0, 300);
  return {
    id,
    kind: 'image',
    path: name,
    languageId: '',
    text: '',
    tokens: imageTokens(header.width, header.height),
    image: {
      mediaType: header.mediaType,
      width: header.width,
      height: header.height,
      bytes: bytes.length,
      hash,
      thumbnail: params.thumbnail,
      ...(params.original ? { original: params.original } : {}),
    },
  };
}
