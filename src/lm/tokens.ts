// Pure: token estimates for provideTokenCount. The gateway has no tokenizer route and models differ, so
// this is a documented heuristic, not a count:
// - ASCII text: about 4 characters per token (the usual rule of thumb for English and code);
// - other characters (CJK, emoji, accented letters): counted as one token each, which overestimates
//   some scripts a little. Overestimating is the safe side: VS Code uses these numbers to decide how much
//   context fits into maxInputTokens, and an underestimate would let a request overflow the model.
// - each message adds a small fixed overhead for the role and turn markers.
import { IMAGE_LIMITS, imageTokens, readImageHeader, scaledSize } from '../shared/imageFormat';
import type { NeutralMessage, NeutralPart } from './requestMapping';

export const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (char.charCodeAt(0) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

function partText(part: NeutralPart): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'toolCall':
      return part.name + JSON.stringify(part.input ?? {});
    case 'toolResult':
      return part.content;
    case 'image':
      return '';
  }
}

/** An image as the model bills it: its pixels as the provider scales them (at most ~1.15 MP), width×height/750. */
function imagePartTokens(part: NeutralPart): number {
  if (part.kind !== 'image') return 0;
  const header = readImageHeader(Buffer.from(part.data.slice(0, 200_000), 'base64'));
  if (!header) return IMAGE_LIMITS.maxPixels / IMAGE_LIMITS.pixelsPerToken;
  const size = scaledSize(header.width, header.height);
  return imageTokens(size.width, size.height);
}

export function estimateMessageTokens(message: NeutralMessage): number {
  return (
    MESSAGE_OVERHEAD_TOKENS +
    message.parts.reduce((sum, part) => sum + estimateTextTokens(partText(part)) + imagePartTokens(part), 0)
  );
}
