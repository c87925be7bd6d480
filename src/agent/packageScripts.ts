// package.json holds code that tools run: `npm test` runs scripts.test, and git-hook managers read their commands
// from it. A write that changes those keys is a write of code an allow-listed command would run, so it asks.

/** Keys of package.json whose values are commands some tool runs (npm/yarn/pnpm scripts, hook managers). */
export const CODE_RUNNING_PACKAGE_KEYS: readonly string[] = [
  'scripts',
  'husky',
  'simple-git-hooks',
  'pre-commit',
  'pre-push',
  'lint-staged',
  'gitHooks',
  'config',
];

/**
 * The code-running keys whose value differs between two package.json texts (undefined text: no file). A text that is
 * not a JSON object counts as changing every key it might hold: asking once too often is cheap.
 */
export function changedPackageKeys(before: string | undefined, after: string | undefined): string[] {
  const a = parseObject(before);
  const b = parseObject(after);
  if (a === 'invalid' || b === 'invalid') return ['scripts'];
  return CODE_RUNNING_PACKAGE_KEYS.filter((k) => JSON.stringify(a?.[k]) !== JSON.stringify(b?.[k]));
}

function parseObject(text: string | undefined): Record<string, unknown> | undefined | 'invalid' {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : 'invalid';
  } catch {
    return 'invalid';
  }
}
