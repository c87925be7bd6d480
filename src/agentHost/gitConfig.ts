// Git runs programs its repository's own configuration names (core.fsmonitor on every `git status`, pagers,
// filters, aliases, hooks). A cloned repository, or a nested one the model created, can carry such a config, so
// before an allow-listed git command runs unasked the repositories it would use are read here: the nearest one
// upward from the working folder, its submodules' configs, and repositories nested in the working folder.
// Node's fs only (no vscode), so the unit tests run it on real `git init` folders.
import * as fs from 'fs';
import * as nodePath from 'path';

/** Config keys (lower-case, `*` = any subsection) whose value is a program, a hook folder or another config file. */
const CODE_RUNNING_KEYS: readonly RegExp[] = [
  /^core\.(fsmonitor|sshcommand|pager|editor|hookspath|askpass|gitproxy)$/,
  /^sequence\.editor$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^diff\..+\.(textconv|command)$/,
  /^diff\.external$/,
  /^merge\..+\.driver$/,
  /^alias\..+$/,
  /^credential(\..+)?\.helper$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
  /^gpg(\..+)?\.program$/,
  /^pager\..+$/,
  /^remote\..+\.(uploadpack|receivepack)$/,
  /^uploadpack\.packobjectshook$/,
];

/**
 * Set for commands the policy auto-approved, through git's environment configuration (command-line precedence,
 * git 2.31+): the repository's fsmonitor, hooks and pager cannot run even if the check below missed one.
 */
export const HARDENED_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '3',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'core.hooksPath',
  GIT_CONFIG_VALUE_1: process.platform === 'win32' ? 'NUL' : '/dev/null',
  GIT_CONFIG_KEY_2: 'core.pager',
  GIT_CONFIG_VALUE_2: 'cat',
};

/** True when the command line's program is git. */
export function isGitCommand(words: readonly string[]): boolean {
  const program = words[0];
  return program !== undefined && /^git(\.exe)?$/i.test(nodePath.basename(program));
}

/** Keys set in a git config text that make git run something (`[filter "x"] clean = …` → filter.x.clean). */
export function codeRunningKeys(text: string): string[] {
  const found: string[] = [];
  let section = '';
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([^\]\s"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    let rest = line;
    if (header) {
      const [name, sub] = [header[1].toLowerCase(), header[2]];
      // `[section.sub]` is the old spelling of `[section "sub"]`.
      section = sub !== undefined ? `${name}.${sub}` : name;
      rest = header[3].trim();
      if (rest === '') continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)/.exec(rest)?.[1];
    if (!key || section === '') continue;
    const full = `${section}.${key}`.toLowerCase();
    const value = rest.includes('=') ? rest.slice(rest.indexOf('=') + 1).trim() : '';
    // core.fsmonitor=true/false selects git's built-in daemon (or none): no program of the repository's.
    if (full === 'core.fsmonitor' && /^(true|false|yes|no|on|off|0|1|)$/i.test(value.replace(/^"|"$/g, ''))) continue;
    if (CODE_RUNNING_KEYS.some((r) => r.test(full))) found.push(full);
  }
  return found;
}

/** Where the repository of `.git` (a folder, or a file `gitdir: …` of a worktree or submodule) keeps its config. */
function configFilesOf(dotGit: string): string[] {
  let gitDir = dotGit;
  try {
    if (fs.statSync(dotGit).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
      if (!m) return [];
      gitDir = nodePath.resolve(nodePath.dirname(dotGit), m[1].trim());
    }
  } catch {
    return [];
  }
  const files = [nodePath.join(gitDir, 'config'), nodePath.join(gitDir, 'config.worktree')];
  try {
    const common = fs.readFileSync(nodePath.join(gitDir, 'commondir'), 'utf8').trim();
    if (common) files.push(nodePath.join(nodePath.resolve(gitDir, common), 'config'));
  } catch {
    // Not a linked worktree.
  }
  // Submodules keep their repositories (and configs) under the superproject's .git/modules.
  files.push(...findNamed(nodePath.join(gitDir, 'modules'), 'config', 6));
  return files;
}

/** Files (or folders) named `name` below `root`, at most `depth` levels down and 2,000 folders visited. */
function findNamed(root: string, name: string, depth: number, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  let budget = 2000;
  const walk = (dir: string, level: number): void => {
    if (level > depth || budget-- <= 0) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = nodePath.join(dir, e.name);
      if (e.name === name) out.push(full);
      else if (e.isDirectory() && !e.isSymbolicLink() && !skip.includes(e.name)) walk(full, level + 1);
    }
  };
  walk(root, 0);
  return out;
}

/**
 * The code-running settings in the configuration of every repository a git command run in `cwd` could use: the
 * nearest `.git` upward (up to the file-system root), and `.git` folders or files nested below `cwd`. Files are
 * named as found (absolute paths).
 */
export function repositoryConfigRisks(cwd: string): Array<{ file: string; key: string }> {
  const dotGits: string[] = [];
  for (let dir = nodePath.resolve(cwd); ;) {
    const candidate = nodePath.join(dir, '.git');
    if (fs.existsSync(candidate)) {
      dotGits.push(candidate);
      break;
    }
    const parent = nodePath.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  dotGits.push(...findNamed(cwd, '.git', 6, ['.git', 'node_modules']).filter((p) => !dotGits.includes(p)));
  const risks: Array<{ file: string; key: string }> = [];
  for (const file of new Set(dotGits.flatMap(configFilesOf))) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const key of codeRunningKeys(text)) risks.push({ file, key });
  }
  return risks;
}
