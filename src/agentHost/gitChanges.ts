// The uncommitted changes of a workspace folder (the `changes` @-mention), read with git the hardened way: the
// repository's own configuration can name programs git would run (core.fsmonitor on every status, diff.external,
// textconv and filter drivers, hooks, pagers), and a cloned repository is untrusted. So git runs with the agent's
// hardened environment, external diffs and textconv off, submodules ignored, and not at all when the repository's
// config sets a program this cannot switch off (a clean filter, an included config). Node only, no vscode.
import { execFile } from 'child_process';
import * as nodePath from 'path';
import { HARDENED_GIT_ENV, repositoryConfigRisks } from './gitConfig';

/** Keys whose programs the options below keep from running, so their presence does not stop the diff. */
const NEUTRALISED: readonly RegExp[] = [
  /^core\.(fsmonitor|pager|hookspath|editor|sshcommand|askpass|gitproxy)$/,
  /^diff\.external$/,
  /^diff\..+\.(textconv|command)$/,
  /^pager\..+$/,
  /^alias\..+$/,
  /^sequence\.editor$/,
  /^merge\..+\.driver$/,
  /^credential(\..+)?\.helper$/,
  /^gpg(\..+)?\.program$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^uploadpack\.packobjectshook$/,
];

/** Output of one git call at most (a diff beyond is cut by the attachment's cap anyway). */
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const TIMEOUT_MS = 20_000;

export type GitChanges =
  | { kind: 'changes'; diff: string; secretFiles: Array<{ path: string; pattern: string }>; untracked: string[] }
  | { kind: 'notRepository' }
  | { kind: 'unsafeConfig'; keys: string[] }
  | { kind: 'failed'; message: string };

/** The environment and leading options of every git call here: no repository program runs, no prompt, no lock. */
export function hardenedGit(args: readonly string[]): { args: string[]; env: NodeJS.ProcessEnv } {
  const devNull = process.platform === 'win32' ? 'NUL' : '/dev/null';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...HARDENED_GIT_ENV,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    LC_ALL: 'C',
  };
  for (const name of ['GIT_EXTERNAL_DIFF', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_CONFIG_PARAMETERS'])
    delete env[name];
  // The same overrides on the command line too (git before 2.31 ignores GIT_CONFIG_COUNT).
  const config = ['-c', 'core.fsmonitor=false', '-c', `core.hooksPath=${devNull}`, '-c', 'core.pager=cat'];
  return { args: [...config, '--no-pager', ...args], env };
}

function git(cwd: string, args: readonly string[]): Promise<string> {
  const { args: full, env } = hardenedGit(args);
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      full,
      { cwd, env, maxBuffer: MAX_OUTPUT_BYTES, timeout: TIMEOUT_MS, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        // A diff larger than the buffer is cut here (the attachment's cap cuts far earlier anyway).
        if (error && (error as { code?: unknown }).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') resolve(stdout);
        else if (error) reject(new Error((stderr || error.message).trim().split('\n')[0]));
        else resolve(stdout);
      },
    );
    // Nothing is piped in: `hash-object --stdin` reads an empty input, and no call waits for one.
    child.stdin?.end();
  });
}

/** Code-running keys of the repositories git would use in `cwd` that the hardened call cannot switch off. */
export function unsafeKeys(cwd: string): string[] {
  const keys = repositoryConfigRisks(cwd)
    .map((r) => r.key)
    .filter((key) => !NEUTRALISED.some((r) => r.test(key)));
  return [...new Set(keys)];
}

/**
 * `git diff HEAD` of the folder (staged and unstaged, paths relative to it) and its untracked files' names. Files
 * `isSecret` names (relative paths) are left out of the diff by pathspec and reported with their pattern.
 */
export async function uncommittedChanges(
  folder: string,
  isSecret: (relativePath: string) => string | undefined,
): Promise<GitChanges> {
  const unsafe = unsafeKeys(folder);
  if (unsafe.length) return { kind: 'unsafeConfig', keys: unsafe };
  try {
    await git(folder, ['rev-parse', '--is-inside-work-tree']);
  } catch {
    return { kind: 'notRepository' };
  }
  try {
    // A repository without a commit yet: everything staged is new, compared with the empty tree.
    const base = await git(folder, ['rev-parse', '--verify', '--quiet', 'HEAD'])
      .then((s) => s.trim())
      .catch(async () => (await git(folder, ['hash-object', '-t', 'tree', '--no-filters', '--stdin'])).trim());
    const common = [
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--no-renames',
      '--ignore-submodules',
      '--relative',
    ];
    const names = (await git(folder, ['diff', ...common, '--name-only', '-z', base])).split('\0').filter(Boolean);
    const secretFiles: Array<{ path: string; pattern: string }> = [];
    const shared: string[] = [];
    for (const name of names) {
      const pattern = isSecret(name);
      if (pattern) secretFiles.push({ path: name, pattern });
      else shared.push(name);
    }
    const diff = shared.length ? await git(folder, ['diff', ...common, base, '--', ...shared]) : '';
    const untracked = (await git(folder, ['ls-files', '--others', '--exclude-standard', '-z', '--', '.']))
      .split('\0')
      .filter(Boolean)
      .map((p) => p.split(nodePath.sep).join('/'));
    return { kind: 'changes', diff, secretFiles, untracked };
  } catch (e) {
    return { kind: 'failed', message: e instanceof Error ? e.message : String(e) };
  }
}

/** The `changes` attachment's text: the diff, then the files left out, then untracked names (secrets marked). */
export function formatChanges(
  changes: Extract<GitChanges, { kind: 'changes' }>,
  isSecret: (relativePath: string) => string | undefined,
): string {
  const parts: string[] = [changes.diff.trimEnd() || '(no changes to tracked files)'];
  for (const s of changes.secretFiles)
    parts.push(`[${s.path}: changed, not shown: it matches the secrets ignore list (${s.pattern})]`);
  if (changes.untracked.length) {
    const shown = changes.untracked.slice(0, 200).map((p) => (isSecret(p) ? `${p} (secret: not shared)` : p));
    const more = changes.untracked.length > 200 ? [`… and ${changes.untracked.length - 200} more`] : [];
    parts.push(['Untracked files (content not included):', ...shown, ...more].join('\n'));
  }
  return parts.join('\n\n');
}
