// The secrets ignore list: files the agent never hands to the model. Patterns have gitignore semantics, matched
// by the `ignore` package: a pattern without `/` (other than a trailing one) matches a file or directory name at
// any depth; a pattern with a `/` at the start or in the middle is anchored at the workspace folder; a trailing
// `/` matches directories only; `**` spans folders; `\#` and `\!` are literal; a matching directory covers
// everything below it. Negations (`!pattern`) are deliberately dropped: the ignore file lives in the repository
// (which the model may have written) and workspace settings add patterns too, so a list may only add refusals,
// never lift one, least of all a built-in one.
import ignore, { type Ignore } from 'ignore';

/** Always on, whatever the settings: environment files, private keys, certificates and key stores, credentials. */
export const DEFAULT_SECRET_PATTERNS: readonly string[] = [
  '.env*',
  '*.pem',
  '*.key',
  '*.p8',
  '*.ppk',
  // OpenSSH private keys by their standard names (a bare `id_*` would also hide source files such as id_utils.ts).
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  'id_xmss*',
  '*.crt',
  '*.cer',
  '*.der',
  '*.p12',
  '*.pfx',
  '*.jks',
  '*.keystore',
  '*.kdbx',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.aws/',
  '.ssh/',
  '.gnupg/',
];

/** Name of the optional ignore file at a workspace folder's root. */
export const IGNORE_FILE_NAME = '.modelgatewayignore';

/** Patterns from an ignore file's text: one per line, `#` comments and blank lines skipped, `!` lines dropped. */
export function parseIgnoreFile(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    // Blanks around a pattern are dropped (as git does at the end; at the start as this list always did), except an
    // escaped trailing space (`name\ `), which git keeps.
    let line = raw.trim();
    if (line.endsWith('\\') && raw.trimStart().length > line.length) line += ' ';
    if (line.trim() === '' || line.startsWith('#') || line.startsWith('!')) continue;
    out.push(line);
  }
  return out;
}

/** One compiled list: `all` decides, `single` names the pattern (one `ignore` per pattern, made on a hit only). */
interface Compiled {
  patterns: string[];
  all: Ignore;
  lookups: number;
}

// Callers pass the same few lists for every file of a listing: compile each once. `ignore` caches every path it
// was asked about, so a compiled list is rebuilt after MAX_LOOKUPS paths to keep that cache bounded.
const compiled = new Map<string, Compiled>();
const singles = new Map<string, Ignore>();
const MAX_LISTS = 32;
const MAX_SINGLES = 512;
const MAX_LOOKUPS = 5000;
// Case-insensitive (see matchIgnored); `allowRelativePaths` so a folder named `...` is tested rather than thrown on.
const OPTIONS = { ignorecase: true, allowRelativePaths: true };

function usable(raw: string): string | undefined {
  const p = raw.replace(/^\s+/, '');
  return p.trim() === '' || p.startsWith('#') || p.startsWith('!') ? undefined : p;
}

// Git has no `{a,b}`, but editors' globs do, and a user who wrote `*.{pem,key}` as a secret pattern meant both: a
// brace group is expanded (refusing more is the safe reading of a secrets list). Unescaped groups only, nested
// ones too, at most MAX_EXPANSIONS patterns from one line (the rest of a huge product is cut, never looped on).
const MAX_EXPANSIONS = 64;

/** `a{b,c}d` → [`abd`, `acd`]; a group without a top-level comma, or unbalanced, stays literal. */
export function expandBraces(pattern: string): string[] {
  const group = firstGroup(pattern);
  if (!group) return [pattern];
  const out: string[] = [];
  for (const alternative of group.alternatives) {
    for (const expanded of expandBraces(pattern.slice(0, group.start) + alternative + pattern.slice(group.end + 1))) {
      if (out.length >= MAX_EXPANSIONS) return out;
      out.push(expanded);
    }
  }
  return out;
}

function firstGroup(pattern: string): { start: number; end: number; alternatives: string[] } | undefined {
  for (let start = 0; start < pattern.length; start++) {
    if (pattern[start] === '\\') {
      start++;
      continue;
    }
    if (pattern[start] !== '{') continue;
    let depth = 0;
    let from = start + 1;
    const alternatives: string[] = [];
    for (let i = start; i < pattern.length; i++) {
      const ch = pattern[i];
      if (ch === '\\') i++;
      else if (ch === '{') depth++;
      else if (ch === ',' && depth === 1) {
        alternatives.push(pattern.slice(from, i));
        from = i + 1;
      } else if (ch === '}' && --depth === 0) {
        if (alternatives.length === 0) break; // `{x}`: literal, look for a later group
        alternatives.push(pattern.slice(from, i));
        return { start, end: i, alternatives };
      }
    }
  }
  return undefined;
}

function compile(patterns: readonly string[]): Compiled {
  const key = patterns.join('\n');
  let c = compiled.get(key);
  if (!c || c.lookups >= MAX_LOOKUPS) {
    const kept = patterns.filter((p) => usable(p) !== undefined);
    c = { patterns: kept, all: ignore(OPTIONS).add(kept.flatMap((p) => expandBraces(usable(p)!))), lookups: 0 };
    if (compiled.size >= MAX_LISTS) compiled.clear();
    compiled.set(key, c);
  }
  c.lookups++;
  return c;
}

function single(pattern: string): Ignore {
  let s = singles.get(pattern);
  if (!s) {
    s = ignore(OPTIONS).add(expandBraces(usable(pattern)!));
    if (singles.size >= MAX_SINGLES) singles.clear();
    singles.set(pattern, s);
  }
  return s;
}

/** `relPath` as `ignore` takes it: `/` separators, no empty, `.` or `..` segments; a trailing `/` kept (a folder). */
function normalized(relPath: string): string | undefined {
  const segments = relPath.replace(/\\/g, '/').split('/');
  const folder = segments.length > 1 && segments[segments.length - 1] === '';
  // `..` segments are dropped too: the names that remain are still tested, so a path never escapes a rule.
  const names = segments.filter((s) => s !== '' && s !== '.' && s !== '..');
  if (names.length === 0) return undefined;
  return names.join('/') + (folder ? '/' : '');
}

/**
 * The first pattern (in list order, so a built-in one before the user's) that ignores `relPath` (relative to its
 * workspace folder, `/` separators; a trailing `/` marks a folder), else undefined. Matching ignores case: on a
 * case-insensitive disk `.ENV` is the same file, and refusing too much is safe.
 */
export function matchIgnored(relPath: string, patterns: readonly string[]): string | undefined {
  const path = normalized(relPath);
  if (path === undefined || patterns.length === 0) return undefined;
  const c = compile(patterns);
  if (!c.all.ignores(path)) return undefined;
  return c.patterns.find((p) => single(p).ignores(path));
}
