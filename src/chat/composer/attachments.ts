// Attachments (pure): what "Ask about selection / file" and the composer's @-mentions add to the next question. One
// model of context for every feature: each becomes a ChatAttachment, capped, with its size in tokens for the chip.
import { CHARS_PER_TOKEN } from '../../agent/fit';
import type { ChatAttachment, MentionKind } from '../../shared/protocol/chat';
import { attachmentLabel } from '../ask/requestBuilder';

/** More than this is cut (with a note): a whole minified bundle would only burn tokens. */
export const ATTACHMENT_LIMIT = 200_000;

export interface EditorText {
  path: string;
  languageId: string;
  text: string;
  /** 0-based lines of a selection, as VS Code gives them. */
  selection?: { startLine: number; endLine: number };
}

/** `text` within `limit` characters; what was cut is said at the end. */
export function capText(text: string, limit = ATTACHMENT_LIMIT): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  return { text: `${text.slice(0, limit)}\n… (cut: ${text.length - limit} more characters)`, truncated: true };
}

/** Characters of what goes around an attachment's text besides its label: two fences, the language id, newlines. */
const FENCE_ALLOWANCE = 16;

/**
 * One estimate of an attachment's tokens, for the @-mention list (from the file's size, before it is read), the chip
 * and the question sent (from the text read): UTF-8 bytes of the text and its label, three per token, the agent's
 * context-fitting rate (a CJK character is three bytes: one token, as fit.ts counts it). A file read whole gets the
 * same figure in the list and on its chip.
 */
export function attachmentTokens(kind: ChatAttachment['kind'], path: string, textBytes: number): number {
  const label = Buffer.byteLength(attachmentLabel(kind, path));
  return Math.ceil((textBytes + label + FENCE_ALLOWANCE) / CHARS_PER_TOKEN);
}

/** The attachment with its estimated size as the model reads it (attachmentTokens). */
export function withTokens(attachment: ChatAttachment): ChatAttachment {
  return {
    ...attachment,
    tokens: attachmentTokens(attachment.kind, attachment.path, Buffer.byteLength(attachment.text)),
  };
}

export function makeAttachment(id: string, source: EditorText): ChatAttachment {
  const capped = capText(source.text);
  const attachment: ChatAttachment = {
    id,
    kind: source.selection ? 'selection' : 'file',
    path: source.path,
    languageId: source.languageId || 'plaintext',
    text: capped.text,
  };
  if (capped.truncated) attachment.truncated = true;
  if (source.selection) {
    attachment.startLine = source.selection.startLine + 1;
    attachment.endLine = source.selection.endLine + 1;
  }
  return withTokens(attachment);
}

/** An @-mention's attachment: a folder's listing, the problems, the terminal's output, the git changes, capped. */
export function mentionAttachment(
  id: string,
  kind: MentionKind,
  path: string,
  text: string,
  languageId = 'plaintext',
): ChatAttachment {
  const capped = capText(text);
  const attachment: ChatAttachment = { id, kind, path, languageId, text: capped.text };
  if (capped.truncated) attachment.truncated = true;
  return withTokens(attachment);
}
