// Pure: the rules and words of @gateway acting as an agent in VS Code's chat (no `vscode` import; unit-tested in
// node). Which of VS Code's tools a request offers, how a tool call's approval is decided in this front end, the
// paths in a tool's input the core's policy judges, and the progress lines and footer the user reads.
import type { ApprovalAnswer } from '../agent';
import type { TokenCounts } from '../shared/tokens';
import { english, type Localizer } from '../shared/l10n';

/**
 * The tools of vscode.lm.tools one request offers the model: the ones the user attached with `#` (the request's
 * toolReferences), minus any the request's tool selection switched off where VS Code exposes that selection
 * (`request.tools`, passed only to extensions with a proposed API). No reference: no tools, and the question
 * stays one plain request, because every tool definition is sent and paid for with every step.
 */
export function offeredToolNames(facts: {
  available: readonly string[];
  referenced: readonly string[];
  /** The request's tool selection, when the running VS Code passes it (name → enabled). */
  selection?: ReadonlyMap<string, boolean>;
}): string[] {
  const wanted = new Set(facts.referenced);
  return [...new Set(facts.available)].filter(
    (name) => wanted.has(name) && !/_internal$/.test(name) && facts.selection?.get(name) !== false,
  );
}

/** The request's tool selection as name → enabled, from `request.tools` (a Map keyed by name or tool info). */
export function selectionOf(tools: unknown): Map<string, boolean> | undefined {
  if (!(tools instanceof Map)) return undefined;
  const out = new Map<string, boolean>();
  for (const [key, value] of tools as Map<unknown, unknown>) {
    const name =
      typeof key === 'string'
        ? key
        : typeof (key as { name?: unknown } | null)?.name === 'string'
          ? (key as { name: string }).name
          : undefined;
    if (name !== undefined && typeof value === 'boolean') out.set(name, value);
  }
  return out;
}

/** A Messages API tool name (letters, digits, _ and -, at most 64), unique within `taken`. */
export function apiToolName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool';
  let out = base;
  for (let n = 2; taken.has(out); n++) out = `${base.slice(0, 60)}_${n}`;
  taken.add(out);
  return out;
}

/** Policy rules whose 'ask' this front end turns into a refusal (see approveInVsCodeChat). */
const NEVER_DELEGATED = new Set([
  'extension-settings',
  'git-hooks',
  'git-dir',
  'vscode-dir',
  'code-workspace',
  'devcontainer',
]);

/**
 * The core's approval callback for @gateway. Each call goes through vscode.lm.invokeTool with the request's
 * toolInvocationToken, so VS Code shows its own confirmation and applies the user's auto-approve settings: that
 * confirmation is the approval here, and @gateway does not ask a second time. The core's policy still runs first:
 * secret paths are refused before VS Code is asked. Calls that would touch git hooks, .vscode, workspace files,
 * dev containers or the extension's own settings are refused too: the sidebar asks for those every time, but
 * VS Code's auto-approve (which the user may have switched on for everything) could let them through unasked here.
 */
export function approveInVsCodeChat(rule: string): ApprovalAnswer {
  if (NEVER_DELEGATED.has(rule)) {
    return {
      approved: false,
      reason:
        "@gateway does not pass calls that touch repository or editor configuration to VS Code tools, whose confirmation may be auto-approved. Ask the user to make this change, or to use the Model Gateway sidebar's Agent mode, which asks every time",
    };
  }
  return { approved: true };
}

/** Input keys that name files or folders (lower case, compared by suffix: filePath, file_path, uris, cwd…). */
const PATH_KEY = /(path|paths|file|files|filename|filenames|uri|uris|dir|directory|folder|cwd)$/;
const MAX_PATHS = 50;

/**
 * The file paths a tool input names (under path-like keys, at any depth up to 4), so the core's policy can refuse
 * secret files and configuration before VS Code runs the tool. `file:` URIs become paths; other URIs and glob
 * patterns are not paths. A tool may read paths under other names: this catches the usual ones, it is not a sandbox.
 */
export function pathsInInput(input: unknown): string[] {
  const out = new Set<string>();
  const visit = (value: unknown, pathKey: boolean, depth: number): void => {
    if (out.size >= MAX_PATHS || depth > 4) return;
    if (typeof value === 'string') {
      if (pathKey) {
        const p = asPath(value);
        if (p) out.add(p);
      }
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, pathKey, depth + 1);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value))
        visit(item, PATH_KEY.test(key.toLowerCase().replace(/[_-]/g, '')), depth + 1);
    }
  };
  visit(input, false, 0);
  return [...out];
}

function asPath(value: string): string | undefined {
  const text = value.trim();
  if (!text || text.length > 4096 || text.includes('\0') || /[*?{}[\]]/.test(text)) return undefined;
  if (/^file:/i.test(text)) {
    try {
      const url = new URL(text);
      const p = decodeURIComponent(url.pathname);
      return /^\/[a-zA-Z]:\//.test(p) ? p.slice(1) : p;
    } catch {
      return undefined;
    }
  }
  // Another scheme (https:, vscode-remote:…) is not a local path.
  if (/^[a-z][a-z0-9+.-]+:/i.test(text) && !/^[a-zA-Z]:[\\/]/.test(text)) return undefined;
  return text;
}

/** Markdown-inert text for a progress line (it may quote model output): no links, emphasis, code or HTML. */
export function inertText(text: string, max = 120): string {
  const flat = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const short = flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  // ':' and '@' stop autolinks (https:, mailto-like addresses); a dot after www stops GFM's www. links.
  return short.replace(/[\\`*_{}[\]()<>#+!|~&:@]/g, (c) => `\\${c}`).replace(/(www)\./gi, '$1\\.');
}

/** The progress line of a tool call: the tool's name and its input, shortened. */
export function toolCallLine(toolName: string, input: unknown, l10n: Localizer = english): string {
  let shown: string;
  try {
    shown = input && typeof input === 'object' && Object.keys(input).length === 0 ? '' : (JSON.stringify(input) ?? '');
  } catch {
    shown = '';
  }
  return shown
    ? l10n.t('Running {0} {1}', inertText(toolName, 64), inertText(shown, 100))
    : l10n.t('Running {0}', inertText(toolName, 64));
}

const count = (n: number): string => n.toLocaleString('en-US');

/** The response footer: steps and the turn's tokens by kind (what the gateway bills), in `l10n`'s language. */
export function usageFooter(steps: number, usage: TokenCounts, l10n: Localizer = english): string {
  const tokens = l10n.t(
    'tokens: input {0}, output {1}, cache read {2}, cache write {3}',
    count(usage.input),
    count(usage.output),
    count(usage.cacheRead),
    count(usage.cacheWrite),
  );
  return `${steps === 1 ? l10n.t('1 step') : l10n.t('{0} steps', steps)} · ${tokens}`;
}

/** The separator the footer follows in the response (see runGatewayAgent). */
export const FOOTER_SEPARATOR = '\n\n---\n';

/** An earlier agent answer as the model reads it again in a later turn: without our footer. */
export function withoutFooter(answer: string): string {
  const at = answer.lastIndexOf(FOOTER_SEPARATOR);
  // Any language: the footer is "<n> <steps> · <tokens>" on one line (usageFooter), right after the separator.
  return at >= 0 && /^\d[^\n]* · [^\n]+\n?$/.test(answer.slice(at + FOOTER_SEPARATOR.length))
    ? answer.slice(0, at)
    : answer;
}
