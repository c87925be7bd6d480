// A small glob matcher for ignore lists (gitignore-like subset), so the agent core needs no new dependency.
// Supported: `*` (within one path segment), `**` (any number of segments), `?`, `[abc]`, `[!abc]`, `{a,b}`.
// Paths and patterns use `/` separators.

const cache = new Map<string, RegExp>();

/** Compiles a glob to an anchored RegExp. `ignoreCase` matters on case-insensitive file systems. */
export function globToRegExp(glob: string, ignoreCase: boolean): RegExp {
  const key = (ignoreCase ? 'i:' : 's:') + glob;
  let re = cache.get(key);
  if (!re) {
    re = new RegExp('^' + translate(glob) + '$', ignoreCase ? 'i' : '');
    if (cache.size > 2000) cache.clear();
    cache.set(key, re);
  }
  return re;
}

/** True when the whole `path` matches `glob`. */
export function matchGlob(glob: string, path: string, ignoreCase = false): boolean {
  return globToRegExp(glob, ignoreCase).test(path);
}

function translate(glob: string): string {
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches zero or more whole segments; a trailing `**` matches everything below.
        const slashAfter = glob[i + 2] === '/';
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        if (atSegmentStart && slashAfter) {
          out += '(?:[^/]*/)*';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negate = body[0] === '!' || body[0] === '^';
      if (negate) body = body.slice(1);
      out += (negate ? '[^/' : '[') + body.replace(/[\\\]^]/g, '\\$&') + ']';
      i = end;
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escapeChar(glob[++i]);
    } else {
      out += escapeChar(c);
    }
  }
  // An unclosed `{` would leave an open group: close it so the pattern still compiles.
  return out + ')'.repeat(braces);
}

function escapeChar(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? '\\' + c : c;
}
