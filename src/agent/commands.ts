// Command allow-list matching. A prefix on the allow-list auto-approves a command only when the command is
// that prefix followed by plain arguments: anything a shell could use to start a second command, substitute
// one, or redirect output makes the command ask (the user may still approve it explicitly).

/**
 * Shell syntax that can chain, substitute, redirect or hide a command, in sh, bash, zsh, fish, cmd.exe and
 * PowerShell. Checked on the raw text, quotes included: a quoted `;` is harmless, but telling the two apart
 * needs a full shell parser, and asking once too often is cheap.
 */
export const SHELL_METACHARACTERS: ReadonlyArray<{ text: string; why: string }> = [
  { text: ';', why: 'chains a second command' },
  { text: '&', why: 'chains a command or runs it in the background (`&&`, `&`)' },
  { text: '|', why: 'pipes into or chains another command (`|`, `||`)' },
  { text: '`', why: 'command substitution (sh) or escape (PowerShell)' },
  { text: '$', why: 'substitution or expansion (`$(…)`, `${…}`, `$VAR`)' },
  { text: '<', why: 'redirection or process substitution' },
  { text: '>', why: 'redirection (may overwrite files)' },
  { text: '\n', why: 'a second line is a second command' },
  { text: '\r', why: 'a second line is a second command' },
  { text: '^', why: 'cmd.exe escape (can hide metacharacters)' },
  { text: '%', why: 'cmd.exe variable expansion' },
];

/** Control and invisible characters a terminal may render as nothing (or as a line break). */
const HIDDEN_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/;

/** Why `command` cannot be auto-approved by a prefix, or undefined when it is plain. */
export function unsafeCommandSyntax(command: string): string | undefined {
  for (const m of SHELL_METACHARACTERS) {
    if (command.includes(m.text)) return `contains ${JSON.stringify(m.text)}: ${m.why}`;
  }
  if (HIDDEN_CHARACTERS.test(command)) return 'contains control or invisible characters';
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
