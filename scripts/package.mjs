#!/usr/bin/env node
// `npm run package`: production build of the extension and webviews, then a VSIX with vsce
// (.vscodeignore keeps it to dist/, media/, README, CHANGELOG, LICENSE). Prints the path and size.
// Usage: node scripts/package.mjs [--out file.vsix] [--no-build]
//
// Both steps run in a staging copy of the project (its files, not node_modules, .vscode-test or results):
// vsce lists every file under its folder before applying .vscodeignore, and the ~20,000 files of the
// provisioned VS Code builds in .vscode-test/ made that take 8 s instead of 1 s. The production build lands
// in the staging copy too, so packaging never rewrites dist/ under a test run that reads it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, secs } from './lib/proc.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Folders that never go into the staging copy (dependencies, caches, outputs). */
const SKIP = new Set(['.git', 'node_modules', '.vscode-test', 'dist', 'out', 'test-results']);

/** The project's files: git's list (tracked, plus untracked files git does not ignore), else a walk. */
async function projectFiles() {
  try {
    const out = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      capture: true,
    });
    return out.split('\0').filter((f) => f && !SKIP.has(f.split('/')[0]));
  } catch {
    // Not a git checkout (an unpacked archive): everything but the skipped folders.
    const walk = (rel) =>
      fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true }).flatMap((e) => {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) return SKIP.has(p) ? [] : walk(p);
        return e.isFile() ? [p] : [];
      });
    return walk('');
  }
}

/** Copies the project into a fresh temp folder with node_modules linked; returns its path. */
async function stage(noBuild) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-package-'));
  for (const f of await projectFiles()) {
    const from = path.join(ROOT, f);
    if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet in git
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, f));
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  if (noBuild) {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'extension.js')))
      throw new Error('--no-build: dist/extension.js is missing (run npm run build:prod)');
    fs.cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  }
  return dir;
}

/** Sizes of the files under dir/dist, by path relative to dist/. */
function distSizes(dir) {
  const base = path.join(dir, 'dist');
  const out = {};
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(base, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else out[p] = fs.statSync(path.join(base, p)).size;
    }
  };
  if (fs.existsSync(base)) walk('');
  return out;
}

/**
 * Builds (unless noBuild: then dist/ as it is) and packages the extension.
 * Returns {file, bytes, dist}: the VSIX, its size, and the sizes of the built files by path under dist/.
 */
export async function packageVsix({ out, noBuild = false, quiet = false } = {}) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const file = path.resolve(ROOT, out ?? `${pkg.name}-${pkg.version}.vsix`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const dir = await stage(noBuild);
  try {
    if (!noBuild)
      await run(process.execPath, ['esbuild.js', '--production', '--only=extension,vendor,webviews'], {
        cwd: dir,
        quiet,
      });
    const vsce = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
    // Everything is bundled by esbuild, so node_modules stays out (--no-dependencies).
    await run(
      process.execPath,
      [
        vsce,
        'package',
        '--no-dependencies',
        '--allow-missing-repository',
        '--no-rewrite-relative-links',
        '--out',
        file,
      ],
      { cwd: dir, quiet, env: { ...process.env, npm_config_update_notifier: 'false' } },
    );
    return { file, bytes: fs.statSync(file).size, dist: distSizes(dir) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--out');
  const t0 = Date.now();
  const { file, bytes } = await packageVsix({
    out: i >= 0 ? args[i + 1] : undefined,
    noBuild: args.includes('--no-build'),
  });
  console.log(`[package] ${path.relative(process.cwd(), file)}: ${(bytes / 1024).toFixed(1)} KiB (${secs(t0)}s)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`[package] FAILED: ${err.message}`);
    process.exit(1);
  });
}
