// The command line of `npm test` (scripts/test.mjs): its help text and its options, read with node:util parseArgs.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_VERSIONS } from '../provision.mjs';

export const HELP = `node scripts/test.mjs [options]   (npm test = all layers, all VS Code versions)
  --unit            unit tests (test/unit) and webview bundle tests in Chromium (test/browser)
  --host            in-host mocha suite (test/host/*.test.ts) inside real VS Code (code-server)
  --ui              UI suite (test/ui/*.test.ts): Playwright driving the real workbench
                    (no layer flag = all three)
  --soak            long-running tests (test/soak/**/*.test.ts, mocha in node, no timeout); not part of npm test
  --grep PATTERN    only tests whose full title matches (all layers)
  --vscode V[,V]    VS Code versions for host/UI (default: ${DEFAULT_VERSIONS.join(', ')})
  --repeat N        run the selected layers N times (build, VSIX, static checks and the fresh-clone check once)
                    and end with every test that failed in some runs: flaky (passed in others) or failing
  --keep            leave code-server + emulator running after the run, print the URLs, Ctrl+C to stop
  --no-build        skip the esbuild build and VSIX packaging (reuse dist/ and the last VSIX)
  --vsix FILE       test this VSIX in the VS Code layers (implies --no-build; e.g. one packaged from a clean
                    checkout while the working tree is mid-change)
  --clone           the fresh-clone check (README commands in a git clone of this tree; part of the full run)
  --slots N         VS Code layers at once (default 2, or 3 when no VS Code needs provisioning)
  --help            this text
Env: MG_VSCODE_SLOTS (as --slots), MG_HOST_ROUTE=payload|vsix (force the in-host route),
     hang guards (a silent layer is stopped; a slow one is not): MG_HOST_IDLE_TIMEOUT_MS (10 min), MG_UI_IDLE_TIMEOUT_MS
     (15 min), MG_UI_TIMEOUT_MS (30 s per UI action); overall limits, unset by default: MG_HOST_SUITE_TIMEOUT_MS,
     MG_UI_LAYER_TIMEOUT_MS.
Artefacts: test-results/ (logs of code-server, extension host and emulator; screenshots; results JSON).`;

const OPTIONS = {
  unit: { type: 'boolean' },
  host: { type: 'boolean' },
  ui: { type: 'boolean' },
  soak: { type: 'boolean' },
  grep: { type: 'string' },
  vscode: { type: 'string' },
  repeat: { type: 'string' },
  keep: { type: 'boolean' },
  'no-build': { type: 'boolean' },
  vsix: { type: 'string' },
  clone: { type: 'boolean' },
  slots: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** The options of one run; throws with a message that points to --help on anything it does not know. */
export function parseOptions(argv, env = process.env) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new Error(`${err.message} (see --help)`);
  }
  const opts = {
    layers: new Set(['unit', 'host', 'ui', 'soak'].filter((layer) => values[layer])),
    grep: values.grep,
    versions: values.vscode ? values.vscode.split(',') : DEFAULT_VERSIONS,
    repeat: values.repeat === undefined ? 1 : Number(values.repeat),
    keep: Boolean(values.keep),
    build: !values['no-build'] && values.vsix === undefined,
    help: Boolean(values.help),
    clone: Boolean(values.clone),
    // Unset: two, or three when nothing needs provisioning (testSchedule.mjs).
    slots: (values.slots ?? env.MG_VSCODE_SLOTS) ? Number(values.slots ?? env.MG_VSCODE_SLOTS) : undefined,
    vsix: values.vsix === undefined ? undefined : path.resolve(values.vsix),
  };
  if (!opts.layers.size) {
    opts.layers = new Set(['unit', 'host', 'ui']);
    // The full run also clones the tree and runs the README's commands there (not with --grep / --no-build).
    if (!opts.grep && opts.build) opts.clone = true;
  }
  if (opts.slots !== undefined && !(opts.slots >= 1)) throw new Error('--slots needs a number ≥ 1');
  if (!Number.isInteger(opts.repeat) || opts.repeat < 1) throw new Error('--repeat needs a whole number ≥ 1');
  if (opts.repeat > 1 && opts.keep) throw new Error('--repeat and --keep do not go together');
  return opts;
}
