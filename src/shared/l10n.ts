// Pure modules (src/gateway, src/shared, the pure parts of src/platform) cannot import vscode.l10n, so the words
// they produce take a Localizer: `vscode.l10n` in the extension host, English (this module's `english`) in tests
// and wherever none is passed. Calls are written `l10n.t('English text with {0}', arg)` with a parameter named
// `l10n`, so that @vscode/l10n-dev finds them (test/unit/l10n.test.ts tells it these files use vscode.l10n).
export interface Localizer {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/** The English default: the message itself with `{n}` replaced by the n-th argument (as vscode.l10n.t does). */
export const english: Localizer = {
  t: (message, ...args) =>
    message.replace(/\{(\d+)\}/g, (whole, index: string) =>
      Number(index) < args.length ? String(args[Number(index)]) : whole,
    ),
};
