// Command allow-list matching. A prefix on the allow-list auto-approves a command only when the command is
// that prefix followed by plain arguments: anything a shell could use to start a second command, substitute
// one, or redirect output makes the command ask (the user may still approve it explicitly).
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
 * The allow-list prefix that auto-approves `command`, else undefined. The prefix must match whole words
 * (`npm test` allows `npm test -- --grep x`, not `npm testify`), and the command must be plain.
 */
export function allowListMatch(command: string, allowList: readonly string[]): string | undefined {
  if (unsafeCommandSyntax(command) !== undefined) return undefined;
  const c = normalizeCommand(command);
  if (c === '') return undefined;
  for (const entry of allowList) {
    const prefix = normalizeCommand(entry);
    // An empty or unsafe entry must never turn into "allow everything".
    if (prefix === '' || unsafeCommandSyntax(prefix) !== undefined) continue;
    if (c === prefix || c.startsWith(prefix + ' ')) return entry;
  }
  return undefined;
}
