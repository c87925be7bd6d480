// The scripted coder model: completes code deterministically from a small corpus, so tests can assert the exact
// fill. It finds the longest end of the prompt (at least MIN_ANCHOR characters) that occurs in a corpus text and
// continues that text from there, stopping at a stop sequence, at max_tokens, where the suffix begins, or at the
// end of the corpus text. No anchor: an empty fill (a real coder model also returns nothing sometimes).
// The corpus: short, well-known shapes of everyday TypeScript and Python (written for the emulator).
import { tokenize } from './text';

export const CODER_CORPUS: readonly string[] = [
  `export function debounce<T extends (...args: never[]) => void>(fn: T, wait: number): (...args: Parameters<T>) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: Parameters<T>) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
}
`,
  `function fibonacci(n: number): number {
  if (n < 2) return n;
  return fibonacci(n - 1) + fibonacci(n - 2);
}
`,
  `export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
`,
  `export async function readJson(file: string): Promise<unknown> {
  const text = await fs.promises.readFile(file, 'utf8');
  return JSON.parse(text);
}
`,
  `def fibonacci(n):
    if n < 2:
        return n
    return fibonacci(n - 1) + fibonacci(n - 2)
`,
];

const MIN_ANCHOR = 6;
const MAX_ANCHOR = 200;

export interface CoderFill {
  text: string;
  finish: 'stop' | 'length';
  outputTokens: number;
}

/** The coder model's fill for a prompt and suffix (deterministic). */
export function coderFill(prompt: string, suffix: string, maxTokens: number, stops: readonly string[]): CoderFill {
  const continuation = continueFromCorpus(prompt);
  let text = continuation;
  let finish: CoderFill['finish'] = 'stop';
  // Stop where the code after the cursor begins (a FIM model ends its fill there).
  const suffixHead = suffix.split('\n', 1)[0];
  if (suffixHead.trim() !== '') {
    const at = text.indexOf(suffixHead);
    if (at >= 0) text = text.slice(0, at);
  }
  let cut = -1;
  for (const s of stops) {
    if (!s) continue;
    const at = text.indexOf(s);
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  if (cut >= 0) text = text.slice(0, cut);
  const pieces = tokenize(text);
  if (pieces.length > maxTokens) {
    text = pieces.slice(0, Math.max(0, maxTokens)).join('');
    finish = 'length';
  }
  return { text, finish, outputTokens: Math.min(pieces.length, Math.max(0, maxTokens)) };
}

/** The corpus text after the longest end of `prompt` found in it ('' when none of at least MIN_ANCHOR chars). */
export function continueFromCorpus(prompt: string): string {
  const tail = prompt.slice(-MAX_ANCHOR);
  for (let len = tail.length; len >= MIN_ANCHOR; len--) {
    const anchor = tail.slice(tail.length - len);
    for (const doc of CODER_CORPUS) {
      const at = doc.indexOf(anchor);
      if (at >= 0) return doc.slice(at + anchor.length);
    }
  }
  return '';
}

// The chat fill as clients send it: a file between <file> tags with one hole marked <FILL_HERE>. The emulator
// recognises the same words on its own (it does not import the client), as a chat model reads them.
const CHAT_FILL = /<file>\n([\s\S]*?)<FILL_HERE>([\s\S]*?)\n<\/file>/;

/**
 * A chat model's answer to a chat fill, or undefined when the message is not one: the coder's fill, written the way
 * chat models write it, inside a code fence and running on into the code after the hole (the rest of the line, or
 * the next line with content), so a client must strip both to get the fill.
 */
export function chatFillAnswer(userText: string): string | undefined {
  const m = CHAT_FILL.exec(userText);
  if (!m) return undefined;
  const [, prefix, suffix] = m;
  const fill = coderFill(prefix, suffix, 256, []).text;
  const restOfLine = suffix.split('\n', 1)[0];
  const nextLine = suffix.split('\n').find((l) => l.trim() !== '') ?? '';
  const repeated = restOfLine.trim() !== '' ? restOfLine : nextLine ? `\n${nextLine}` : '';
  return '```\n' + fill + repeated + '\n```';
}
