// The approval policy: one ordered, data-driven table (APPROVAL_RULES); the first rule that applies decides.
// It sees only the tool's class, its resolved target and the user's settings, never a tool result, so nothing
// the model reads (file contents, command output) can change an approval.
import { allowListMatch, normalizeCommand, unsafeCommandSyntax } from './commands';
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
}

export interface PolicyFacts {
  toolName: string;
  approvalClass: ApprovalClass;
  target: ToolTarget;
  /** A write tool already ran in this turn: an allow-listed command could now run what it wrote. */
  wroteThisTurn?: boolean;
}

export interface ApprovalRule {
  id: string;
  decision: Decision;
  /** True when no setting can turn this rule's verdict into 'auto' (a test enumerates these). */
  neverAuto: boolean;
  /** Returns the reason when the rule applies, else undefined. */
  applies(facts: PolicyFacts, settings: PolicySettings): string | undefined;
}

/** Paths that change how git, VS Code or the repository's tooling behave: writing them is code execution. */
export const PROTECTED_PATTERNS = {
  gitHooks: ['**/.git/hooks/', '.husky/', '.githooks/', '.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml', 'lefthook-local.yml'],
  gitDir: ['.git'],
  vscodeDir: ['.vscode'],
  codeWorkspace: ['*.code-workspace'],
  devcontainer: ['.devcontainer', '.devcontainer.json'],
} as const;

export const APPROVAL_RULES: readonly ApprovalRule[] = [
  rule('secret-file', 'refuse', true, (f, s) => eachPath(f, s, (rel) => {
    const hit = matchIgnored(rel, [...DEFAULT_SECRET_PATTERNS, ...(s.secretPatterns ?? [])]);
    return hit && `${rel} matches the secrets ignore list (${hit}): it is not shared with the model.`;
  })),
  // A link inside the workspace that leads out of it is a disguise, not a request: refused, not asked.
  rule('symlink-escape', 'refuse', true, (f, s) => {
    const escape = (f.target.links ?? []).find((l) => containingFolder(l.written, s.workspaceFolders, style(s)) !== undefined &&
      containingFolder(l.real, s.workspaceFolders, style(s)) === undefined);
    return escape && `${escape.written} is a symbolic link to ${escape.real}, outside the workspace folders: it is not followed.`;
  }),
  rule('outside-workspace', 'ask', true, (f, s) => {
    const outside = (f.target.paths ?? []).find((p) => containingFolder(p, s.workspaceFolders, style(s)) === undefined);
    return outside !== undefined ? `${outside} is outside the workspace folders.` : undefined;
  }),
  rule('extension-settings', 'ask', true, (f, s) => {
    if (f.target.settings && f.target.settings.length > 0) return `changes settings: ${f.target.settings.join(', ')}.`;
    const hit = (f.target.paths ?? []).find((p) => (s.protectedPaths ?? []).some((q) => isPathInside(p, q, style(s))));
    return hit && `${hit} holds the extension's own settings or state.`;
  }),
  protectedRule('git-hooks', PROTECTED_PATTERNS.gitHooks, 'is a git hook or hook configuration'),
  protectedRule('git-dir', PROTECTED_PATTERNS.gitDir, 'is inside a .git folder'),
  protectedRule('vscode-dir', PROTECTED_PATTERNS.vscodeDir, 'is VS Code workspace configuration (.vscode)'),
  protectedRule('code-workspace', PROTECTED_PATTERNS.codeWorkspace, 'is a VS Code workspace file'),
  protectedRule('devcontainer', PROTECTED_PATTERNS.devcontainer, 'is dev container configuration (runs commands)'),
  rule('external-tool', 'ask', true, (f) => f.approvalClass === 'external' ? `${f.toolName} is provided by another extension or an MCP server.` : undefined),
  rule('command-missing', 'ask', true, (f) => f.approvalClass === 'command' && !f.target.command?.trim() ? 'the command line is not known in advance.' : undefined),
  rule('command-syntax', 'ask', true, (f) => {
    const why = f.approvalClass === 'command' && f.target.command !== undefined ? unsafeCommandSyntax(f.target.command) : undefined;
    return why && `the command ${why}.`;
  }),
  rule('command-mentions-secret', 'ask', true, (f, s) => {
    if (f.approvalClass !== 'command' || f.target.command === undefined) return undefined;
    const patterns = [...DEFAULT_SECRET_PATTERNS, ...(s.secretPatterns ?? [])];
    const token = normalizeCommand(f.target.command).split(/[ =]/).map(unquote).find((t) => t && matchIgnored(t, patterns) !== undefined);
    return token && `the command names ${token}, which matches the secrets ignore list.`;
  }),
  // With writes auto-approved and `npm test` allow-listed, a model could rewrite package.json's test script and run
  // it unasked: after any write in the turn, even allow-listed commands ask.
  rule('command-after-write', 'ask', false, (f) => f.approvalClass === 'command' && f.wroteThisTurn
    ? 'files were written in this turn, and an allow-listed command could run what was just written.' : undefined),
  rule('command-allow-listed', 'auto', false, (f, s) => {
    const hit = f.approvalClass === 'command' && f.target.command !== undefined ? allowListMatch(f.target.command, s.commandAllowList ?? []) : undefined;
    return hit && `the command starts with "${hit}", which is on the allow-list.`;
  }),
  rule('command-asks', 'ask', true, (f) => f.approvalClass === 'command' ? 'the command is not on the allow-list.' : undefined),
  rule('write-auto-approved', 'auto', false, (f, s) => f.approvalClass === 'write' && s.autoApproveWrites === true && (f.target.paths ?? []).length > 0 ? 'writes inside the workspace are auto-approved in the settings.' : undefined),
  rule('write-asks', 'ask', false, (f) => f.approvalClass === 'write' ? 'writes ask unless auto-approved in the settings.' : undefined),
  rule('read-in-workspace', 'auto', false, (f) => f.approvalClass === 'read' ? 'reads inside the workspace are automatic.' : undefined),
];

/**
 * The ignore-list pattern that hides `realPath` from the model, else undefined. For tools that return many
 * paths at once (list, find, search): they drop these entries so a secret never reaches the model by listing.
 */
export function secretPattern(realPath: string, settings: PolicySettings): string | undefined {
  const patterns = [...DEFAULT_SECRET_PATTERNS, ...(settings.secretPatterns ?? [])];
  let hit: string | undefined;
  eachPath({ toolName: '', approvalClass: 'read', target: { paths: [realPath] } }, settings, (rel) => (hit = matchIgnored(rel, patterns)));
  return hit;
}

/** The verdict on one tool call: the first applicable rule of APPROVAL_RULES (ask when none applies). */
export function decide(facts: PolicyFacts, settings: PolicySettings): PolicyVerdict {
  for (const r of APPROVAL_RULES) {
    const reason = r.applies(facts, settings);
    if (reason) return { decision: r.decision, rule: r.id, reason };
  }
  return { decision: 'ask', rule: 'default', reason: 'no rule allows this call without asking.' };
}

function rule(id: string, decision: Decision, neverAuto: boolean, applies: ApprovalRule['applies']): ApprovalRule {
  return { id, decision, neverAuto, applies };
}

function protectedRule(id: string, patterns: readonly string[], what: string): ApprovalRule {
  return rule(id, 'ask', true, (f, s) => eachPath(f, s, (rel) => matchIgnored(rel, patterns) && `${rel} ${what}.`));
}

function style(s: PolicySettings): PathStyle {
  return { caseInsensitive: s.caseInsensitive };
}

/**
 * Runs `check` on each target path relative to every workspace folder containing it (a nested folder such
 * as /ws/.vscode must not hide that the file is under /ws/.vscode), or on the absolute path when outside.
 */
function eachPath(f: PolicyFacts, s: PolicySettings, check: (rel: string) => string | undefined | false): string | undefined {
  for (const p of f.target.paths ?? []) {
    const folders = s.workspaceFolders.filter((w) => isPathInside(p, w, style(s)));
    const rels = folders.length > 0 ? folders.map((w) => relativeTo(p, w)) : [(normalizeAbsolute(p) ?? p).replace(/^[a-zA-Z]:/, '')];
    for (const rel of rels) {
      const reason = check(rel === '' ? '.' : rel);
      if (reason) return reason;
    }
  }
  return undefined;
}

function unquote(token: string): string {
  return token.replace(/^['"]+|['"]+$/g, '');
}
