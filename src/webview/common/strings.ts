// The webviews' words: a table the host sends (localized with vscode.l10n) as the first message after `ready`.
// The pages hold no English of their own; the keys are declared with their English text in src/shared/webviewStrings.ts.
import type { Localizer } from '../../shared/l10n';
import type { StringTable } from '../../shared/protocol/channel';
import type { WebviewStringKey } from '../../shared/webviewStrings';

export type { WebviewStringKey };

let table: StringTable = {};

export function setStrings(strings: StringTable): void {
  table = strings;
}

/** The localized text of `key`, with {0}, {1}, … replaced by the arguments. A key the table lacks shows as itself. */
export function t(key: WebviewStringKey, ...args: Array<string | number>): string {
  return fill(table[key] ?? key, args);
}

/** For shared code that takes a Localizer (src/shared/imageCost.ts): its English message is the key in the table. */
export const localizer: Localizer = {
  t: (message, ...args) => fill(table[message] ?? message, args),
};

function fill(text: string, args: ReadonlyArray<string | number | boolean>): string {
  return text.replace(/\{(\d+)\}/g, (whole, index: string) =>
    Number(index) < args.length ? String(args[Number(index)]) : whole,
  );
}

/** What goes after `sentence` before the next one: a space after Latin text, none after a Chinese "。", "：" or "）". */
export function sentenceGap(sentence: string): string {
  return /[\u3000-\u303f\uff00-\uffef]$/.test(sentence) ? '' : ' ';
}

/** `first` and `second` as one line ("Finished. The agent finished.", "已完成。智能体已完成。", never "已完成。 …"). */
export function joinSentences(first: string, second: string): string {
  return first && second ? first + sentenceGap(first) + second : first + second;
}
