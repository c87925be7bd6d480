// Whether a document may get completions at all (pure): the rules of the feature's safety list. Each refusal has a
// reason the status bar can name. The secret rules are the agent's (src/agent/ignore.ts): the same file the agent
// never reads is never sent as a prefix either.
import { DEFAULT_SECRET_PATTERNS, matchIgnored } from '../agent/ignore';

export const DEFAULT_MAX_FILE_KB = 512;

export type GateRefusal =
  'off' | 'language' | 'scheme' | 'untrusted' | 'secret' | 'too-large' | 'no-model' | 'budget' | 'snoozed';

export interface DocumentFacts {
  scheme: string;
  languageId: string;
  /** Workspace-relative path with `/` separators, or the base name of a file outside the workspace. */
  relPath: string;
  sizeChars: number;
}

export interface GateSettings {
  enabled: boolean;
  /** modelGateway.completions.languages: {"*": true, "markdown": false}; a language's own entry wins. */
  languages: Record<string, boolean>;
  model: string;
  trusted: boolean;
  allowUntrusted: boolean;
  maxFileKb: number;
  /** User patterns and .modelgatewayignore patterns (the defaults always apply). */
  secretPatterns: readonly string[];
  budgetReached: boolean;
  snoozedUntil: number;
}

/** Only editors of the user's files: no output panes, git diffs, settings editors, virtual documents. */
const SCHEMES = new Set(['file', 'untitled']);

/** Languages off unless turned on by name: prose and data, where a fill is rarely wanted. */
export const DEFAULT_LANGUAGES: Record<string, boolean> = {
  '*': true,
  plaintext: false,
  markdown: false,
  scminput: false,
};

export function languageEnabled(languageId: string, languages: Record<string, boolean>): boolean {
  const table = { ...DEFAULT_LANGUAGES, ...languages };
  return table[languageId] ?? table['*'] ?? true;
}

/** The first rule that refuses the document, or undefined when it may get completions. */
export function refusalOf(doc: DocumentFacts, s: GateSettings, now: number): GateRefusal | undefined {
  if (!s.enabled) return 'off';
  if (!SCHEMES.has(doc.scheme)) return 'scheme';
  if (!languageEnabled(doc.languageId, s.languages)) return 'language';
  if (!s.trusted && !s.allowUntrusted) return 'untrusted';
  if (doc.scheme === 'file' && matchIgnored(doc.relPath, [...DEFAULT_SECRET_PATTERNS, ...s.secretPatterns]))
    return 'secret';
  if (doc.sizeChars > s.maxFileKb * 1024) return 'too-large';
  if (!s.model) return 'no-model';
  if (s.budgetReached) return 'budget';
  if (s.snoozedUntil > now) return 'snoozed';
  return undefined;
}
