// Text from a model or a tool shown on one line (a card header, an approval prompt): characters that render as
// nothing, move the line, or reorder it (C0/C1 controls, U+2028/U+2029, zero-width and direction marks) are shown
// as `\uXXXX`, so what the user reads is what runs. Pure, used by the host and the webview.

/** Controls, invisible and direction-changing characters (tab, CR and LF are handled by the caller). */
const INVISIBLE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\ufff9-\ufffb]/g;

/** `text` with every invisible or control character written as `\uXXXX` (tabs as `\t`). */
export function showInvisible(text: string): string {
  return text.replace(/\t/g, '\\t').replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
