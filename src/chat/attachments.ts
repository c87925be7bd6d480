// Attachments (pure): what "Ask about selection / file" and the composer's @-mentions add to the next question. One
// model of context for every feature: each becomes a ChatAttachment, capped, with its size in tokens for the chip.
import { estimateTokens } from '../agent';
import type { ChatAttachment, MentionKind } from '../shared/protocol/chat';
import { formatAttachment } from './requestBuilder';

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

/** The attachment with its estimated size as the model reads it (the same rule as the agent's context fitting). */
export function withTokens(attachment: ChatAttachment): ChatAttachment {
  return { ...attachment, tokens: estimateTokens(formatAttachment(attachment)) };
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
