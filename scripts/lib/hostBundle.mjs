// Bundles the in-host suite: test/host/index.ts (the runner, mocha bundled in) and every
// test/host/*.test.ts as its own file next to it (`vscode` stays external: the extension host provides it).
import fs from 'node:fs';
import path from 'node:path';
import esbuild from 'esbuild';

/** Builds into outDir; returns the list of test files bundled (`select` narrows them: versionMatrix.mjs). */
export async function bundleHostTests(root, outDir, select = (files) => files) {
  const hostDir = path.join(root, 'test', 'host');
  const tests = select(
    fs
      .readdirSync(hostDir)
      .filter((f) => f.endsWith('.test.ts'))
      .sort(),
  );
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode'],
    logLevel: 'error',
    absWorkingDir: root,
  };
  await esbuild.build({
    ...common,
    entryPoints: [path.join(hostDir, 'index.ts')],
    outfile: path.join(outDir, 'index.js'),
  });
  if (tests.length) {
    await esbuild.build({
      ...common,
      entryPoints: Object.fromEntries(tests.map((f) => [f.replace(/\.ts$/, ''), path.join(hostDir, f)])),
      outdir: outDir,
    });
  }
  return tests;
}
