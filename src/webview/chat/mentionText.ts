// What a picked @-mention leaves in the sentence (pure): the typed `@query` becomes the entry's reference, so
// "Check @prob" + Problems reads "Check @problems " and the question still says what it refers to. The attachment
// itself travels as a chip; the reference is how the model (and the user reading back) ties the words to it: a
// file or folder by its workspace-relative path (the attachment's label names the same path), the other kinds by
// their English id (the attachment's label introduces them in English too).
import type { MentionOption } from '../../shared/protocol/chat';

/** `@path` for a file or folder, `@problems` / `@terminal` / `@changes` / `@selection` for the others. */
export function mentionReference(option: Pick<MentionOption, 'kind' | 'path'>): string {
  const name = (option.kind === 'file' || option.kind === 'folder') && option.path ? option.path : option.kind;
  return `@${name}`;
}

/**
 * The input after replacing `value[at.start, at.end)` (the typed `@query`) with the reference, and where the caret
 * goes: after the reference and one space (a space already there is reused, so "Explain @te| please" keeps one).
 */
export function insertMention(
  value: string,
  at: { start: number; end: number },
  option: Pick<MentionOption, 'kind' | 'path'>,
): { value: string; caret: number } {
  const before = value.slice(0, at.start);
  const after = value.slice(at.end);
  const reference = mentionReference(option);
  const spaced = /^\s/.test(after) ? reference : `${reference} `;
  return { value: before + spaced + after, caret: before.length + reference.length + 1 };
}
