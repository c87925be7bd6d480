#!/usr/bin/env node
// `npm run package`: production build of the extension and webviews, then a VSIX with vsce
// (.vscodeignore keeps it to dist/, media/, README, CHANGELOG, LICENSE). Prints the path and size.
// Usage: node scripts/package.mjs [--out file.vsix] [--no-build]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, secs } from './lib/proc.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Builds (unless noBuild) and packages the extension; returns {file, bytes}. */
export async function packageVsix({ out, noBuild = false, quiet = false } = {}) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const file = path.resolve(ROOT, out ?? `${pkg.name}-${pkg.version}.vsix`);
  if (!noBuild) await run(process.execPath, ['esbuild.js', '--production', '--only=extension,vendor,webviews'], { cwd: ROOT });
  const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  // Everything is bundled by esbuild, so node_modules stays out (--no-dependencies).
  await run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', file],
    { cwd: ROOT, quiet, env: { ...process.env, npm_config_update_notifier: 'false' } });
  const bytes = fs.statSync(file).size;
  return { file, bytes };
}

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--out');
  const t0 = Date.now();
  const { file, bytes } = await packageVsix({ out: i >= 0 ? args[i + 1] : undefined, noBuild: args.includes('--no-build') });
  console.log(`[package] ${path.relative(process.cwd(), file)}: ${(bytes / 1024).toFixed(1)} KiB (${secs(t0)}s)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => { console.error(`[package] FAILED: ${err.message}`); process.exit(1); });
}
