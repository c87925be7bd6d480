// The chat fill: a chat model asked to fill a marked hole in a file, and only the fill taken from its answer. Pure.
// Chat models are not trained for fill-in-the-middle and tend to wrap code in fences, repeat the line they were
// given, or go on past the hole into the code that follows it (Continue's docs: chat models "often perform poorly"
// at autocomplete); each of those is undone here, so the editor receives only what belongs in the hole.

/** The marker of the hole. Written once into the file text the model sees. */
export const FILL_MARKER = '<FILL_HERE>';

export interface ChatFillInput {
  prefix: string;
  suffix: string;
  /** Shown to the model as a header (a workspace-relative path), never read from disk here. */
  path?: string;
  language?: string;
  /** Short snippets of other files of the same language, already prefixed with their path headers. */
  context?: string;
  singleLine: boolean;
}

export const CHAT_FILL_SYSTEM =
  `You complete code. The user sends a file with one hole marked ${FILL_MARKER}. ` +
  'Reply with only the text that replaces the marker: no explanation, no code fence, ' +
  'nothing that is already before or after the marker.';

/** The user message of a chat fill. */
export function chatFillPrompt(input: ChatFillInput): string {
  const header = [input.path ? `File: ${input.path}` : '', input.language ? `Language: ${input.language}` : '']
    .filter(Boolean)
    .join('\n');
  const scope = input.singleLine ? 'Fill the rest of the line only.' : 'Fill at most a few lines (one block).';
  return [
    input.context ? `Other files (read only):\n${input.context}\n` : '',
    header,
    `${scope}\n<file>\n${input.prefix}${FILL_MARKER}${input.suffix}\n</file>`,
  ]
    .filter(Boolean)
    .join('\n');
}

const FENCE_OPEN = /^\s*(```|~~~)[\w.+#-]*[ \t]*\n/;

/** Removes a code fence around the whole answer (or an opening one whose end was cut by max_tokens). */
export function stripFences(text: string): string {
  const open = FENCE_OPEN.exec(text);
  if (!open) return text;
  const fence = open[1];
  let body = text.slice(open[0].length);
  const close = body.lastIndexOf(`\n${fence}`);
  if (close >= 0) body = body.slice(0, close);
  else if (body.endsWith(fence)) body = body.slice(0, -fence.length);
  return body;
}

/**
 * Only the fill from a chat model's answer: fences stripped, an echoed marker or `<file>` tag dropped, a repeated
 * start of the current line dropped, and the answer cut where it starts repeating the suffix.
 */
export function extractFill(answer: string, prefix: string, suffix: string, singleLine: boolean): string {
  let text = stripFences(answer.replace(/\r\n/g, '\n'));
  text = text.replace(/<\/?file>\n?/g, '');
  // The whole file sent back with the hole filled: take what stands between the prefix and the suffix.
  const lineStart = prefix.slice(prefix.lastIndexOf('\n') + 1);
  const markerAt = text.indexOf(FILL_MARKER);
  if (markerAt >= 0) text = text.slice(0, markerAt) + text.slice(markerAt + FILL_MARKER.length);
  if (lineStart.trim() !== '' && text.startsWith(lineStart)) text = text.slice(lineStart.length);
  text = cutRepeatedSuffix(text, suffix);
  if (singleLine) {
    const nl = text.indexOf('\n');
    if (nl >= 0) text = text.slice(0, nl);
  }
  return text.replace(/\s+$/, (tail) => (singleLine ? '' : tail.includes('\n') ? '' : tail));
}

/**
 * Cuts the answer where it repeats what follows the cursor: at the first line of the suffix that has content
 * (e.g. a closing brace the model wrote again), or at the rest of the cursor's line when the answer ends with it.
 */
export function cutRepeatedSuffix(text: string, suffix: string): string {
  const restOfLine = suffix.split('\n', 1)[0];
  if (restOfLine.trim() !== '' && text.endsWith(restOfLine)) return text.slice(0, text.length - restOfLine.length);
  const firstLine = suffix
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!firstLine || (firstLine.length < 2 && !/[)}\]]/.test(firstLine))) return text;
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === firstLine) return lines.slice(0, i).join('\n');
  }
  return text;
}
