// Builds every bundle of the project. `--production` minifies, `--watch` rebuilds on change,
// `--only=a,b` builds just the named targets (extension with its features, vendor, webviews, emulator, tests).
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const production = args.includes('--production');
const watch = args.includes('--watch');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : undefined;
// dist/extension.js does not run without its feature bundles and the gateway client.
if (only?.has('extension')) ['features', 'gateway'].forEach((t) => only.add(t));

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  legalComments: 'none',
  logLevel: 'warning',
};

/**
 * In the extension bundles `undici` resolves to dist/vendor/undici.js, a bundle of its own that is required
 * on the first request (src/gateway/undici.ts), so activation does not parse ~500 KB it does not need.
 * `from` is the path from the output file's folder to dist/.
 */
const undiciAsVendorFile = (from) => ({
  name: 'undici-as-vendor-file',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: `${from}/vendor/undici.js`, external: true }));
  },
});

/**
 * The feature bundles: each feature's code, required by dist/extension.js on the feature's first use
 * (src/extension.ts `bundles`). CommonJS has no code splitting in esbuild, so each bundle carries its own copy
 * of the shared modules it imports (gateway, platform helpers); the state they share lives in the services
 * object activate() passes in, and `npm run bench -- size` shows the cost.
 */
const featureEntries = {
  chat: 'src/chat/host/register.ts',
  images: 'src/images/register.ts',
  lm: 'src/lm/host/chunk.ts',
  commands: 'src/diagnostics/chunk.ts',
  errors: 'src/platform/errorPresenter.ts',
  completions: 'src/completions/host/register.ts',
};

/**
 * The gateway client's code is dist/vendor/gateway.js, required with the first client (src/gateway/lazyClient.ts);
 * every extension bundle shares that one file. `from` as for undici.
 */
const gatewayClientAsVendorFile = (from) => ({
  name: 'gateway-client-as-vendor-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/client$/ }, (args) =>
      args.importer.endsWith(path.join('src', 'gateway', 'lazyClient.ts'))
        ? { path: `${from}/vendor/gateway.js`, external: true }
        : undefined,
    );
  },
});

/**
 * `import * as vscode from 'vscode'` bundles as `__toESM(require("vscode"))` in every module that has it: a copy of
 * all the API object's properties (some 200 getters) per module, about 15 modules in dist/extension.js and more in
 * each feature bundle. Read as TypeScript's `import vscode = require('vscode')` it is the plain require, shared by
 * all: the same bindings without the copies (docs/performance.md, activate()). The sources keep the ESM form.
 */
const vscodeAsPlainRequire = {
  name: 'vscode-as-plain-require',
  setup(build) {
    const esmImport = /^import \* as vscode from 'vscode';$/m;
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!esmImport.test(text)) return undefined;
      return {
        contents: text.replace(esmImport, "import vscode = require('vscode');"),
        loader: 'ts',
        watchFiles: [args.path],
      };
    });
  },
};

/** dist/extension.js leaves `require('./features/x.js')` to run time. */
const featuresExternal = {
  name: 'features-external',
  setup(build) {
    build.onResolve({ filter: /^\.\/features\/[a-z]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/** Every build target, by name. */
const targets = {
  extension: {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [undiciAsVendorFile('.'), gatewayClientAsVendorFile('.'), featuresExternal, vscodeAsPlainRequire],
  },
  gateway: {
    ...common,
    entryPoints: { gateway: 'src/gateway/client.ts' },
    outdir: 'dist/vendor',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [undiciAsVendorFile('..')],
  },
  features: {
    ...common,
    entryPoints: featureEntries,
    outdir: 'dist/features',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [undiciAsVendorFile('..'), gatewayClientAsVendorFile('..'), vscodeAsPlainRequire],
  },
  vendor: {
    ...common,
    sourcemap: false,
    entryPoints: { undici: 'node_modules/undici/index.js' },
    outdir: 'dist/vendor',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  webviews: {
    ...common,
    entryPoints: {
      chat: 'src/webview/chat/main.ts',
      images: 'src/webview/images/main.ts',
    },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    loader: { '.ttf': 'file' },
  },
  emulator: {
    ...common,
    entryPoints: ['src/emulator/cli.ts'],
    outfile: 'dist/emulator.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  tests: {
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: ['test/host/index.ts'],
    outfile: 'out/test/host/index.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  },
};

/** Copies the codicon font and css next to the webview bundles (the webviews may only load from dist/ and media/). */
function copyCodicons() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(__dirname, 'dist', 'webview');
  fs.mkdirSync(to, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

async function main() {
  const names = Object.keys(targets).filter((n) => (only ? only.has(n) : n !== 'tests'));
  const present = names.filter((n) => {
    const t = targets[n];
    const entries = Array.isArray(t.entryPoints) ? t.entryPoints : Object.values(t.entryPoints);
    return entries.every((e) => fs.existsSync(path.join(__dirname, e)));
  });
  if (present.includes('webviews')) copyCodicons();
  if (watch) {
    for (const n of present) {
      const ctx = await esbuild.context(targets[n]);
      await ctx.watch();
    }
    console.log(`[esbuild] watching ${present.join(', ')}`);
    return;
  }
  await Promise.all(present.map((n) => esbuild.build(targets[n])));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
