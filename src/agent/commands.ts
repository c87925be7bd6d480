// Command allow-list matching. An allow-list entry auto-approves exactly its command line, or (ending in ` *`) that
// line followed by plain positional arguments. Anything a shell could use to start a second command, substitute one
// or redirect output, any option that runs code or points the tool elsewhere, and environment prefixes make the
// command ask (the user may still approve it explicitly).
import { english, type Localizer } from '../shared/l10n';

/**
 * Shell syntax that can chain, substitute, redirect or hide a command, in sh, bash, zsh, fish, cmd.exe and
 * PowerShell. Checked on the raw text, quotes included: a quoted `;` is harmless, but telling the two apart
 * needs a full shell parser, and asking once too often is cheap.
 */
export const SHELL_METACHARACTERS: ReadonlyArray<{ text: string; why: (l10n: Localizer) => string }> = [
  { text: ';', why: (l10n) => l10n.t('chains a second command') },
  { text: '&', why: (l10n) => l10n.t('chains a command or runs it in the background (`&&`, `&`)') },
  { text: '|', why: (l10n) => l10n.t('pipes into or chains another command (`|`, `||`)') },
  { text: '`', why: (l10n) => l10n.t('command substitution (sh) or escape (PowerShell)') },
  { text: '$', why: (l10n) => l10n.t('substitution or expansion (`$(…)`, `${…}`, `$VAR`)') },
  { text: '<', why: (l10n) => l10n.t('redirection or process substitution') },
  { text: '>', why: (l10n) => l10n.t('redirection (may overwrite files)') },
  { text: '\n', why: (l10n) => l10n.t('a second line is a second command') },
  { text: '\r', why: (l10n) => l10n.t('a second line is a second command') },
  { text: '^', why: (l10n) => l10n.t('cmd.exe escape (can hide metacharacters)') },
  { text: '%', why: (l10n) => l10n.t('cmd.exe variable expansion') },
];

/** Control and invisible characters a terminal may render as nothing (or as a line break). */
const HIDDEN_CHARACTERS =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;

/** Why `command` cannot be auto-approved by a prefix, or undefined when it is plain. */
export function unsafeCommandSyntax(command: string, l10n: Localizer = english): string | undefined {
  for (const m of SHELL_METACHARACTERS) {
    if (command.includes(m.text)) return l10n.t('contains {0}: {1}', JSON.stringify(m.text), m.why(l10n));
  }
  if (HIDDEN_CHARACTERS.test(command)) return l10n.t('contains control or invisible characters');
  return undefined;
}

/** Runs of spaces and tabs become one space; leading and trailing blanks go. */
export function normalizeCommand(command: string): string {
  return command.replace(/[ \t]+/g, ' ').trim();
}

/**
 * The words of a plain command line as the program receives them: split on blanks outside quotes, quotes removed,
 * a backslash outside single quotes escaping the next character (POSIX shells: `\-\-require` is `--require`).
 * `escapes: false` reads backslashes as cmd.exe and PowerShell do (literal: `..\x` is a path).
 */
export function commandWords(command: string, escapes = true): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (escapes && ch === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else cur += ch;
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (ch === '"' || ch === "'") quote = ch;
    else if (escapes && ch === '\\' && i + 1 < command.length) cur += command[++i];
    else cur += ch;
  }
  if (inWord) words.push(cur);
  return words;
}

/**
 * Options of common runners (node, npm, npx, yarn, pnpm, git, python, make, sh, deno, bun) that run code, load a
 * module, or point the tool at another folder or configuration. A command carrying one always asks, whatever the
 * allow-list says: `npm test --node-options=--import=data:…` is not `npm test`.
 */
export const CODE_RUNNING_LONG_OPTIONS: readonly string[] = [
  '--node-options',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--preload',
  '--eval',
  '--print',
  '--prefix',
  '--exec-path',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config',
  '--config-env',
  '--userconfig',
  '--globalconfig',
  '--init-module',
  '--script-shell',
  '--shell',
  '--exec',
  '--call',
  '--package',
  '--cwd',
  '--dir',
  '--env-file',
  '--env-file-if-exists',
  '--upload-pack',
  '--receive-pack',
  '--template',
  '--output',
  '--ext-diff',
  '--textconv',
  '--makefile',
  '--file',
  '--directory',
  '--include-dir',
  '--eval-command',
];

/** Single-letter options with the same power (`-r` require, `-e`/`-p` eval, `-c`/`-C` config or folder, `-x` exec, `-f`/`-I` make). */
export const CODE_RUNNING_SHORT_OPTIONS = 'repcCxfI';

/** The code-running option among `words` (after the program name), else undefined. */
export function codeRunningOption(words: readonly string[]): string | undefined {
  for (const w of words.slice(1)) {
    if (w.startsWith('--')) {
      const name = w.split('=')[0].toLowerCase();
      if (CODE_RUNNING_LONG_OPTIONS.includes(name)) return w;
    } else if (/^-[^-]/.test(w)) {
      const letters = w.slice(1).split('=')[0];
      if ([...letters].some((c) => CODE_RUNNING_SHORT_OPTIONS.includes(c))) return w;
    }
  }
  return undefined;
}

/** `FOO=1 npm test`: an environment assignment before the program (NODE_OPTIONS, GIT_DIR, PATH, …). */
export function environmentPrefix(words: readonly string[]): string | undefined {
  const first = words[0];
  return first !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(first) ? first : undefined;
}

/**
 * The words (and option values after `=`) that name a path: absolute, home-relative, or climbing with `..`.
 * Relative paths without `..` stay below the working folder and are not returned.
 */
export function pathLikeArguments(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words.slice(1)) {
    const values = w.startsWith('-') && w.includes('=') ? [w.slice(w.indexOf('=') + 1)] : [w];
    if (!w.startsWith('-')) values.push(...w.split('=').slice(1));
    for (const v of values) {
      if (/^(~|\/|\\|[a-zA-Z]:)/.test(v) || v.split(/[\\/]/).includes('..')) out.push(v);
    }
  }
  return out;
}

/**
 * The allow-list entry that auto-approves `command`, else undefined. An entry approves exactly its own command
 * line (words compared after quotes and blanks are normalised); an entry ending in ` *` also approves plain
 * positional arguments after it: words that are not options (`-x`, `--x`) and not assignments (`CC=…`). The
 * command must be plain (no shell syntax) and free of code-running options and environment prefixes.
 */
export function allowListMatch(command: string, allowList: readonly string[]): string | undefined {
  if (unsafeCommandSyntax(command) !== undefined) return undefined;
  const words = commandWords(normalizeCommand(command));
  if (words.length === 0 || environmentPrefix(words) || codeRunningOption(words)) return undefined;
  for (const entry of allowList) {
    const norm = normalizeCommand(entry);
    // An empty or unsafe entry must never turn into "allow everything".
    if (norm === '' || unsafeCommandSyntax(norm) !== undefined) continue;
    const wildcard = norm === '*' || norm.endsWith(' *');
    const fixed = commandWords(wildcard ? norm.slice(0, -1) : norm);
    if (fixed.length === 0 || words.length < fixed.length) continue;
    if (!fixed.every((w, i) => w === words[i])) continue;
    const rest = words.slice(fixed.length);
    if (rest.length === 0) return entry;
    if (wildcard && rest.every(isPlainPositional)) return entry;
  }
  return undefined;
}

/** Not an option, not an assignment, and no glob a shell would expand (`cat .en?` is `cat .env`). */
function isPlainPositional(word: string): boolean {
  return word !== '' && !word.startsWith('-') && !word.includes('=') && !/[*?[\]{}]/.test(word);
}
