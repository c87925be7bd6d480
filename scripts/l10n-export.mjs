#!/usr/bin/env node
// `npm run l10n:export`: writes l10n/bundle.l10n.json (the English bundle) from the sources with @vscode/l10n-dev,
// the same extraction that test/unit/l10n.test.ts checks the bundles against.
//
// The extractor only follows `vscode.l10n.t(...)` in files that import vscode. Pure modules (src/gateway, src/shared,
// the pure parts of features) cannot import vscode and take a Localizer named `l10n` instead (src/shared/l10n.ts):
// for them a synthetic `import * as vscode from 'vscode'` is prepended, so their `l10n.t(...)` calls are found too.
// The webviews (src/webview) get their strings from the host and are not scanned.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getL10nJson } from '@vscode/l10n-dev';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The source files whose strings belong in the host bundle, relative to the project root. */
export function sourceFiles(root = ROOT) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (p !== 'src/webview') walk(p);
      } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
    }
  };
  walk('src');
  return out.sort();
}

const IMPORTS_VSCODE = /^\s*import\s+(\*\s+as\s+\w+|\{[^}]*\})\s+from\s+['"]vscode['"]/m;

/** English bundle { message: message } of the sources, extracted by @vscode/l10n-dev. */
export async function extractBundle(root = ROOT) {
  const files = sourceFiles(root).map((rel) => {
    let contents = fs.readFileSync(path.join(root, rel), 'utf8');
    if (!IMPORTS_VSCODE.test(contents) && /\bl10n\.t\(/.test(contents))
      contents = `import * as vscode from 'vscode';\n${contents}`;
    return { contents, extension: path.extname(rel) };
  });
  const json = await getL10nJson(files);
  return Object.fromEntries(
    Object.keys(json)
      .sort()
      .map((key) => [key, typeof json[key] === 'string' ? json[key] : json[key].message]),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bundle = await extractBundle();
  const out = path.join(ROOT, 'l10n', 'bundle.l10n.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(bundle, null, 2)}\n`);
  console.log(`${path.relative(ROOT, out)}: ${Object.keys(bundle).length} strings`);
}
