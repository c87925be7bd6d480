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

/** Every import of vscode in a file. */
const VSCODE_IMPORTS = /^\s*import\s+(\*\s+as\s+\w+|\{[^}]*\})\s+from\s+['"]vscode['"]/gm;
/** The import the host files use, and the one given to pure modules: every whole line of it is taken out. */
const NAMESPACE_IMPORT = /^\s*import\s+\*\s+as\s+vscode\s+from\s+['"]vscode['"];?[ \t]*$/gm;

/**
 * The extractor's inputs: @vscode/l10n-dev compiles its tree-sitter queries again for every text it is given (15 s
 * of one core for ~100 files, nearly all of it in the query compiler), so the files that reach l10n through
 * `import * as vscode from 'vscode'` (or, pure, through a Localizer named `l10n`) go to it as one text under one such
 * import: 0.8 s, the same bundle, comments included (test/unit/scripts/l10nExport.test.ts). A file that imports
 * vscode any other way (`{ l10n }`, another name) goes on its own, as before.
 */
export function extractorInputs(root = ROOT) {
  const alone = [];
  let joined = '';
  for (const rel of sourceFiles(root)) {
    const contents = fs.readFileSync(path.join(root, rel), 'utf8');
    // The extractor skips these itself.
    if (!contents.includes('l10n')) continue;
    const imports = contents.match(VSCODE_IMPORTS) ?? [];
    const viaNamespace = imports.every((line) => /^\s*import\s+\*\s+as\s+vscode\s/.test(line));
    if (viaNamespace && (imports.length > 0 || /\bl10n\.t\(/.test(contents)))
      joined += `${contents.replace(NAMESPACE_IMPORT, '')}\n`;
    else if (imports.length > 0) alone.push({ contents, extension: path.extname(rel) });
  }
  return [
    ...(joined ? [{ contents: `import * as vscode from 'vscode';\n${joined}`, extension: '.ts' }] : []),
    ...alone,
  ];
}

/** English bundle { message: message } of the sources, extracted by @vscode/l10n-dev. */
export async function extractBundle(root = ROOT) {
  const json = await getL10nJson(extractorInputs(root));
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
