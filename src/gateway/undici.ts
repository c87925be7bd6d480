// undici is most of the extension's code by size (~500 KB). It is loaded on the first request instead of
// when the extension loads, so that activation stays cheap; the production build ships it as its own
// file (dist/vendor/undici.js, see esbuild.js).
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/** The undici module, required on first use. */
export function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('undici') as typeof Undici);
}
