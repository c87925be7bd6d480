// search_text: the ripgrep binary VS Code ships (fast, linear-time regex, honours .gitignore), else `rg` on
// PATH, else findFiles + reading + a JavaScript search. Secret files are excluded by ripgrep globs and
// filtered again from the results, so their contents never reach the model.
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as nodePath from 'path';
import * as vscode from 'vscode';
import type { Tool } from '../../agent';
import { byPath, containingFolder, pageHeader, pageOf } from '../../agent';
import { displayPath, realPathOf, secretMatch } from '../resolve';
import { looksBinary } from '../text';
import { visibleToModel } from '../visible';
import { bool, errorResult, int, str, UNTRUSTED, type Input, type ToolHost } from './common';
import { defaultExcludes, tokenFrom } from './files';

export const SEARCH_DEFAULT = 100;
export const SEARCH_MAX = 500;
/** Matching lines counted for the total (sorted, then paged): beyond, the total is "more than". */
export const SEARCH_SCAN = 5_000;
/** A matched line is shown up to this many characters (minified files have megabyte lines). */
export const LINE_CAP = 300;
const FALLBACK_MAX_FILES = 5000;
const FALLBACK_MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * Where VS Code keeps its ripgrep. The package changed over the years (`vscode-ripgrep`, `@vscode/ripgrep`,
 * per-platform `@vscode/ripgrep-<os>-<arch>`, and since 2025 `@vscode/ripgrep-universal/bin/<os>-<arch>/`),
 * and desktop builds unpack it next to node_modules.asar while servers keep plain node_modules.
 */
export function ripgrepCandidates(
  appRoot: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string[] {
  const rg = platform === 'win32' ? 'rg.exe' : 'rg';
  const out: string[] = [];
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    const base = nodePath.join(appRoot, modules);
    out.push(
      nodePath.join(base, '@vscode', 'ripgrep', 'bin', rg),
      nodePath.join(base, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, rg),
      nodePath.join(base, '@vscode', `ripgrep-${platform}-${arch}`, 'bin', rg),
      nodePath.join(base, 'vscode-ripgrep', 'bin', rg),
    );
  }
  return out;
}

async function executable(p: string): Promise<boolean> {
  try {
    await fs.promises.access(p, fs.constants.X_OK);
    return (await fs.promises.stat(p)).isFile();
  } catch {
    return false;
  }
}

let probed: Promise<{ path: string; source: 'vscode' | 'path' } | undefined> | undefined;

/** The ripgrep to use, probed once per window: VS Code's own first, then PATH. */
export function findRipgrep(): Promise<{ path: string; source: 'vscode' | 'path' } | undefined> {
  probed ??= (async () => {
    for (const c of ripgrepCandidates(vscode.env.appRoot))
      if (await executable(c)) return { path: c, source: 'vscode' as const };
    const rg = process.platform === 'win32' ? 'rg.exe' : 'rg';
    for (const dir of (process.env.PATH ?? '').split(nodePath.delimiter)) {
      if (!dir) continue;
      const c = nodePath.join(dir, rg);
      if (await executable(c)) return { path: c, source: 'path' as const };
    }
    return undefined;
  })();
  return probed;
}

interface Match {
  file: string;
  line: number;
  text: string;
}

function capLine(text: string): string {
  const t = text.replace(/\r?\n$/, '');
  return t.length > LINE_CAP ? `${t.slice(0, LINE_CAP)}…` : t;
}

/** Runs ripgrep in one folder; resolves with the matches (at most `max`, the process is killed beyond). */
function ripgrep(
  rg: string,
  cwd: string,
  q: { query: string; regex: boolean; caseSensitive: boolean; glob?: string; secrets: readonly string[] },
  max: number,
  signal: AbortSignal,
): Promise<{ matches: Match[]; error?: string }> {
  // --hidden: dotfiles such as .github/ and .eslintrc matter; secret dotfiles are excluded by the globs below.
  const args = [
    '--json',
    '--no-config',
    '--no-follow',
    '--hidden',
    '--max-columns',
    String(LINE_CAP * 2),
    '--max-filesize',
    '5M',
    // One order on every run (ripgrep's parallel walk finds files in no fixed order): a capped scan stays the same.
    '--sort',
    'path',
  ];
  args.push(q.caseSensitive ? '--case-sensitive' : '--ignore-case');
  if (!q.regex) args.push('--fixed-strings');
  if (q.glob) args.push('--glob', q.glob);
  // ripgrep globs: a pattern without `/` matches at any depth, as in the ignore list. The results are filtered
  // again below, so a pattern ripgrep reads differently cannot leak a file.
  for (const s of q.secrets) args.push('--glob', `!${s.replace(/\/+$/, '')}`);
  args.push('--glob', '!.git', '-e', q.query, '--', '.');
  return new Promise((resolve) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const matches: Match[] = [];
    let pending = '';
    let stderr = '';
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      resolve({ matches, error });
    };
    const onAbort = () => {
      child.kill();
      finish();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        try {
          const ev = JSON.parse(line) as {
            type?: string;
            data?: { path?: { text?: string }; line_number?: number; lines?: { text?: string } };
          };
          if (ev.type !== 'match' || !ev.data?.path?.text) continue;
          matches.push({
            file: nodePath.resolve(cwd, ev.data.path.text),
            line: ev.data.line_number ?? 0,
            text: capLine(ev.data.lines?.text ?? ''),
          });
          if (matches.length >= max) {
            child.kill();
            finish();
            return;
          }
        } catch {
          // A line that is not JSON (should not happen with --json) is skipped.
        }
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      if (stderr.length < 2000) stderr += c;
    });
    child.on('error', (e) => finish(e.message));
    // Exit 1 is "no match"; 2 is an error (e.g. a bad regex) that still may have produced matches.
    child.on('close', (code) => finish(code === 2 && matches.length === 0 ? stderr.trim().split('\n')[0] : undefined));
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** No ripgrep: findFiles + read + a line-by-line search (lines capped, so a hostile regex stays bounded per line). */
async function fallbackSearch(
  q: { query: string; regex: boolean; caseSensitive: boolean; glob?: string },
  max: number,
  signal: AbortSignal,
): Promise<{ matches: Match[]; error?: string; filesCapped: boolean }> {
  let re: RegExp;
  try {
    re = new RegExp(q.regex ? q.query : escapeRegExp(q.query), q.caseSensitive ? '' : 'i');
  } catch (e) {
    return { matches: [], error: e instanceof Error ? e.message : String(e), filesCapped: false };
  }
  const matches: Match[] = [];
  const cancel = tokenFrom(signal);
  let filesCapped = false;
  try {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const include = new vscode.RelativePattern(folder, q.glob ?? '**/*');
      const uris = await vscode.workspace.findFiles(
        include,
        defaultExcludes(q.glob ?? ''),
        FALLBACK_MAX_FILES,
        cancel.token,
      );
      if (uris.length >= FALLBACK_MAX_FILES) filesCapped = true;
      for (const uri of uris) {
        if (signal.aborted || matches.length >= max) break;
        const stat = await vscode.workspace.fs.stat(uri).then(
          (s) => s,
          () => undefined,
        );
        if (!stat || stat.size > FALLBACK_MAX_FILE_BYTES) continue;
        const bytes = await vscode.workspace.fs.readFile(uri).then(
          (b) => b,
          () => undefined,
        );
        if (!bytes || looksBinary(bytes)) continue;
        const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
        for (let i = 0; i < lines.length && matches.length < max; i++) {
          const line = lines[i].length > 4 * LINE_CAP ? lines[i].slice(0, 4 * LINE_CAP) : lines[i];
          if (re.test(line))
            matches.push({ file: uri.scheme === 'file' ? uri.fsPath : uri.path, line: i + 1, text: capLine(lines[i]) });
        }
      }
    }
  } finally {
    cancel.dispose();
  }
  return { matches, filesCapped };
}

/**
 * Matches the model may see: neither the file as named nor where it really is (a symlink to .env, a link out
 * of the workspace) is a secret, and the real file is inside a workspace folder and outside `.git` (visible.ts).
 */
async function visibleMatches(
  matches: Match[],
  folderReals: readonly string[],
  secrets: readonly string[],
  caseInsensitive: boolean | undefined,
): Promise<Match[]> {
  const lexicalFolders = (vscode.workspace.workspaceFolders ?? []).map((f) =>
    f.uri.scheme === 'file' ? f.uri.fsPath : f.uri.path,
  );
  const verdicts = new Map<string, boolean>();
  const out: Match[] = [];
  for (const m of matches) {
    let ok = verdicts.get(m.file);
    if (ok === undefined) {
      const real = nodePath.isAbsolute(m.file)
        ? (await realPathOf(m.file).catch(() => ({ real: m.file }))).real
        : m.file;
      ok =
        !secretMatch(m.file, lexicalFolders, secrets, caseInsensitive) &&
        !secretMatch(real, folderReals, secrets, caseInsensitive) &&
        containingFolder(real, folderReals, { caseInsensitive }) !== undefined &&
        (!nodePath.isAbsolute(m.file) || (await visibleToModel(m.file, folderReals, caseInsensitive)));
      verdicts.set(m.file, ok);
    }
    if (ok) out.push(m);
  }
  return out;
}

export function searchTextTool(host: ToolHost): Tool<Input> {
  return {
    name: 'search_text',
    description:
      'Search the text of workspace files (ripgrep; .gitignore honoured; secret files skipped); returns path:line: text sorted by path and line, one page at a time, with the total.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Text to find (a regular expression when isRegex is true).' },
        isRegex: {
          type: 'boolean',
          description: 'Treat query as a regular expression (Rust/ripgrep syntax). Default false.',
        },
        caseSensitive: { type: 'boolean', description: 'Default false.' },
        glob: { type: 'string', description: 'Only files matching this glob, e.g. "src/**/*.ts".' },
        maxResults: {
          type: 'integer',
          minimum: 1,
          maximum: SEARCH_MAX,
          description: `At most this many matching lines per page (default ${SEARCH_DEFAULT}).`,
        },
        offset: {
          type: 'integer',
          minimum: 0,
          description:
            'Skip this many matching lines of the sorted list: the next page starts where the last one ended.',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    approvalClass: 'read',
    async target(input) {
      const query = str(input, 'query', true);
      str(input, 'glob');
      bool(input, 'isRegex');
      bool(input, 'caseSensitive');
      int(input, 'maxResults', 1, SEARCH_MAX);
      int(input, 'offset', 0, Number.MAX_SAFE_INTEGER);
      const snap = await host.snapshot();
      return {
        paths: [...snap.policy.workspaceFolders],
        summary: vscode.l10n.t('Search for {0}', JSON.stringify(query.length > 80 ? query.slice(0, 80) + '…' : query)),
      };
    },
    async invoke(input, ctx) {
      if (!host.trusted()) return errorResult(UNTRUSTED);
      const query = str(input, 'query', true);
      if (query === '') return errorResult('the "query" field is empty.');
      const q = {
        query,
        regex: bool(input, 'isRegex') ?? false,
        caseSensitive: bool(input, 'caseSensitive') ?? false,
        glob: str(input, 'glob')?.trim() || undefined,
      };
      const max = int(input, 'maxResults', 1, SEARCH_MAX) ?? SEARCH_DEFAULT;
      const offset = int(input, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
      const snap = await host.snapshot();
      const rg = await findRipgrep();
      let matches: Match[] = [];
      let error: string | undefined;
      let engine: string;
      let note = '';
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (rg && folders.every((f) => f.uri.scheme === 'file')) {
        engine = `ripgrep (${rg.source === 'vscode' ? "VS Code's" : 'PATH'}: ${rg.path})`;
        for (const f of folders) {
          // Every match up to the scan cap (one extra tells that the cap was reached), then sorted and paged.
          const r = await ripgrep(
            rg.path,
            f.uri.fsPath,
            { ...q, secrets: snap.allSecretPatterns },
            SEARCH_SCAN + 1 - matches.length,
            ctx.signal,
          );
          matches.push(...r.matches);
          error ??= r.error;
          if (matches.length > SEARCH_SCAN) break;
        }
      } else {
        engine = 'findFiles + read (ripgrep not found)';
        const r = await fallbackSearch(q, SEARCH_SCAN + 1, ctx.signal);
        matches = r.matches;
        error = r.error;
        if (r.filesCapped) note = ` Only the first ${FALLBACK_MAX_FILES} files of each folder were searched.`;
      }
      if (error && matches.length === 0) return errorResult(`Search failed: ${error}`);
      const visible = await visibleMatches(
        matches,
        snap.policy.workspaceFolders,
        snap.allSecretPatterns,
        snap.policy.caseInsensitive,
      );
      const scanCapped = matches.length > SEARCH_SCAN;
      const lines = visible
        .map((m) => ({ path: displayPath(m.file, m.file, snap.policy.workspaceFolders), line: m.line, text: m.text }))
        .sort((a, b) => byPath(a.path, b.path) || a.line - b.line)
        .slice(0, SEARCH_SCAN);
      const page = pageOf(lines, offset, max, scanCapped);
      const head =
        page.total === 0
          ? `No matches for ${JSON.stringify(query)}.`
          : pageHeader(page, 'matching lines', `for ${JSON.stringify(query)}`, 'path and line');
      return {
        content: `${head}${note}\n${page.items.map((m) => `${m.path}:${m.line}: ${m.text}`).join('\n')}`.trimEnd(),
        details: {
          engine,
          count: page.items.length,
          total: page.total,
          capped: page.next !== undefined || page.atLeast,
        },
      };
    },
  };
}
