// The secrets ignore list: files the agent never hands to the model. Patterns follow a gitignore-like
// subset (see glob.ts): a pattern without `/` matches a file or directory name at any depth; a pattern with
// `/` is anchored at the workspace folder; a trailing `/` matches directories only; a matching directory
// covers everything below it. Negations (`!pattern`) are deliberately not supported: the ignore file lives in
// the repository (which the model may have written), so it may only add patterns, never lift one.
import { matchGlob } from './glob';

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
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    out.push(line);
  }
  return out;
}

/**
 * The first pattern that matches `relPath` (relative to its workspace folder, `/` separators), else undefined.
 * Matching ignores case: on a case-insensitive disk `.ENV` is the same file, and refusing too much is safe.
 */
export function matchIgnored(relPath: string, patterns: readonly string[]): string | undefined {
  const segments = relPath.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return undefined;
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (pattern === '' || pattern.startsWith('#') || pattern.startsWith('!')) continue;
    if (patternMatches(pattern, segments)) return raw;
  }
  return undefined;
}

function patternMatches(pattern: string, segments: string[]): boolean {
  const dirOnly = pattern.endsWith('/');
  const body = dirOnly ? pattern.replace(/\/+$/, '') : pattern;
  if (body === '') return false;
  // The last segment is the file itself; a directory-only pattern may match only the segments above it.
  const limit = dirOnly ? segments.length - 1 : segments.length;
  if (!body.includes('/')) {
    for (let i = 0; i < limit; i++) if (matchGlob(body, segments[i], true)) return true;
    return false;
  }
  const anchored = body.replace(/^\/+/, '');
  // A match on any leading run of segments covers the file (a matching directory covers its contents).
  for (let n = 1; n <= limit; n++) {
    if (matchGlob(anchored, segments.slice(0, n).join('/'), true)) return true;
  }
  return false;
}
