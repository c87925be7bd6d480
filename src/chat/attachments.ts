// Attachments from the editor (pure): what "Ask about selection / file" adds to the next question.
import type { ChatAttachment } from '../shared/protocol/chat';

/** More than this is cut (with a note): a whole minified bundle would only burn tokens. */
export const ATTACHMENT_LIMIT = 200_000;

export interface EditorText {
  path: string;
  languageId: string;
  text: string;
  /** 0-based lines of a selection, as VS Code gives them. */
  selection?: { startLine: number; endLine: number };
}

export function makeAttachment(id: string, source: EditorText): ChatAttachment {
  const cut = source.text.length > ATTACHMENT_LIMIT;
  const text = cut
    ? `${source.text.slice(0, ATTACHMENT_LIMIT)}\n… (cut: ${source.text.length - ATTACHMENT_LIMIT} more characters)`
    : source.text;
  const attachment: ChatAttachment = {
    id,
    kind: source.selection ? 'selection' : 'file',
    path: source.path,
    languageId: source.languageId || 'plaintext',
    text,
  };
  if (source.selection) {
    attachment.startLine = source.selection.startLine + 1;
    attachment.endLine = source.selection.endLine + 1;
  }
  return attachment;
}
