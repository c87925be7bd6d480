#!/usr/bin/env node
// Refreshes the README's screenshots (docs/images/*.png) from the real workbench: runs the UI tests that take them
// (scripts/test.mjs starts the emulator and code-server, Playwright drives the workbench; each test saves its
// PNG under test-results/screenshots/<version>/), then copies them to docs/images/ and checks their size.
// Usage: node scripts/screenshots.mjs [--vscode 1.139.1] [--no-build]
// The default version has VS Code's own Chat view (gateway-agent.png needs 1.104 or newer).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './lib/proc.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** README images: at most this many bytes each (they ship in the VSIX; test/unit/vsix.test.ts checks the same). */
export const MAX_BYTES = 100 * 1024;

/** Writes a palette copy of a PNG to `to` with pngquant (Debian: apt-get install pngquant); false when it is missing. */
export async function quantize(from, to) {
  try {
    await run('pngquant', ['--quality', '80-98', '--speed', '1', '--strip', '--force', '--output', to, from]);
    return true;
  } catch (err) {
    if (err.code === 'ENOENT' || /ENOENT|not found/.test(String(err.message))) return false;
    throw err;
  }
}

/** Each README image and the UI test that saves it (test/ui/*.test.ts; "by hand" there means: by this script). */
export const SHOTS = [
  { file: 'chat.png', test: 'sends a message and the answer streams in' },
  { file: 'agent.png', test: 'reads a file, proposes an edit shown as a diff' },
  // The panel test shows the result of the palette test before it.
  {
    file: 'images-panel.png',
    test: 'the image panel lists the results and generates from its form',
    needs: ['Generate Image from the palette saves a PNG'],
  },
  { file: 'gateway-agent.png', test: '@gateway #gatewayModels: the model calls the tool' },
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--vscode');
  const version = i >= 0 ? args[i + 1] : '1.139.1';
  const grep = SHOTS.flatMap((s) => [s.test, ...(s.needs ?? [])])
    .map(escape)
    .join('|');
  const shots = path.join(ROOT, 'test-results', 'screenshots', version);
  const started = Date.now();
  const code = await run(
    process.execPath,
    [
      path.join(ROOT, 'scripts', 'test.mjs'),
      '--ui',
      '--vscode',
      version,
      '--grep',
      grep,
      ...(args.includes('--no-build') ? ['--no-build'] : []),
    ],
    { cwd: ROOT },
  ).then(
    () => 0,
    () => 1,
  );
  const problems = [];
  for (const { file } of SHOTS) {
    const from = path.join(shots, file);
    // Only a PNG this run wrote: an older one would be a stale screenshot under a fresh name.
    if (!fs.existsSync(from) || fs.statSync(from).mtimeMs < started) {
      problems.push(`${file}: not written by this run`);
      continue;
    }
    const small = path.join(shots, file.replace(/\.png$/, '.quantized.png'));
    if (!(await quantize(from, small))) {
      problems.push(`${file}: pngquant is not installed (apt-get install pngquant)`);
      continue;
    }
    const bytes = fs.statSync(small).size;
    if (bytes > MAX_BYTES) {
      problems.push(`${file}: ${Math.round(bytes / 1024)} KB > ${MAX_BYTES / 1024} KB after quantizing`);
      continue;
    }
    fs.copyFileSync(small, path.join(ROOT, 'docs', 'images', file));
    console.log(`[screenshots] docs/images/${file}: ${Math.round(bytes / 1024)} KB`);
  }
  for (const p of problems) console.log(`[screenshots] NOT updated: ${p}`);
  if (code !== 0) console.log('[screenshots] some UI tests failed: see above; only the images they wrote were copied.');
  return code || (problems.length ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      console.error(`[screenshots] FAILED: ${err.message}`);
      process.exit(1);
    },
  );
}
