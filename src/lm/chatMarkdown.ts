// Pure: model output made safe to hand to VS Code's chat as markdown. No `vscode` import (unit-tested in node).
// VS Code renders untrusted chat markdown with links of several schemes kept (http, https, mailto, file,
// vscode-remote…) and images loaded from http(s): a prompt-injected model could show a link whose text lies, open a
// local file, or load a remote image that carries data out. Every link and image destination goes through the
// shared link policy: a refused one becomes inline code (visible, never a link); images are never shown.
import { checkLink } from '../shared/linkPolicy';

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Streams model text into safe markdown. Text is passed on as soon as no link can still be forming in it: whole
 * lines, and of the current line the part up to the last space before a `[`, `<`, `![`, backtick or backslash.
 */
export class ChatMarkdownSanitizer {
  /** Text not passed on yet (never a line end). */
  private pending = '';
  /** What of the current line was passed on already: the line as a whole decides whether it is a fence. */
  private lineSent = '';
  /** The open code fence (``` or ~~~, with its length), if any: nothing inside a code block is rewritten. */
  private fence: string | undefined;

  /** Safe markdown for what can be passed on now ('' when all of it must wait for more text). */
  push(text: string): string {
    this.pending += text;
    let out = '';
    for (let newline = this.pending.indexOf('\n'); newline >= 0; newline = this.pending.indexOf('\n')) {
      out += this.finishLine(this.pending.slice(0, newline)) + '\n';
      this.pending = this.pending.slice(newline + 1);
    }
    return out + this.sendPartOfLine();
  }

  /** The rest, at the end of the answer. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest || this.lineSent ? this.finishLine(rest) : '';
  }

  private sendPartOfLine(): string {
    const special = this.fence === undefined ? this.pending.search(/[[<`\\]|!(?=\[|$)/) : this.pending.search(/[`~]/);
    const head = special < 0 ? this.pending : this.pending.slice(0, special);
    const space = Math.max(head.lastIndexOf(' '), head.lastIndexOf('\t'));
    // Wait for the line's first word: it decides whether the line opens or closes a fence.
    if (space < 0 || !(this.lineSent + head.slice(0, space)).trim()) return '';
    const part = head.slice(0, space + 1);
    this.pending = this.pending.slice(part.length);
    this.lineSent += part;
    return this.fence === undefined ? rewriteText(part) : part;
  }

  private finishLine(rest: string): string {
    const whole = this.lineSent + rest;
    this.lineSent = '';
    const fence = FENCE.exec(whole)?.[1];
    if (this.fence !== undefined) {
      if (fence && fence[0] === this.fence[0] && fence.length >= this.fence.length && !whole.trim().slice(fence.length))
        this.fence = undefined;
      return rest;
    }
    if (fence && !(fence[0] === '`' && whole.slice(whole.indexOf(fence) + fence.length).includes('`'))) {
      this.fence = fence;
      return rest;
    }
    return sanitizeLine(rest, whole === rest);
  }
}

/** One line outside code blocks, or the unsent rest of one (`lineStart` false: it cannot be a link definition). */
export function sanitizeLine(line: string, lineStart = true): string {
  const definition = lineStart ? /^( {0,3}\[[^\]]+\]:\s*)(<[^>]*>|\S+)(.*)$/.exec(line) : null;
  if (definition) {
    const target = definition[2].replace(/^<|>$/g, '');
    return checkLink(target).ok
      ? line
      : `${definition[1].replace(/^(\s*)\[/, '$1\\[').replace(/\]:/, '\\]:')}${codeSpan(target)}${definition[3]}`;
  }
  // Code spans are text already: only what is between them is rewritten.
  let out = '';
  let textStart = 0;
  for (let i = 0; i < line.length;) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    const run = /^`+/.exec(line.slice(i))![0];
    const close = findRun(line, run.length, i + run.length);
    if (close < 0) {
      i += run.length;
      continue;
    }
    out += rewriteText(line.slice(textStart, i)) + line.slice(i, close + run.length);
    i = textStart = close + run.length;
  }
  return out + rewriteText(line.slice(textStart));
}

/** Start of the next run of exactly `length` backticks from `from`, or -1. */
function findRun(line: string, length: number, from: number): number {
  for (const match of line.slice(from).matchAll(/`+/g))
    if (match[0].length === length) return from + (match.index ?? 0);
  return -1;
}

const IMAGE = /!\[([^\]]*)\]\(\s*(<[^>]*>|[^\s)]*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const LINK =
  /(?<!\\)\[((?:[^[\]\\]|\\.)*)\]\(\s*(<[^>]*>|(?:[^\s()\\]|\\.|\([^\s()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const AUTOLINK = /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*)>/gi;
const BARE = /\b(?:https?:\/\/|www\.)[^\s<>`]*[^\s<>`.,:;"')\]!?*_~]/gi;

/** Text between code spans: images become a note, refused links become their text plus the address as code. */
function rewriteText(text: string): string {
  const keep: string[] = [];
  const hold = (s: string) => `\u0000${keep.push(s) - 1}\u0000`;
  let out = text.replace(/\u0000/g, '');
  out = out.replace(IMAGE, (_m, alt: string, src: string) =>
    hold(`${codeSpan(`image not shown: ${alt || 'no description'}`)} ${codeSpan(unbracket(src))}`),
  );
  out = out.replace(LINK, (whole, label: string, dest: string) => {
    const target = unbracket(dest);
    // A refused link keeps its text (whose own addresses are checked too) and shows where it pointed.
    return hold(checkLink(target).ok ? whole : `${rewriteAddresses(label, hold)} ${codeSpan(target)}`);
  });
  out = rewriteAddresses(out, hold);
  const restore = (s: string): string => s.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => restore(keep[Number(i)]));
  return restore(out);
}

/** Autolinks (<scheme:…>) and bare URLs (GFM links https://… and www.… by itself). */
function rewriteAddresses(text: string, hold: (s: string) => string): string {
  return text
    .replace(AUTOLINK, (whole, target: string) => hold(checkLink(target).ok ? whole : codeSpan(target)))
    .replace(BARE, (url: string) =>
      hold(checkLink(/^www\./i.test(url) ? `http://${url}` : url).ok ? url : codeSpan(url)),
    );
}

function unbracket(dest: string): string {
  return dest.startsWith('<') && dest.endsWith('>') ? dest.slice(1, -1) : dest.replace(/\\(.)/g, '$1');
}

/** Inline code that shows `text` as is (a run of backticks longer than any inside it). */
function codeSpan(text: string): string {
  // Invisible and direction-changing characters are shown as escapes: they could reorder what is displayed.
  const shown = text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  const longest = Math.max(0, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || !shown.trim() ? ' ' : '';
  return `${ticks}${pad}${shown}${pad}${ticks}`;
}
