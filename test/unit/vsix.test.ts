// The VSIX as users get it: `npm run package` (scripts/package.mjs: production build + vsce) prints no warnings,
// and the package lists only what the installed extension reads (bundles, runtime media, l10n bundles, manifest
// translations, README with its images, CHANGELOG, LICENSE, icon) — no sources, tests, source maps or
// node_modules. The test builds its own VSIX in a temp folder (about 2 s idle; the production build runs in a
// staging copy, so dist/ is not touched) and reads the zip's central directory itself.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, removeTempDir } from '../support/tempDir';

const root = path.resolve(__dirname, '..', '..');

/** The file names of a zip archive, from its central directory. */
export function zipEntries(zip: Buffer): string[] {
  // End of central directory: the last 0x06054b50 signature (a trailing comment can follow it).
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry at ${at}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Images the README shows by relative path (they ship so VS Code's extension page can show them). */
function readmeImages(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const found = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)|<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
  return [...new Set(found.filter((src) => !/^[a-z]+:/i.test(src)).map((src) => src.replace(/^\.\//, '')))].sort();
}

/**
 * Why a VSIX entry does not belong in the package, or undefined when users need it. `images` are the README's
 * relative images; everything else is a fixed list of what the installed extension reads.
 */
export function unwanted(entry: string, images: readonly string[]): string | undefined {
  if (entry === 'extension.vsixmanifest' || entry === '[Content_Types].xml') return undefined;
  if (!entry.startsWith('extension/')) return 'outside extension/';
  const file = entry.slice('extension/'.length);
  if (/\.map$/.test(file)) return 'a source map';
  if (/(^|\/)(src|test|bench|scripts|node_modules|out|\.vscode-test|test-results|\.git)\//.test(file))
    return 'a source, test or dependency folder';
  const needed = [
    /^package\.json$/,
    /^package\.nls(\.[a-z]{2}(-[a-z]+)?)?\.json$/, // the manifest and its translations
    /^readme\.md$/,
    /^changelog\.md$/,
    /^LICENSE\.txt$/,
    /^dist\/extension\.js$/,
    /^dist\/features\/[\w-]+\.js$/,
    /^dist\/vendor\/[\w-]+\.js$/,
    /^dist\/webview\/[\w-]+\.(js|css|ttf)$/, // the bundles
    /^l10n\/bundle\.l10n(\.[a-z]{2}(-[a-z]+)?)?\.json$/, // host strings
    /^media\/[\w-]+\.(css|png|svg)$/,
    /^media\/walkthrough\/[\w-]+(\.nls\.[a-z]{2}(-[a-z]+)?)?\.md$/,
  ];
  if (needed.some((re) => re.test(file)) || images.includes(file)) return undefined;
  return 'not read by the installed extension';
}

function packageOnce(out: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // `npm run package` is this script; --out keeps the project's own VSIX untouched.
    execFile(
      process.execPath,
      [path.join(root, 'scripts', 'package.mjs'), '--out', out],
      { cwd: root, env: { ...process.env, npm_config_update_notifier: 'false' }, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(`${stdout}\n${stderr}`),
    );
  });
}

describe('VSIX: what `npm run package` ships', function () {
  this.timeout(180_000);
  let dir: string;
  let output: string;
  let entries: string[];
  let vsix: Buffer;

  before(async () => {
    dir = makeTempDir('vsix');
    const out = path.join(dir, 'model-gateway.vsix');
    output = await packageOnce(out);
    vsix = fs.readFileSync(out);
    entries = zipEntries(vsix);
  });

  after(() => {
    if (dir) removeTempDir(dir);
  });

  it('prints no warnings', () => {
    const warnings = output.split('\n').filter((line) => /\bwarn(ing)?\b/i.test(line));
    assert.deepEqual(warnings, [], 'vsce or the build warned');
    assert.match(output, /\[package\] .*\.vsix: [\d.]+ KiB/);
  });

  it('contains only what users need', () => {
    const images = readmeImages();
    const extra = entries
      .map((e) => ({ e, why: unwanted(e, images) }))
      .filter((x) => x.why)
      .map((x) => `${x.e}: ${x.why}`);
    assert.deepEqual(extra, []);
  });

  it('contains everything the manifest, the code and the README point at', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      main: string;
      icon: string;
      l10n: string;
      contributes: { walkthroughs?: Array<{ steps: Array<{ media?: { markdown?: string } }> }> };
    };
    const has = (file: string) => entries.includes(`extension/${file.replace(/^\.\//, '')}`);
    const wanted = [
      pkg.main,
      pkg.icon,
      'package.json',
      'package.nls.json',
      'package.nls.zh-cn.json',
      'readme.md',
      'changelog.md',
      'LICENSE.txt',
      `${pkg.l10n}/bundle.l10n.json`,
      `${pkg.l10n}/bundle.l10n.zh-cn.json`,
      ...(pkg.contributes.walkthroughs ?? []).flatMap((w) =>
        w.steps.map((s) => s.media?.markdown).filter((m): m is string => !!m),
      ),
      ...readmeImages(),
      // Files the extension loads at run time by name (webview styles, the webview bundles and their icon font).
      ...fs
        .readdirSync(path.join(root, 'media'))
        .filter((f) => /\.(css|svg)$/.test(f))
        .map((f) => `media/${f}`),
      'dist/vendor/gateway.js',
      'dist/vendor/undici.js',
      'dist/features/chat.js',
      'dist/features/commands.js',
      'dist/features/errors.js',
      'dist/features/images.js',
      'dist/features/lm.js',
      'dist/webview/chat.js',
      'dist/webview/images.js',
      'dist/webview/codicon.css',
      'dist/webview/codicon.ttf',
    ];
    assert.deepEqual(
      wanted.filter((f) => !has(f)),
      [],
      'missing from the VSIX',
    );
    // Every media file that ships is used: by the manifest, the walkthrough, or the code by name.
    const sources = [
      fs.readFileSync(path.join(root, 'package.json'), 'utf8'),
      ...sourceTexts(path.join(root, 'src')),
    ].join('\n');
    const unused = entries
      .filter((e) => /^extension\/media\/[\w-]+\.\w+$/.test(e))
      .map((e) => path.posix.basename(e))
      .filter((f) => !sources.includes(f));
    assert.deepEqual(unused, [], 'media files nothing refers to');
  });

  it('README images are small PNGs (scripts/screenshots.mjs quantizes them to at most 100 KB)', () => {
    for (const image of readmeImages()) {
      const bytes = fs.statSync(path.join(root, image)).size;
      assert.ok(image.endsWith('.png'), `${image} is a PNG`);
      assert.ok(bytes <= 100 * 1024, `${image}: ${Math.round(bytes / 1024)} KB > 100 KB`);
    }
  });

  it('is under 1 MiB (the download every user makes; issue 46 measured 1,044.7 KiB)', () => {
    assert.ok(vsix.length < 1024 * 1024, `the VSIX is ${(vsix.length / 1024).toFixed(1)} KiB`);
  });

  it('the check rejects sources, tests, source maps, dependencies and stray files', () => {
    const images = ['docs/images/chat.png'];
    for (const bad of [
      'extension/src/extension.ts',
      'extension/test/unit/vsix.test.ts',
      'extension/dist/extension.js.map',
      'extension/node_modules/undici/index.js',
      'extension/bench/index.ts',
      'extension/docs/architecture.md',
      'extension/docs/images/other.png',
      'extension/tsconfig.json',
      'extension/model-gateway-0.1.0.vsix',
    ]) {
      assert.ok(unwanted(bad, images), bad);
    }
    for (const good of [
      'extension/dist/extension.js',
      'extension/docs/images/chat.png',
      'extension/l10n/bundle.l10n.zh-cn.json',
      'extension/package.nls.zh-cn.json',
    ]) {
      assert.equal(unwanted(good, images), undefined, good);
    }
  });
});

function sourceTexts(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceTexts(p) : /\.tsx?$/.test(e.name) ? [fs.readFileSync(p, 'utf8')] : [];
  });
}
