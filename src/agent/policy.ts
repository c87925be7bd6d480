// The approval policy: one ordered, data-driven table (APPROVAL_RULES); the first rule that applies decides.
// It sees only the tool's class, its resolved target and the user's settings, never a tool result, so nothing
// the model reads (file contents, command output) can change an approval.
import {
  allowListMatch,
  codeRunningOption,
  commandWords,
  environmentPrefix,
  normalizeCommand,
  pathLikeArguments,
  unsafeCommandSyntax,
} from './commands';
import { english, type Localizer } from '../shared/l10n';
import { DEFAULT_SECRET_PATTERNS, matchIgnored } from './ignore';
import { containingFolder, isPathInside, normalizeAbsolute, relativeTo, type PathStyle } from './paths';
import type { ApprovalClass, Decision, PolicyVerdict, ToolTarget } from './types';

export interface PolicySettings {
  /** Real paths of the workspace folders. No folder: nothing counts as inside. */
  workspaceFolders: readonly string[];
  /** Compare paths case-insensitively (the VS Code side passes the platform's answer). */
  caseInsensitive?: boolean;
  /** Real paths (files or folders) of the extension's own settings and state: never auto-approved. */
  protectedPaths?: readonly string[];
  /** User patterns and the ignore file's patterns; DEFAULT_SECRET_PATTERNS always apply as well. */
  secretPatterns?: readonly string[];
  /** Setting: writes inside the workspace run without asking (protected paths still ask). */
  autoApproveWrites?: boolean;
  /** Setting: command prefixes that run without asking (plain commands only, see commands.ts). */
  commandAllowList?: readonly string[];
  /** The user's language for `shown` reasons (vscode.l10n in the host); the model always gets English. */
  l10n?: Localizer;
}

export interface PolicyFacts {
  toolName: string;
  approvalClass: ApprovalClass;
  target: ToolTarget;
  /**
   * Files were written (or restored by a checkpoint) earlier in this conversation: an allow-listed command could now
   * run what was written, so it asks until the conversation ends.
   */
  filesWritten?: boolean;
}

export interface ApprovalRule {
  id: string;
  decision: Decision;
  /** True when no setting can turn this rule's verdict into 'auto' (a test enumerates these). */
  neverAuto: boolean;
  /** Returns the reason (in `l10n`, English when absent) when the rule applies, else undefined. */
  applies(facts: PolicyFacts, settings: PolicySettings, l10n?: Localizer): string | undefined;
}

/** Paths that change how git, VS Code or the repository's tooling behave: writing them is code execution. */
export const PROTECTED_PATTERNS = {
  gitHooks: [
    '**/.git/hooks/',
    '.husky/',
    '.githooks/',
    '.pre-commit-config.yaml',
    'lefthook.yml',
    '.lefthook.yml',
    'lefthook-local.yml',
  ],
  gitDir: ['.git'],
  // Files that make git run programs (filters, diff drivers) or fetch other repositories.
  gitConfig: ['.gitattributes', '.gitmodules'],
  // CI definitions run with the repository's secrets once pushed.
  ci: [
    '.github/workflows/',
    '.github/actions/',
    '.gitlab-ci.yml',
    '.gitlab-ci/',
    '.circleci/',
    'azure-pipelines.yml',
    '.azure-pipelines/',
    'Jenkinsfile',
    '.travis.yml',
    'bitbucket-pipelines.yml',
    '.buildkite/',
    '.drone.yml',
    '.woodpecker.yml',
    '.woodpecker/',
  ],
  // Package-manager and build configuration that names commands (matching ignores case: Makefile, makefile, …).
  toolConfig: ['.yarnrc*', '.pnpmfile.cjs', '.pnpmfile.mjs', 'Makefile', 'GNUmakefile', '*.mk'],
  vscodeDir: ['.vscode'],
  codeWorkspace: ['*.code-workspace'],
  devcontainer: ['.devcontainer', '.devcontainer.json'],
} as const;

// Reasons are whole sentences through `l10n.t` (English for the model, the user's language for the prompt).
export const APPROVAL_RULES: readonly ApprovalRule[] = [
  rule('secret-file', 'refuse', true, (f, s, l10n) =>
    eachPath(f, s, (rel) => {
      const hit = matchIgnored(rel, [...DEFAULT_SECRET_PATTERNS, ...(s.secretPatterns ?? [])]);
      return hit && l10n.t('{0} matches the secrets ignore list ({1}): it is not shared with the model.', rel, hit);
    }),
  ),
  // A link inside the workspace that leads out of it is a disguise, not a request: refused, not asked.
  rule('symlink-escape', 'refuse', true, (f, s, l10n) => {
    const escape = (f.target.links ?? []).find(
      (l) =>
        containingFolder(l.written, s.workspaceFolders, style(s)) !== undefined &&
        containingFolder(l.real, s.workspaceFolders, style(s)) === undefined,
    );
    return (
      escape &&
      l10n.t(
        '{0} is a symbolic link to {1}, outside the workspace folders: it is not followed.',
        escape.written,
        escape.real,
      )
    );
  }),
  rule('outside-workspace', 'ask', true, (f, s, l10n) => {
    const outside = (f.target.paths ?? []).find((p) => containingFolder(p, s.workspaceFolders, style(s)) === undefined);
    return outside !== undefined ? l10n.t('{0} is outside the workspace folders.', outside) : undefined;
  }),
  rule('extension-settings', 'ask', true, (f, s, l10n) => {
    if (f.target.settings && f.target.settings.length > 0)
      return l10n.t('changes settings: {0}.', f.target.settings.join(', '));
    const hit = (f.target.paths ?? []).find((p) => (s.protectedPaths ?? []).some((q) => isPathInside(p, q, style(s))));
    return hit && l10n.t("{0} holds the extension's own settings or state.", hit);
  }),
  protectedRule('git-hooks', PROTECTED_PATTERNS.gitHooks, (rel, l10n) =>
    l10n.t('{0} is a git hook or hook configuration.', rel),
  ),
  protectedRule('git-dir', PROTECTED_PATTERNS.gitDir, (rel, l10n) => l10n.t('{0} is inside a .git folder.', rel)),
  protectedRule(
    'git-config',
    PROTECTED_PATTERNS.gitConfig,
    (rel, l10n) =>
      l10n.t('{0} is git configuration that can make git run programs (filters, diff drivers, submodules).', rel),
    true,
  ),
  protectedRule(
    'ci-definition',
    PROTECTED_PATTERNS.ci,
    (rel, l10n) => l10n.t("{0} is a CI definition: CI runs it with the repository's secrets.", rel),
    true,
  ),
  protectedRule(
    'tool-config',
    PROTECTED_PATTERNS.toolConfig,
    (rel, l10n) =>
      l10n.t('{0} is build or package-manager configuration: commands such as make or yarn run what it says.', rel),
    true,
  ),
  rule('package-scripts', 'ask', true, (f, _s, l10n) => {
    const c = f.approvalClass === 'write' ? f.target.packageKeys : undefined;
    return c && c.keys.length > 0
      ? l10n.t(
          'the change rewrites {0} in {1}: npm, yarn or a git hook would run the new commands.',
          c.keys.join(', '),
          c.file,
        )
      : undefined;
  }),
  protectedRule('vscode-dir', PROTECTED_PATTERNS.vscodeDir, (rel, l10n) =>
    l10n.t('{0} is VS Code workspace configuration (.vscode).', rel),
  ),
  protectedRule('code-workspace', PROTECTED_PATTERNS.codeWorkspace, (rel, l10n) =>
    l10n.t('{0} is a VS Code workspace file.', rel),
  ),
  protectedRule('devcontainer', PROTECTED_PATTERNS.devcontainer, (rel, l10n) =>
    l10n.t('{0} is dev container configuration (runs commands).', rel),
  ),
  rule('external-tool', 'ask', true, (f, _s, l10n) =>
    f.approvalClass === 'external'
      ? l10n.t('{0} is provided by another extension or an MCP server.', f.toolName)
      : undefined,
  ),
  rule('command-missing', 'ask', true, (f, _s, l10n) =>
    f.approvalClass === 'command' && !f.target.command?.trim()
      ? l10n.t('the command line is not known in advance.')
      : undefined,
  ),
  rule('command-syntax', 'ask', true, (f, _s, l10n) => {
    const why =
      f.approvalClass === 'command' && f.target.command !== undefined
        ? unsafeCommandSyntax(f.target.command, l10n)
        : undefined;
    return why && l10n.t('the command {0}.', why);
  }),
  rule('command-mentions-secret', 'ask', true, (f, s, l10n) => {
    if (f.approvalClass !== 'command' || f.target.command === undefined) return undefined;
    const patterns = [...DEFAULT_SECRET_PATTERNS, ...(s.secretPatterns ?? [])];
    const token = commandWords(normalizeCommand(f.target.command))
      .flatMap((w) => w.split(/[=:]/))
      .map(unquote)
      .find((t) => t && matchIgnored(t, patterns) !== undefined);
    return token && l10n.t('the command names {0}, which matches the secrets ignore list.', token);
  }),
  rule('command-env-prefix', 'ask', true, (f, _s, l10n) => {
    const hit = commandFacts(f) && environmentPrefix(commandFacts(f)!.words);
    return hit && l10n.t('the command sets an environment variable first ({0}), which can change what runs.', hit);
  }),
  rule('command-code-option', 'ask', true, (f, _s, l10n) => {
    const hit = commandFacts(f) && codeRunningOption(commandFacts(f)!.words);
    return hit && l10n.t('the command has the option {0}, which can run other code or point the tool elsewhere.', hit);
  }),
  rule('command-outside-path', 'ask', true, (f, s, l10n) => {
    const c = commandFacts(f);
    if (!c) return undefined;
    const cwd = f.target.cwd ?? s.workspaceFolders[0];
    const hit = [...pathLikeArguments(c.words), ...pathLikeArguments(c.literalWords)].find((a) => {
      if (a.startsWith('~')) return true;
      const abs = /^(\/|\\|[a-zA-Z]:)/.test(a) ? a : cwd !== undefined ? `${cwd.replace(/[\\/]+$/, '')}/${a}` : a;
      return containingFolder(abs, s.workspaceFolders, style(s)) === undefined;
    });
    return hit !== undefined ? l10n.t('the command names {0}, outside the workspace folders.', hit) : undefined;
  }),
  rule('command-cwd', 'ask', true, (f, s, l10n) => {
    const cwd = f.target.cwd;
    if (f.approvalClass !== 'command' || cwd === undefined) return undefined;
    const atRoot = s.workspaceFolders.some((w) => {
      const a = normalizeAbsolute(cwd);
      const b = normalizeAbsolute(w);
      return (
        a !== undefined && b !== undefined && (style(s).caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b)
      );
    });
    return atRoot ? undefined : l10n.t('the command runs in {0}, not in a workspace folder itself.', cwd);
  }),
  rule('command-repo-config', 'ask', true, (f, _s, l10n) => {
    const hit = f.approvalClass === 'command' ? f.target.repoConfig?.[0] : undefined;
    return (
      hit &&
      l10n.t(
        "the repository's configuration {0} sets {1}, which makes git run a program the repository names.",
        hit.file,
        hit.key,
      )
    );
  }),
  // With writes auto-approved and `npm test` allow-listed, a model could rewrite package.json's test script and run
  // it unasked, in this turn or a later one: after any write in the conversation, even allow-listed commands ask.
  // The reason names the allow-list entry; a command on no list asks by the rule below, which says so.
  rule('command-after-write', 'ask', false, (f, s, l10n) => {
    const hit =
      f.approvalClass === 'command' && f.filesWritten && f.target.command !== undefined
        ? allowListMatch(f.target.command, s.commandAllowList ?? [])
        : undefined;
    return (
      hit &&
      l10n.t(
        'files were written in this conversation: the command matches "{0}" on the allow-list, but it could run what was written.',
        hit,
      )
    );
  }),
  rule('command-allow-listed', 'auto', false, (f, s, l10n) => {
    const hit =
      f.approvalClass === 'command' && f.target.command !== undefined
        ? allowListMatch(f.target.command, s.commandAllowList ?? [])
        : undefined;
    return hit && l10n.t('the command matches "{0}", which is on the allow-list.', hit);
  }),
  rule('command-asks', 'ask', true, (f, _s, l10n) =>
    f.approvalClass === 'command' ? l10n.t('the command is not on the allow-list.') : undefined,
  ),
  rule('write-auto-approved', 'auto', false, (f, s, l10n) =>
    f.approvalClass === 'write' && s.autoApproveWrites === true && (f.target.paths ?? []).length > 0
      ? l10n.t('writes inside the workspace are auto-approved in the settings.')
      : undefined,
  ),
  rule('write-asks', 'ask', false, (f, _s, l10n) =>
    f.approvalClass === 'write' ? l10n.t('writes ask unless auto-approved in the settings.') : undefined,
  ),
  rule('read-in-workspace', 'auto', false, (f, _s, l10n) =>
    f.approvalClass === 'read' ? l10n.t('reads inside the workspace are automatic.') : undefined,
  ),
];

/**
 * The ignore-list pattern that hides `realPath` from the model, else undefined. For tools that return many
 * paths at once (list, find, search): they drop these entries so a secret never reaches the model by listing.
 */
export function secretPattern(realPath: string, settings: PolicySettings): string | undefined {
  const patterns = [...DEFAULT_SECRET_PATTERNS, ...(settings.secretPatterns ?? [])];
  let hit: string | undefined;
  eachPath(
    { toolName: '', approvalClass: 'read', target: { paths: [realPath] } },
    settings,
    (rel) => (hit = matchIgnored(rel, patterns)),
  );
  return hit;
}

/**
 * The verdict on one tool call: the first applicable rule of APPROVAL_RULES (ask when none applies). `reason` is
 * English (the model reads it); `shown` is the same reason in settings.l10n's language, for the user.
 */
export function decide(facts: PolicyFacts, settings: PolicySettings): PolicyVerdict {
  for (const r of APPROVAL_RULES) {
    const reason = r.applies(facts, settings, english);
    if (reason)
      return {
        decision: r.decision,
        rule: r.id,
        reason,
        shown: settings.l10n ? (r.applies(facts, settings, settings.l10n) ?? reason) : reason,
      };
  }
  const l10n = settings.l10n ?? english;
  return {
    decision: 'ask',
    rule: 'default',
    reason: 'no rule allows this call without asking.',
    shown: l10n.t('no rule allows this call without asking.'),
  };
}

type RuleCheck = (facts: PolicyFacts, settings: PolicySettings, l10n: Localizer) => string | undefined;

function rule(id: string, decision: Decision, neverAuto: boolean, check: RuleCheck): ApprovalRule {
  return { id, decision, neverAuto, applies: (f, s, l10n) => check(f, s, l10n ?? english) };
}

function protectedRule(
  id: string,
  patterns: readonly string[],
  why: (rel: string, l10n: Localizer) => string,
  writesOnly = false,
): ApprovalRule {
  return rule(id, 'ask', true, (f, s, l10n) =>
    writesOnly && f.approvalClass !== 'write'
      ? undefined
      : eachPath(f, s, (rel) => matchIgnored(rel, patterns) && why(rel, l10n)),
  );
}

function style(s: PolicySettings): PathStyle {
  return { caseInsensitive: s.caseInsensitive };
}

/**
 * Runs `check` on each target path relative to every workspace folder containing it (a nested folder such
 * as /ws/.vscode must not hide that the file is under /ws/.vscode), or on the absolute path when outside.
 */
function eachPath(
  f: PolicyFacts,
  s: PolicySettings,
  check: (rel: string) => string | undefined | false,
): string | undefined {
  for (const p of f.target.paths ?? []) {
    const folders = s.workspaceFolders.filter((w) => isPathInside(p, w, style(s)));
    const rels =
      folders.length > 0
        ? folders.map((w) => relativeTo(p, w))
        : [(normalizeAbsolute(p) ?? p).replace(/^[a-zA-Z]:/, '')];
    for (const rel of rels) {
      const reason = check(rel === '' ? '.' : rel);
      if (reason) return reason;
    }
  }
  return undefined;
}

/** The words of a command call (undefined for other calls or a missing command line). */
function commandFacts(f: PolicyFacts): { words: string[]; literalWords: string[] } | undefined {
  if (f.approvalClass !== 'command' || f.target.command === undefined) return undefined;
  const line = normalizeCommand(f.target.command);
  // As a POSIX shell reads it, and as cmd.exe or PowerShell would (backslashes literal).
  return { words: commandWords(line), literalWords: commandWords(line, false) };
}

function unquote(token: string): string {
  return token.replace(/^['"]+|['"]+$/g, '');
}
